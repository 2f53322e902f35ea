#pragma once
// PCA of sparse points (the `pca` preprocessing of a dataset kept sparse,
// framework/data/preprocess.hpp): the directions of pca.hpp without the dense centred matrix.
#include <armadillo>

#include "framework/linalg/pca.hpp"

namespace drbench {

// The same directions for sparse X (d x n, one column per point) without forming the centred
// matrix, which would be dense: the mean is subtracted implicitly, (X - m 1')(X - m 1')' =
// X X' - n m m'. Where d <= n and d <= cov_max_dim, every direction from the d x d covariance
// (X X' as a sparse product, then dsyevr: the dense path's decomposition); otherwise the leading
// directions by thick-restart Lanczos (sparse_eigs.hpp) on v -> (X (X' v) - n m (m' v)) / (n - 1),
// in O(nnz) per product and O(d k) memory: `k` of them, or (k = 0) the fewest whose variances
// reach `variance` of the total. Sets mean and total_variance; signs not fixed; `all` tells
// whether every direction was computed.
struct SparsePca {
  PcaBasis basis;
  bool all = false;
};
SparsePca pca_of_sparse(const arma::sp_mat& X, arma::uword k, double variance,
                        arma::uword cov_max_dim = 4096);
// Bytes pca_of_sparse holds beyond X for d features, n points and k directions (the variance
// rule's first Lanczos round takes k = 0 as 64).
double pca_of_sparse_bytes(arma::uword d, arma::uword n, arma::uword k,
                           arma::uword cov_max_dim = 4096);

// pca_start (pca.hpp) for sparse X: the leading min(dim, d, n - 1) directions of pca_of_sparse,
// signs fixed as pca_basis fixes them, the coordinates W' X - (W' mean) 1' without a dense copy of
// X, then signed and sized as `o` says; rows past the data's directions are zero. Equal to
// pca_start of the dense points to rounding (defined in pca.cpp beside it).
PcaStart pca_start_of_sparse(const arma::sp_mat& X, arma::uword dim, const PcaStartOptions& o = {});

}  // namespace drbench
