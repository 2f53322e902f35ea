#include "methods/manifold/local_alignment.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/neighbours/dijkstra.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

arma::vec reconstruction_weights(const arma::vec& x, const arma::mat& N, double reg) {
  const arma::mat Z = N.each_col() - x;
  arma::mat C = Z.t() * Z;
  const double tr = arma::trace(C);
  C.diag() += reg * (tr > 0 ? tr : 1.0);
  arma::vec w;
  // C is symmetric positive definite with the ridge: plain LU (dgesv) solves it to round-off; the
  // default refined expert driver (equilibration, iterative refinement, condition estimate) cost
  // a third of the weights' time at 2,000 points for no visible change.
  if (!arma::solve(w, C, arma::ones(N.n_cols),
                   arma::solve_opts::fast + arma::solve_opts::no_approx))
    throw MethodError("lle: local Gram matrix is singular; increase reg");
  return w / arma::accu(w);
}

arma::sp_mat reconstruction_complement(const arma::mat& X, const arma::umat& nn, double reg,
                                       unsigned threads) {
  const arma::uword n = X.n_cols, k = nn.n_rows;
  arma::umat loc(2, n * (k + 1));
  arma::vec val(n * (k + 1));
  parallel_for(n, threads, [&](std::size_t i) {
    const arma::vec w = reconstruction_weights(X.col(i), X.cols(nn.col(i)), reg);
    for (arma::uword j = 0; j < k; ++j) {
      loc(0, i * (k + 1) + j) = i;
      loc(1, i * (k + 1) + j) = nn(j, i);
      val(i * (k + 1) + j) = -w(j);
    }
    loc(0, i * (k + 1) + k) = i;
    loc(1, i * (k + 1) + k) = i;
    val(i * (k + 1) + k) = 1.0;
  });
  return arma::sp_mat(loc, val, n, n);
}

EigenPairs bottom_eigs_after_constant(arma::sp_mat Ms, arma::uword dim, bool dense,
                                      const std::string& who, ShiftInvertInfo* info,
                                      bool zero_check) {
  const arma::uword n = Ms.n_rows;
  const double trace_m = arma::accu(Ms.diag());
  EigenPairs e;
  if (dense) {
    // The constant vector is M's null vector. Lifting it above the spectrum leaves the wanted
    // eigenvectors exactly orthogonal to it, i.e. Y 1 = 0. Filled as lift + M_ij in one pass
    // (the same sums as densifying M and adding the lift).
    auto lifted = [&Ms, n, lift = 2.0 * trace_m / n]() {
      arma::mat M(n, n, arma::fill::value(lift));
      for (auto it = Ms.begin(); it != Ms.end(); ++it) M(it.row(), it.col()) += *it;
      return M;
    };
    arma::mat M = lifted();
    // The lifted M is positive definite when the graph is connected: shift-invert Lanczos on its
    // Cholesky factor then beats the dense tridiagonal reduction by far at a few thousand points.
    // The factor overwrites M; the dense fallback builds it again.
    if (!smallest_eigs_spd_in_place(e.values, e.vectors, M, dim)) {
      M = lifted();
      e = sym_eigs(M, dim, Spectrum::Smallest);
    }
  } else {
    // Sparse: the constant vector deflated instead of lifted, with the same effect (Y 1 = 0).
    const arma::mat one(n, 1, arma::fill::value(1.0 / std::sqrt(double(n))));
    smallest_eigs_shift_invert(e.values, e.vectors, Ms, dim, one, who.c_str(), info);
  }
  if (zero_check && dim > 1 && e.values(dim - 1) < 1e-12 * trace_m / n)
    throw MethodError(who +
                      ": the neighbour graph falls apart into components (several zero "
                      "eigenvalues); increase neighbours");
  return e;
}

arma::mat reconstruction_map(const arma::mat& X, const arma::mat& Y, const arma::mat& Q,
                             arma::uword k, double reg, const std::string& who) {
  if (Q.n_rows != X.n_rows)
    throw MethodError(who + " transform: new points have " + std::to_string(Q.n_rows) +
                      " features, the training data " + std::to_string(X.n_rows));
  const NeighbourGraph nb = NeighbourIndex(X, k, {GraphKind::exact}).query(Q, k);
  arma::mat Ynew(Y.n_rows, Q.n_cols);
  for (arma::uword q = 0; q < Q.n_cols; ++q) {
    if (nb.dist(0, q) == 0.0) {  // a training point: its own embedding
      Ynew.col(q) = Y.col(nb.index(0, q));
      continue;
    }
    const arma::uvec idx = nb.index.col(q);
    Ynew.col(q) = Y.cols(idx) * reconstruction_weights(Q.col(q), X.cols(idx), reg);
  }
  return Ynew;
}

arma::sp_mat Triplets::matrix(arma::uword n) const {
  arma::umat loc(2, rows.size());
  for (std::size_t t = 0; t < rows.size(); ++t) {
    loc(0, t) = rows[t];
    loc(1, t) = cols[t];
  }
  return arma::sp_mat(true, loc, arma::vec(vals), n, n);
}

void local_gram_eigs(const arma::mat& G, arma::vec& values, arma::mat& vectors) {
  arma::vec ev;
  arma::mat V;
  if (!arma::eig_sym(ev, V, G)) throw MethodError("local Gram eigenproblem failed");
  values = arma::clamp(arma::vec(arma::reverse(ev)), 0.0, arma::datum::inf);
  vectors = arma::fliplr(V);
}

void centred_patch_eigs(const arma::mat& X, const arma::uvec& idx, arma::vec& values,
                        arma::mat& vectors) {
  arma::mat Z = X.cols(idx);
  Z.each_col() -= arma::mean(Z, 1);
  local_gram_eigs(Z.t() * Z, values, vectors);
}

arma::umat patch_neighbours(const arma::mat& X, arma::uword k, bool include_self) {
  if (!include_self) return neighbour_graph(X, k, {GraphKind::exact}).index;
  const arma::uword n = X.n_cols;
  arma::umat nn(k, n);
  nn.row(0) = arma::regspace<arma::urowvec>(0, n - 1);
  if (k > 1) nn.rows(1, k - 1) = neighbour_graph(X, k - 1, {GraphKind::exact}).index;
  return nn;
}

arma::sp_mat ltsa_alignment(const arma::mat& X, const arma::umat& nn, arma::uword dim) {
  const arma::uword n = X.n_cols, k = nn.n_rows;
  Triplets t;
  for (arma::uword i = 0; i < n; ++i) {
    const arma::uvec idx = nn.col(i);
    arma::vec ev;
    arma::mat V;
    centred_patch_eigs(X, idx, ev, V);
    arma::mat G(k, dim + 1);
    G.col(0).fill(1.0 / std::sqrt(double(k)));
    G.cols(1, dim) = V.head_cols(dim);
    t.add_block(idx, arma::eye(k, k) - G * G.t());
  }
  return t.matrix(n);
}

void LocalAlignmentMethod::fit(const FitInput& in) {
  X_ = in.X;
  const arma::uword n = in.X.n_cols, k = s_.neighbours;
  if (k < min_neighbours(in.dim))
    throw MethodError(name_ + ": dims=" + std::to_string(in.dim) + " needs neighbours >= " +
                      std::to_string(min_neighbours(in.dim)) + "; raise 'neighbours'");
  if (k >= n)
    throw MethodError(name_ + ": neighbours=" + std::to_string(k) + " needs more than " +
                      std::to_string(k) + " training points; lower 'neighbours'");
  const arma::sp_mat M = alignment(in.X, patch_neighbours(in.X, k, s_.include_self), in.dim);
  // With `patch: others`, a point in no other point's patch has an empty row in LTSA's and HLLE's
  // M: nothing places it, and its indicator is a null vector.
  const arma::uword unplaced = arma::accu(arma::vec(arma::sum(arma::abs(M), 1)) == 0.0);
  if (unplaced > 0)
    throw MethodError(name_ + ": " + std::to_string(unplaced) +
                      " point(s) are among no other point's " + std::to_string(k) +
                      " nearest neighbours, so nothing places them; raise 'neighbours' or set "
                      "'patch: self'");
  // Points whose neighbourhoods share no point cannot be placed relative to each other.
  arma::uword components = 0;
  connected_components(arma::sp_mat(arma::abs(M)), components);
  if (components > 1)
    throw MethodError(name_ + ": the neighbour graph falls apart into " +
                      std::to_string(components) + " components; increase neighbours");
  const EigenPairs e =
      bottom_eigs_after_constant(M, in.dim, n <= kDenseLimit, name_, nullptr, false);
  arma::mat V = e.vectors;
  fix_signs(V);
  Y_ = std::sqrt(double(n)) * V.t();
}

LocalAlignmentSetting LocalAlignmentKeys::operator()(const ParamSet& p) const {
  return LocalAlignmentSetting{arma::uword(neighbours(p)), ridge(p),
                               has_patch && patch(p) == "self"};
}

LocalAlignmentKeys local_alignment_keys(std::int64_t default_neighbours, bool patch) {
  return {
      keywords::neighbours(default_neighbours, 2, 500, "of every local patch"),
      keywords::ridge(1e-3, 0.0, std::nullopt, true,
                      "on the local Gram matrix, times its trace (reconstruction weights of new "
                      "points; modified LLE's own weights)"),
      ParamSpec::choice("patch", "others", {"others", "self"},
                        "a point's patch: its neighbours nearest others (scikit-learn), or itself "
                        "and its neighbours - 1 nearest others (the papers)"),
      patch};
}

LocalAlignmentKeys describe_local_alignment(MethodInfo& m, std::int64_t default_neighbours,
                                            bool patch) {
  const LocalAlignmentKeys keys = local_alignment_keys(default_neighbours, patch);
  m.params = {keys.neighbours, keys.ridge};
  if (patch) m.params.push_back(keys.patch);
  m.transform_reproduces_embedding = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 2 : 0; };
  return keys;
}

Budget local_alignment_budget(std::int64_t default_neighbours) {
  // Above the dense limit the sparse LU of M, taken as LLE's measured fill-in (lle's budget).
  const std::string lle = "lle's sparse path on Fashion-MNIST, 50-D, k = 10, 5,000-20,000 points";
  const std::string run = "SuperLU factor entries and peak (2553f1f, 2026-11-27), rounded";
  const FittedConstants fitted{{"lu_bytes_per_entry", 11.0, lle, run},
                               {"lu_entries_scale", 10.0, lle, run},
                               {"lu_entries_exponent", 1.8, lle, run},
                               {"reference_k", 10.0, lle, run}};
  const double lu_bytes = fitted("lu_bytes_per_entry"), lu_scale = fitted("lu_entries_scale"),
               lu_exp = fitted("lu_entries_exponent"), ref_k = fitted("reference_k");
  const IntKey nb = local_alignment_keys(default_neighbours, false).neighbours;
  // kNN distances (n^2 d), a k x k eigenproblem per point (n k^3), and the n x n eigenproblem.
  TaskEstimate cost = [nb](const TaskSize& z) {
    const double k = double(nb(z.p));
    return z.n * z.n * z.d + z.n * k * k * k + 5.0 * z.n * z.n * z.n;
  };
  // The kNN search's distance matrix, M's triplets (k^2 a point) and its sparse form, then the
  // dense lifted M, its factor and LAPACK's copy, or the sparse LU.
  TaskEstimate memory = [=](const TaskSize& z) {
    const double n = z.n, k = double(nb(z.p));
    const double graph = 8.0 * n * n + 40.0 * k * k * n;
    const double solve = z.shape.n <= LocalAlignmentMethod::kDenseLimit
                             ? 24.0 * n * n
                             : lu_bytes * lu_scale * std::pow(n, lu_exp) * (k / ref_k);
    return kProcessBaseBytes + graph + solve + 16.0 * n * z.q;
  };
  return make_budget(std::move(cost), std::move(memory), fitted);
}

TaskEstimate local_projection_cost(const IntKey& neighbours) {
  return [neighbours](const TaskSize& z) {
    const double n = z.n, d = z.d, k = double(neighbours(z.p));
    return n * n * d + n * k * k * (d + k) + n * d * d + d * d * d;
  };
}

}  // namespace drbench
