#include "framework/linalg/pca.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/sparse_pca.hpp"

namespace drbench {

PcaBasis pca_full_basis(const arma::mat& X) {
  if (X.n_cols < 2)
    throw MethodError("PCA needs at least 2 training points, got " + std::to_string(X.n_cols));
  const arma::vec mean = arma::mean(X, 1);
  PcaBasis b = pca_of_centred(X.each_col() - mean);
  b.mean = mean;
  return b;
}

PcaBasis pca_of_centred(const arma::mat& Xc) {
  const arma::uword d = Xc.n_rows, n = Xc.n_cols;
  if (n < 2) throw MethodError("PCA needs at least 2 training points, got " + std::to_string(n));
  PcaBasis b;
  b.mean.zeros(d);
  const double denom = static_cast<double>(n - 1);
  if (d <= n) {
    const arma::mat C = (Xc * Xc.t()) / denom;
    b.total_variance = arma::trace(C);
    EigenPairs e = sym_eigs(C, d, Spectrum::Largest);
    b.W = std::move(e.vectors);
    b.variances = arma::clamp(e.values, 0.0, arma::datum::inf);
  } else {
    arma::mat U, V;
    arma::vec s;
    if (!arma::svd_econ(U, s, V, Xc, "left"))
      throw MethodError("PCA: SVD of the centred data failed (NaN/Inf in the input?)");
    b.W = std::move(U);
    b.variances = arma::square(s) / denom;
    b.total_variance = arma::accu(b.variances);
  }
  return b;
}

arma::uword pca_rank(const PcaBasis& b, arma::uword n_points) {
  const double lmax = b.variances.n_elem ? b.variances(0) : 0.0;
  const double tol = lmax * 1e-10 * static_cast<double>(std::max(b.W.n_rows, n_points));
  arma::uword r = 0;
  while (r < b.variances.n_elem && b.variances(r) > tol) ++r;
  return r;
}

PcaBasis pca_basis(const arma::mat& X, arma::uword k) {
  const arma::uword d = X.n_rows, n = X.n_cols;
  if (n < 2) throw MethodError("PCA needs at least 2 training points, got " + std::to_string(n));
  if (k == 0 || k > std::min(d, n - 1))
    throw MethodError("PCA: dims=" + std::to_string(k) +
                      " must be in 1..min(d, n-1)=" + std::to_string(std::min(d, n - 1)) +
                      " (d=" + std::to_string(d) + ", n=" + std::to_string(n) + "); lower 'dims'");
  PcaBasis b;
  if (d <= n) {
    b.mean = arma::mean(X, 1);
    const arma::mat Xc = X.each_col() - b.mean;
    const arma::mat C = (Xc * Xc.t()) / static_cast<double>(n - 1);
    b.total_variance = arma::trace(C);
    EigenPairs e = sym_eigs(C, k, Spectrum::Largest);
    b.W = std::move(e.vectors);
    b.variances = arma::clamp(e.values, 0.0, arma::datum::inf);
  } else {
    b = pca_full_basis(X);
    b.W = b.W.head_cols(k);
    b.variances = b.variances.head(k);
  }
  fix_signs(b.W);
  return b;
}

PcaBasis pca_basis_ratio(const arma::mat& X, double ratio) {
  if (!(ratio > 0.0 && ratio <= 1.0))
    throw MethodError("PCA pre-step: variance ratio " + std::to_string(ratio) +
                      " must be in (0, 1]");
  PcaBasis b = pca_full_basis(X);
  const double lmax = b.variances.n_elem ? b.variances(0) : 0.0;
  if (!(lmax > 0.0)) throw MethodError("PCA pre-step: the training data have zero variance");
  // Numerical rank: eigenvalues below this are rounding noise, not directions of the data.
  const arma::uword rank = pca_rank(b, X.n_cols);
  arma::uword keep = 0;
  double acc = 0.0;
  const double target = ratio * arma::accu(b.variances);
  while (keep < rank) {
    acc += b.variances(keep++);
    if (ratio < 1.0 && acc >= target) break;
  }
  b.W = b.W.head_cols(keep);
  b.variances = b.variances.head(keep);
  fix_signs(b.W);
  return b;
}

PcaReduced pca_reduce(const arma::mat& X, double ratio, arma::uword dim,
                      const std::string& method) {
  PcaReduced r;
  r.basis = pca_basis_ratio(X, ratio);
  const arma::uword kept = r.basis.W.n_cols;
  if (dim == 0 || dim > kept)
    throw MethodError(method + ": dims=" + std::to_string(dim) + " exceeds the " +
                      std::to_string(kept) + " directions kept by the PCA pre-step (pca_ratio=" +
                      std::to_string(ratio) + "); lower 'dims' or raise 'pca_ratio'");
  r.Z = r.basis.W.t() * (X.each_col() - r.basis.mean);
  return r;
}

namespace {

// The signs and size `o` asks of a start whose first k rows hold the data's directions.
void orient_and_scale(PcaStart& s, arma::uword k, const PcaStartOptions& o) {
  const arma::uword n = s.Y.n_cols;
  if (o.signs == PcaSigns::Scores)
    for (arma::uword r = 0; r < k; ++r) {
      const arma::uword m = arma::index_max(arma::abs(s.Y.row(r)));
      if (s.Y(r, m) < 0) {
        s.Y.row(r) *= -1.0;
        s.projection.row(r) *= -1.0;
      }
    }
  double factor = 1.0;
  switch (o.scale) {
    case PcaStartScale::None:
      return;
    case PcaStartScale::Factor:
      factor = o.size;
      break;
    case PcaStartScale::FirstAxisSd: {
      const double sd = arma::stddev(s.Y.row(0));
      if (!(sd > 0)) return;
      factor = o.size / sd;
      break;
    }
    case PcaStartScale::RmsRadius: {
      const double rms = std::sqrt(arma::accu(arma::square(s.Y)) / double(n));
      if (!(rms > 0)) return;
      factor = o.size / rms;
      break;
    }
  }
  s.Y *= factor;
  s.projection *= factor;
}

}  // namespace

PcaStart pca_start(const arma::mat& X, arma::uword dim, const PcaStartOptions& o) {
  const arma::uword d = X.n_rows, n = X.n_cols;
  if (n < 2) throw MethodError("PCA needs at least 2 training points, got " + std::to_string(n));
  if (dim == 0) throw MethodError("PCA start: dims must be at least 1");
  const arma::uword k = std::min({dim, d, n - 1});
  const PcaBasis b = pca_basis(X, k);
  PcaStart s;
  s.mean = b.mean;
  s.projection.zeros(dim, d);
  s.projection.rows(0, k - 1) = b.W.t();
  s.Y.zeros(dim, n);
  s.Y.rows(0, k - 1) = b.W.t() * (X.each_col() - b.mean);
  orient_and_scale(s, k, o);
  return s;
}

PcaStart pca_start_of_sparse(const arma::sp_mat& X, arma::uword dim, const PcaStartOptions& o) {
  const arma::uword d = X.n_rows, n = X.n_cols;
  if (n < 2) throw MethodError("PCA needs at least 2 training points, got " + std::to_string(n));
  if (dim == 0) throw MethodError("PCA start: dims must be at least 1");
  const arma::uword k = std::min({dim, d, n - 1});
  const SparsePca p = pca_of_sparse(X, k, 0.0);
  arma::mat W = p.basis.W.cols(0, std::min<arma::uword>(k, p.basis.W.n_cols) - 1);
  fix_signs(W);  // as pca_basis orients the dense directions
  PcaStart s;
  s.mean = p.basis.mean;
  s.projection.zeros(dim, d);
  s.projection.rows(0, W.n_cols - 1) = W.t();
  s.Y.zeros(dim, n);
  s.Y.rows(0, W.n_cols - 1) = arma::mat(arma::mat(W.t() * X).each_col() - W.t() * s.mean);
  orient_and_scale(s, W.n_cols, o);
  return s;
}

}  // namespace drbench
