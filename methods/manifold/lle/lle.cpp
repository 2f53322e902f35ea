#include "methods/manifold/lle/lle.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/sparse_eigs.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

namespace {

// Seconds since t0: the graph and eigensolver stages noted in the trace (benchmarks read them).
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void LLE::fit(const FitInput& in) {
  X_ = in.X;
  const arma::uword n = in.X.n_cols;
  const arma::uword k = s_.neighbours;
  const double reg = s_.reg;
  if (in.dim + 1 >= n)
    throw MethodError("lle: dims=" + std::to_string(in.dim) + " needs more than " +
                      std::to_string(in.dim + 1) + " training points");
  GraphOptions go = fit_graph_options(s_.neighbour_graph, in.threads, in.rng);
  const auto t0 = std::chrono::steady_clock::now();
  index_ = std::make_unique<NeighbourIndex>(X_, k, go);
  if (in.trace && index_->approximate()) in.trace->note("neighbour_graph", "approximate");
  arma::sp_mat IW;  // I - W
  {
    IW = reconstruction_complement(in.X, index_->self_graph(k).index, reg, in.threads);
  }
  if (in.trace) in.trace->note("graph_seconds", std::to_string(seconds_since(t0)));
  arma::sp_mat Ms = IW.t() * IW;
  IW.reset();
  const bool dense = n <= dense_limit_;
  ShiftInvertInfo info;
  const EigenPairs e = bottom_eigs_after_constant(std::move(Ms), in.dim, dense, "lle", &info);
  if (!dense && in.trace) {
    in.trace->note("eigen_seconds", std::to_string(seconds_since(t0)));
    in.trace->note("eigensolver", "shift-invert Lanczos");
    in.trace->note("lu_nonzeros", std::to_string(info.factor_nonzeros));
    in.trace->note("lanczos_solves", std::to_string(info.solves));
  }
  arma::mat V = e.vectors;
  fix_signs(V);
  Y_ = std::sqrt(static_cast<double>(n)) * V.t();
}

arma::mat LLE::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("lle transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  const arma::uword k = s_.neighbours;
  const NeighbourGraph nb = index_->query(Xnew, std::min(k, X_.n_cols));
  arma::mat Y(Y_.n_rows, Xnew.n_cols);
  for (arma::uword q = 0; q < Xnew.n_cols; ++q) {
    if (nb.dist(0, q) == 0.0) {
      Y.col(q) = Y_.col(nb.index(0, q));
      continue;
    }
    const arma::uvec idx = nb.index.col(q);
    Y.col(q) = Y_.cols(idx) * reconstruction_weights(Xnew.col(q), X_.cols(idx), s_.reg);
  }
  return Y;
}

namespace {

// The parameters lle's contract and its budget both read.
struct LleKeys {
  IntKey neighbours =
      keywords::neighbours(10, 1, 500, "the reconstruction of every point (TPSLVM: 2..20)");
  RealKey reg = keywords::ridge(1e-3, 0.0, std::nullopt, true,
                                "on the local Gram matrix, times its trace (needed when k > d)")
                    .with(keywords::formerly("reg"));
  // Added with the sparse path: at its default the setting keys of earlier results still resume.
  ChoiceKey neighbour_graph = keywords::neighbour_graph("auto").with(keywords::unkeyed);
};

MethodInfo lle_info() {
  MethodInfo m = describe_method(
      "lle", "manifold", "locally linear embedding; out-of-sample by reconstruction weights",
      "Roweis & Saul 2000, Science 290; Saul & Roweis 2003, JMLR 4, eq. 2-4 and 6.1");
  const auto [neighbours, reg, neighbour_graph] = LleKeys{};
  m.params = {neighbours, reg, neighbour_graph};
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 2 : 0; };
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<LLE>(
        LleSetting{arma::uword(neighbours(p)), reg(p), neighbour_graph(p)});
  };
  return m;
}

// The sparse path's memory is dominated by the LU factor of M, whose fill-in grows faster than n:
// measured with SuperLU's minimum-degree ordering at k = 10 on 50-D Fashion-MNIST, 2.9 M entries
// at 5,000 points, 34 M at 20,000 (n^1.78), 328 M at 60,000 (n^2.06), SuperLU's peak about 11
// bytes an entry at 20,000 and 14 at 60,000 (354 and 4,320 MiB). The estimate follows the larger
// of the two fitted curves and is taken as growing linearly in k; a fit to one data set, not a
// bound.
Budget lle_budget() {
  const std::string fmnist = "Fashion-MNIST, 50-D (PCA), k = 10, minimum-degree ordering";
  const std::string run =
      "lle's sparse path, SuperLU factor entries and peak (2553f1f, 2026-11-27)";
  const FittedConstants fitted{
      {"m_entries_per_k2", 0.55, "Fashion-MNIST, k = 10: 53 entries a column of M", run},
      {"lu_bytes_per_entry", 10.5, fmnist + ", 20,000 points", run},
      {"lu_entries_scale", 0.733, fmnist + ", 5,000 and 20,000 points", run},
      {"lu_entries_exponent", 1.783, fmnist + ", 5,000 and 20,000 points", run},
      {"lu_peak_mib_at_reference", 354.0, fmnist + ", 20,000 points", run},
      {"lu_peak_reference_n", 20000.0, fmnist, run},
      {"lu_peak_exponent", 2.277, fmnist + ", 20,000 and 60,000 points (4,320 MiB)", run},
      {"reference_k", 10.0, fmnist, run},
  };
  const double m_per_k2 = fitted("m_entries_per_k2"), lu_bytes = fitted("lu_bytes_per_entry"),
               lu_scale = fitted("lu_entries_scale"), lu_exp = fitted("lu_entries_exponent"),
               peak_mib = fitted("lu_peak_mib_at_reference"),
               peak_n = fitted("lu_peak_reference_n"), peak_exp = fitted("lu_peak_exponent"),
               ref_k = fitted("reference_k");
  const LleKeys k;
  TaskEstimate memory = [=](const TaskSize& z) {
    const double n = z.n, d = z.d;
    const arma::uword nk = static_cast<arma::uword>(k.neighbours(z.p));
    const double kk = double(nk);
    // M = (I - W)'(I - W) holds the neighbours of neighbours; while it is factored it exists as
    // the product and as SuperLU's compressed-column arrays.
    const double m_nnz = m_per_k2 * kk * kk * n;
    double bytes = kProcessBaseBytes + 16.0 * n * d +
                   neighbour_graph_memory(z.shape.n, z.shape.d, nk, k.neighbour_graph(z.p)) +
                   40.0 * (kk + 1.0) * n + 28.0 * m_nnz;
    if (z.shape.n <= LLE::kDenseLimit) {
      bytes += 3.0 * 8.0 * n * n;  // dense M, its Cholesky factor, LAPACK's work copy
    } else {
      const double small_fit = lu_bytes * lu_scale * std::pow(n, lu_exp);
      const double large_fit = peak_mib * 1048576.0 * std::pow(n / peak_n, peak_exp);
      bytes += std::max(small_fit, large_fit) * (kk / ref_k) +
               lanczos_memory(z.shape.n, std::max<arma::uword>(2 * z.dim + 10, 30));
    }
    return bytes + 8.0 * n * 2.0 * z.q;
  };
  return make_budget(dense_eigen_cost(0.0, 5.0), std::move(memory), fitted);
}

}  // namespace
DRBENCH_METHOD(lle_info, lle_budget())
}  // namespace drbench
