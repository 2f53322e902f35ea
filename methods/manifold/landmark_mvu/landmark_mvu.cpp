// Landmark MVU (Weinberger, Packer & Saul, "Nonlinear dimensionality reduction by semidefinite
// programming and kernel matrix factorization", AISTATS 2005, section 3): every point is a linear
// combination of m landmarks, y_i = sum_a Q_ia l_a, with Q the linear reconstruction that keeps
// LLE's cost sum_i |x_i - sum_j W_ij x_j|^2 (W: reconstruction weights from the k nearest
// neighbours, sum_j W_ij = 1) smallest with the landmarks held fixed: with Phi = (I - W)'(I - W)
// split into landmark (l) and other (u) rows, Q_l = I and Q_u = -Phi_uu^{-1} Phi_ul (eq. 8).
// The SDP is then over the m x m landmark kernel L only: maximise trace(Q L Q') subject to
// 1' Q L Q' 1 = 0, L positive semi-definite and, for every edge of the symmetrised kNN graph, the
// distance of the factored kernel K = Q L Q' at most the input distance (the paper's
// inequalities: an equality would generally be infeasible once every point is tied to the
// landmarks; edge_lengths: kept imposes the equalities, which DSDP then reports infeasible unless
// the landmarks reconstruct the graph exactly). The embedding is the top eigenvectors of K, found
// from the m x m factor. With every point a landmark Q = I and this is MVU (with the same
// edge_lengths).
//
// New points: each maps by the reconstruction weights of its k nearest training points applied to
// their embedding, the same linear reconstruction Q applies to the landmarks (a new point that
// coincides with a training point takes that point's embedding).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/sparse_lu.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "methods/common/landmarks.hpp"
#include "methods/manifold/landmark_mvu/landmark_mvu.hpp"
#include "methods/manifold/local_alignment.hpp"
#include "methods/manifold/sdp_solver.hpp"

namespace drbench {

namespace {

// A rank-one constraint vector with its exact zeros left out (with every point a landmark the
// distance constraints keep MVU's two entries).
void set_vector(RankOneConstraint& c, const arma::rowvec& a) {
  for (arma::uword t = 0; t < a.n_elem; ++t)
    if (a(t) != 0.0) {
      c.index.push_back(int(t));
      c.value.push_back(a(t));
    }
}

}  // namespace

arma::mat landmark_reconstruction(const arma::mat& X, const arma::uvec& landmarks, arma::uword k,
                                  double reg) {
  const arma::uword n = X.n_cols, m = landmarks.n_elem;
  arma::mat Q(n, m, arma::fill::zeros);
  std::vector<arma::sword> pos(n, -1);  // index among the non-landmarks, -1 for a landmark
  for (arma::uword a = 0; a < m; ++a) Q(landmarks(a), a) = 1.0;
  std::vector<arma::uword> others;
  {
    std::vector<char> is_l(n, 0);
    for (arma::uword a = 0; a < m; ++a) is_l[landmarks(a)] = 1;
    for (arma::uword i = 0; i < n; ++i)
      if (!is_l[i]) {
        pos[i] = arma::sword(others.size());
        others.push_back(i);
      }
  }
  if (others.empty()) return Q;
  // I - W, then Phi = (I - W)'(I - W).
  const arma::sp_mat IW =
      reconstruction_complement(X, neighbour_graph(X, k, {GraphKind::exact}).index, reg);
  const arma::sp_mat Phi = IW.t() * IW;
  // Phi_uu in compressed columns for the sparse LU, and -Phi_ul as the right-hand sides.
  const arma::uword u = others.size();
  std::vector<int> col_ptr(u + 1, 0), rows;
  std::vector<double> vals;
  arma::mat rhs(u, m, arma::fill::zeros);
  std::vector<arma::sword> lpos(n, -1);
  for (arma::uword a = 0; a < m; ++a) lpos[landmarks(a)] = arma::sword(a);
  for (arma::uword c = 0; c < n; ++c) {
    for (auto it = Phi.begin_col(c); it != Phi.end_col(c); ++it) {
      const arma::uword r = it.row();
      if (pos[r] < 0) continue;
      if (pos[c] >= 0) {
        rows.push_back(int(pos[r]));
        vals.push_back(*it);
      } else {
        rhs(arma::uword(pos[r]), arma::uword(lpos[c])) -= *it;
      }
    }
    if (pos[c] >= 0) col_ptr[std::size_t(pos[c]) + 1] = int(rows.size());
  }
  try {
    const SparseLu lu(int(u), std::move(col_ptr), std::move(rows), std::move(vals));
    lu.solve(rhs.memptr(), int(m));
  } catch (const MethodError&) {
    throw MethodError(
        "landmark_mvu: some points are not reconstructed from any landmark (the neighbour graph "
        "falls apart into pieces without one); raise 'landmarks' or 'neighbours'");
  }
  for (arma::uword t = 0; t < u; ++t) Q.row(others[t]) = rhs.row(t);
  return Q;
}

void LandmarkMvu::fit(const FitInput& in) {
  X_ = in.X;
  const arma::uword n = in.X.n_cols, m = s_.landmarks == 0 ? n : std::min(s_.landmarks, n);
  if (in.dim >= m)
    throw MethodError("landmark_mvu: dims=" + std::to_string(in.dim) + " needs more than " +
                      std::to_string(in.dim) + " landmarks; raise 'landmarks'");
  if (in.trace && m < s_.landmarks) in.trace->note("landmarks_used", std::to_string(m));
  arma::uvec idx;
  if (m == n)
    idx = arma::regspace<arma::uvec>(0, n - 1);
  else if (s_.maxmin)
    idx = arma::sort(maxmin_landmarks(in.X, m, in.rng));
  else
    idx = arma::sort(arma::uvec(in.rng.permutation(n).head(m)));
  const arma::mat Q = landmark_reconstruction(in.X, idx, s_.neighbours, s_.reg);
  const arma::sp_mat G = geodesic_graph(
      in.X, GeodesicGraphSpec::knn_graph(s_.neighbours, s_.connect), "landmark_mvu", in.trace);
  const double scale = mean_squared_edge(G);
  std::vector<RankOneConstraint> cons;
  for (auto it = G.begin(); it != G.end(); ++it) {
    if (it.row() >= it.col()) continue;
    RankOneConstraint c;
    set_vector(c, Q.row(it.row()) - Q.row(it.col()));
    c.bound = (*it) * (*it) / scale;
    c.inequality = s_.at_most;
    cons.push_back(std::move(c));
  }
  RankOneConstraint centre;  // 1' Q L Q' 1 = 0
  set_vector(centre, arma::sum(Q, 0) / std::sqrt(double(n)));
  cons.push_back(std::move(centre));
  SdpOptions opt;
  opt.max_iterations = int(s_.iterations);
  opt.gap_tolerance = s_.tolerance;
  const SdpSolution sol = solve_rank_one_sdp(m, Q.t() * Q, cons, opt, in.trace, "landmark_mvu");
  L_ = scale * sol.K;
  max_violation_ = sol.max_violation;
  // K = Q L Q' = Z'Z with Z = R'Q', L = R R': K's top eigenvectors v_r = Z'u_r / sqrt(lambda_r)
  // come from the m x m matrix Z Z' (u_r its unit eigenvectors), and the embedding's rows
  // sqrt(lambda_r) v_r' are u_r' Z.
  arma::vec lv;
  arma::mat V;
  arma::eig_sym(lv, V, 0.5 * (L_ + L_.t()));
  const arma::mat R = V * arma::diagmat(arma::sqrt(arma::clamp(lv, 0.0, arma::datum::inf)));
  const arma::mat Z = R.t() * Q.t();  // m x n
  const EigenPairs e = sym_eigs(Z * Z.t(), in.dim, Spectrum::Largest);
  Y_ = e.vectors.t() * Z;
  // MVU's sign convention (fix_signs on K's eigenvectors): each row's largest entry positive.
  for (arma::uword r = 0; r < in.dim; ++r)
    if (Y_(r, arma::index_max(arma::abs(Y_.row(r)))) < 0) Y_.row(r) *= -1.0;
}

arma::mat LandmarkMvu::transform(const arma::mat& Xnew) const {
  return reconstruction_map(X_, Y_, Xnew, s_.neighbours, s_.reg, "landmark_mvu");
}

namespace {

// The parameters the contract and the budget both read.
struct LandmarkMvuKeys {
  IntKey neighbours = keywords::neighbours(
      6, 2, 100, "the reconstruction weights and the graph whose edge lengths the embedding keeps");
  IntKey landmarks = keywords::landmarks(
      40,
      "drawn from the training points (all of them when fewer; 0 = every point, MVU with the "
      "edges as inequalities)");
};

MethodInfo landmark_mvu_info() {
  MethodInfo m = describe_method(
      "landmark_mvu", "manifold",
      "landmark MVU: MVU's SDP on an m x m landmark kernel, every point a linear reconstruction "
      "from the landmarks; out-of-sample by reconstruction weights",
      "Weinberger, Packer & Saul, AISTATS 2005, section 3, eq. 8-10");
  const auto [neighbours, landmarks] = LandmarkMvuKeys{};
  const ChoiceKey choice = keywords::landmark_choice();
  const RealKey reg = keywords::ridge(1e-3, 0.0, std::nullopt, true,
                                      "on the local Gram matrix of the reconstruction weights, "
                                      "times its trace (needed when k > d)");
  const ChoiceKey disconnected = keywords::disconnected("connect");
  const ChoiceKey lengths = edge_lengths("at_most");
  const IntKey iterations = dsdp_iterations();
  const RealKey tolerance = dsdp_tolerance();
  m.params = {neighbours, landmarks, choice, reg, disconnected, lengths, iterations, tolerance};
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.max_dim = [landmarks](const DataShape& s, const ParamSet& p) {
    const arma::uword lm = arma::uword(landmarks_used(landmarks(p), s.n));
    return std::min<arma::uword>(lm > 0 ? lm - 1 : 0, s.n > 1 ? s.n - 1 : 0);
  };
  m.advise = [=](const DataShape& s, const ParamSet& p) -> std::string {
    if (s.n <= 4 * kMvuAdviseLimit) return {};
    return "landmark_mvu still has one constraint per kNN edge (about " +
           std::to_string(std::int64_t(mvu_constraints(s.n, neighbours(p)))) +
           " here), and DSDP factors their Schur matrix every iteration";
  };
  m.make = [=](const ParamSet& p) {
    return std::make_unique<LandmarkMvu>(
        LandmarkMvuSetting{arma::uword(neighbours(p)), arma::uword(landmarks(p)),
                           choice(p) == "maxmin", reg(p), disconnected(p) == "connect",
                           lengths(p) == "at_most", arma::uword(iterations(p)), tolerance(p)});
  };
  return m;
}

}  // namespace
// The SDP, with dense rank-one constraints of length m, and the sparse solve for Q. Memory: the
// SDP, its m-long constraint vectors, Q and its copies (n x m), the sparse Phi, the exact kNN
// search's blocks and the embeddings.
DRBENCH_METHOD(landmark_mvu_info,
               make_budget(
                   [keys = LandmarkMvuKeys{}](const TaskSize& z) {
                     const double lm = landmarks_used(keys.landmarks(z.p), z.shape.n),
                                  c = mvu_constraints(z.shape.n, keys.neighbours(z.p));
                     return sdp_cost(lm, c) + 30.0 * c * c * lm + z.n * lm * 50.0 + z.n * z.n * z.d;
                   },
                   [keys = LandmarkMvuKeys{}](const TaskSize& z) {
                     const double lm = landmarks_used(keys.landmarks(z.p), z.shape.n), n = z.n,
                                  c = mvu_constraints(z.shape.n, keys.neighbours(z.p));
                     const double k = double(keys.neighbours(z.p));
                     return kProcessBaseBytes + sdp_memory(lm, c) + 12.0 * c * lm +
                            8.0 * 4.0 * n * lm + 100.0 * n * k * k + 8.0 * n * std::min(n, 4096.0) +
                            8.0 * n * z.d + 8.0 * 2.0 * z.q * (z.n + z.n_test);
                   }))
}  // namespace drbench
