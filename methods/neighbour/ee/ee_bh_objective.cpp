#include "methods/neighbour/ee/ee_bh_objective.hpp"
#include "methods/neighbour/ee/ee_objective.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/linalg/pcg.hpp"
#include "framework/nbody/gaussian_bh.hpp"
#include "framework/nbody/space_tree.hpp"
#include "framework/nbody/sparse_edge_sums.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

namespace {

// The per-point Barnes-Hut sums of point i: e = sum_m w-_im k_im and f = sum_m w-_im k_im (y_i -
// y_m), k = exp(-|y_i - y_m|^2).
template <int D>
struct RepulsionVisitor {
  const double* xi;     // x_i (Dx)
  double ai;            // |x_i|^2
  const double* Xt;     // inputs in tree order, Dx per point
  const double* S;      // per-node sums of x, Dx per node
  const double* A;      // per-node sums of |x|^2
  const double* count;  // per-node point counts
  arma::uword Dx;
  double e = 0.0;
  double f[D] = {};

  bool prune(double d2, double width2) const { return gaussian_cell_negligible<D>(d2, width2); }
  void point(int p, const double* u, double e2) {
    const double k = sqdist4(xi, Xt + Dx * p, Dx) * std::exp(-e2);
    e += k;
    for (int q = 0; q < D; ++q) f[q] += k * u[q];
  }
  void cell(int t, const double* diff, double d2) {
    const double dot = dot4(xi, S + Dx * t, Dx);
    // |C| a_i + sum a_m - 2 x_i . sum x_m = sum_m |x_i - x_m|^2 >= 0 (clamped against rounding).
    const double w = std::max(0.0, count[t] * ai + A[t] - 2.0 * dot);
    const double k = w * std::exp(-d2);
    e += k;
    for (int q = 0; q < D; ++q) f[q] += k * diff[q];
  }
};

}  // namespace

EeBhObjective::EeBhObjective(arma::sp_mat Wp, const arma::mat& X, double lambda, arma::uword dim,
                             double theta, unsigned threads)
    : Wp_(std::move(Wp)), lambda_(lambda), theta_(theta), dim_(dim), threads_(threads) {
  const arma::uword n = X.n_cols;
  if (Wp_.n_rows != n || Wp_.n_cols != n)
    throw Error("internal: linear-time EE weights do not match the data");
  if (dim < 1 || dim > 3)
    throw MethodError("ee: Barnes-Hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(dim) + " (fix: 'gradient: exact' or dims <= 3)");
  X_ = X.each_col() - arma::mean(X, 1);
  // sum over ordered pairs of |x_n - x_m|^2 = 2 n sum |x_n|^2 for centred x.
  scale_ = 2.0 * double(n) * arma::accu(arma::square(X_));
  if (!(scale_ > 0)) throw MethodError("ee: all input points coincide");
  X_ /= std::sqrt(scale_);
  a_ = arma::sum(arma::square(X_), 0).t();
  Dp_ = arma::vec(arma::sum(Wp_, 1));
  Wp_.sync();  // evaluate_d reads the CSC arrays directly
}

template <int D>
double EeBhObjective::evaluate_d(const arma::mat& Y, arma::mat* G) const {
  const arma::uword n = Y.n_cols, Dx = X_.n_rows;
  const SpaceTree<D> tree(Y);
  const auto& order = tree.order();
  // Inputs in tree order, their prefix sums, and each node's sums over its points.
  arma::mat Xt(Dx, n);
  arma::vec at(n);
  for (arma::uword p = 0; p < n; ++p) {
    Xt.col(p) = X_.col(order[p]);
    at(p) = a_(order[p]);
  }
  arma::mat Px(Dx, n + 1);
  arma::vec Pa(n + 1);
  Px.col(0).zeros();
  Pa(0) = 0.0;
  for (arma::uword p = 0; p < n; ++p) {
    Px.col(p + 1) = Px.col(p) + Xt.col(p);
    Pa(p + 1) = Pa(p) + at(p);
  }
  const int nodes = tree.node_count();
  arma::mat S(Dx, nodes);
  arma::vec A(nodes), C(nodes);
  for (int t = 0; t < nodes; ++t) {
    const auto& r = tree.range(t);
    S.col(t) = Px.col(r.second) - Px.col(r.first);
    A(t) = Pa(r.second) - Pa(r.first);
    C(t) = tree.count(t);
  }

  arma::vec e(n);
  arma::mat F(D, n);
  const double theta2 = theta_ * theta_;
  parallel_blocks(n, threads_, [&](std::size_t s, std::size_t end, std::size_t) {
    for (std::size_t p = s; p < end; ++p) {
      const arma::uword i = order[p];
      RepulsionVisitor<D> v{Xt.colptr(p), at(p),      Xt.memptr(), S.memptr(),
                            A.memptr(),   C.memptr(), Dx};
      tree.walk(i, theta2, v);
      e(i) = v.e;
      for (int q = 0; q < D; ++q) F(q, i) = v.f[q];
    }
  });

  // Attraction over the stored w+ (column i holds w+_.i = w+_i. by symmetry).
  arma::vec ep(n);
  arma::mat Fp(D, n);
  sparse_edge_sums<D>(
      Wp_, Y, threads_,
      [](double w, double d2) {
        return EdgeTerms{w * d2, w};
      },
      ep.memptr(), Fp.memptr());
  if (G) *G = 4.0 * (Fp - lambda_ * F);
  double E = 0.0;
  for (arma::uword i = 0; i < n; ++i) E += ep(i) + lambda_ * e(i);
  return E;
}

double EeBhObjective::evaluate(const arma::vec& y, arma::vec* grad) {
  const arma::uword n = Wp_.n_rows;
  const arma::mat Y(const_cast<double*>(y.memptr()), dim_, n, false, true);
  arma::mat G;
  double E = 0.0;
  switch (dim_) {
    case 1:
      E = evaluate_d<1>(Y, grad ? &G : nullptr);
      break;
    case 2:
      E = evaluate_d<2>(Y, grad ? &G : nullptr);
      break;
    default:
      E = evaluate_d<3>(Y, grad ? &G : nullptr);
      break;
  }
  if (grad) *grad = arma::vectorise(G);
  return E;
}

namespace {

// The entries of symmetric W on the graph that keeps, for every column, its k largest values
// (ties to the smaller row index, so the graph depends on W alone), and an edge wherever either
// end keeps it.
arma::sp_mat strongest_edges(const arma::sp_mat& W, arma::uword k) {
  const arma::uword n = W.n_cols;
  W.sync();
  std::vector<arma::uword> rows, cols;
  std::vector<arma::uword> idx;
  for (arma::uword i = 0; i < n; ++i) {
    const arma::uword b = W.col_ptrs[i], e = W.col_ptrs[i + 1];
    idx.resize(e - b);
    for (arma::uword q = b; q < e; ++q) idx[q - b] = q;
    const arma::uword keep = std::min<arma::uword>(k, e - b);
    std::partial_sort(idx.begin(), idx.begin() + keep, idx.end(),
                      [&W](arma::uword p, arma::uword q) {
                        return W.values[p] > W.values[q] ||
                               (W.values[p] == W.values[q] && W.row_indices[p] < W.row_indices[q]);
                      });
    for (arma::uword t = 0; t < keep; ++t) {
      rows.push_back(W.row_indices[idx[t]]);
      cols.push_back(i);
      rows.push_back(i);
      cols.push_back(W.row_indices[idx[t]]);
    }
  }
  arma::umat loc(2, rows.size());
  for (std::size_t c = 0; c < rows.size(); ++c) {
    loc(0, c) = rows[c];
    loc(1, c) = cols[c];
  }
  // Kept from both ends the mask entry is 2: spones makes it 1 before it picks W's value.
  const arma::sp_mat mask(true, loc, arma::vec(rows.size(), arma::fill::ones), n, n, true, false);
  return arma::sp_mat(arma::spones(mask) % W);
}

}  // namespace

double EeBhObjective::factor_spectral(double ridge) {
  const arma::uword n = Wp_.n_rows;
  const double mu = ridge * 4.0 * arma::accu(Dp_) / double(n);
  if (!(mu > 0))
    throw MethodError(
        "ee: the attractive weights w+ are all zero (fix: raise 'perplexity' or 'neighbours')");
  M_ = -4.0 * Wp_;
  M_.diag() += 4.0 * Dp_ + mu;
  M_.sync();
  prev_.reset();
  precond_.reset();
  factor_seconds_ = 0.0;
  if (precondition_neighbours > 0) {
    const auto t0 = std::chrono::steady_clock::now();
    const arma::sp_mat Wk = strongest_edges(Wp_, precondition_neighbours);
    arma::sp_mat Mk = -4.0 * Wk;
    // The k-graph's own degrees, so that Mk, like M, keeps the constants of each connected part
    // near its null space: with M's degrees instead (dropped weight left on the diagonal) the
    // factor no longer carries the slow modes and the fit took 2.8x the iterations.
    Mk.diag() += 4.0 * arma::vec(arma::sum(Wk, 1)) + mu;
    Mk.sync();
    if (Mk.n_nonzero > static_cast<arma::uword>(INT_MAX))
      throw MethodError(
          "ee: the preconditioner's graph is too large for the sparse LU (fix: "
          "lower 'precondition_neighbours', or 0)");
    std::vector<int> cp(Mk.col_ptrs, Mk.col_ptrs + n + 1);
    std::vector<int> ri(Mk.row_indices, Mk.row_indices + Mk.n_nonzero);
    std::vector<double> v(Mk.values, Mk.values + Mk.n_nonzero);
    precond_ =
        std::make_unique<SparseLu>(static_cast<int>(n), std::move(cp), std::move(ri), std::move(v));
    factor_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return mu;
}

std::size_t EeBhObjective::preconditioner_nonzeros() const {
  return precond_ ? precond_->factor_nonzeros() : 0;
}

arma::vec EeBhObjective::spectral_direction(const arma::vec& g) {
  const arma::uword n = Wp_.n_rows;
  const arma::mat G(const_cast<double*>(g.memptr()), dim_, n, false, true);
  const arma::mat B = -G.t();  // n x dim: M P^T = -G^T
  // Start from the previous direction scaled to minimise CG's quadratic q(x) = x'Mx/2 - b'x along
  // it: q < 0 there whenever b'x != 0, and CG only lowers q, so the result stays downhill.
  arma::mat Pt(n, dim_, arma::fill::zeros);
  if (prev_.n_rows == n && prev_.n_cols == dim_)
    for (arma::uword c = 0; c < dim_; ++c) {
      const arma::vec x = prev_.col(c);
      const double xMx = arma::dot(x, M_ * x);
      if (xMx > 0) Pt.col(c) = (arma::dot(B.col(c), x) / xMx) * x;
    }
  if (precond_) {
    last_cg_ = pcg_solve(M_, B, Pt, cg_tol, cg_iterations, [this](const arma::mat& R) {
                 arma::mat Z = R;
                 precond_->solve(Z.memptr(), static_cast<int>(Z.n_cols));
                 return Z;
               }).iterations;
  } else {
    last_cg_ = pcg_solve(M_, B, Pt, cg_tol, cg_iterations).iterations;
  }
  Pt.each_row() -= arma::mean(Pt, 0);
  prev_ = Pt;
  arma::vec p = arma::vectorise(arma::mat(Pt.t()));
  if (!(arma::dot(p, g) < 0)) return fixed_point_direction(g);
  return p;
}

arma::vec EeBhObjective::fixed_point_direction(const arma::vec& g) const {
  return ee_fixed_point_direction(g, Dp_, dim_);
}

}  // namespace drbench
