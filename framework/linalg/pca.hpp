#pragma once
// The one PCA of drbench: the `pca` preprocessing step, the methods pca and ppca, the PCA
// pre-step of the graph projections (LPP, SLPP, IP), the GP-LVM's PCA start and the PCA starts
// of the neighbour embeddings (pca_start: t-SNE, DEE, DSNE, UMAP, PaCMAP, TriMap) all take their
// principal directions from here.
#include <armadillo>
#include <string>

namespace drbench {

struct PcaBasis {
  arma::vec mean;       // d
  arma::mat W;          // d x k orthonormal principal directions, variance descending
  arma::vec variances;  // k eigenvalues of the covariance (1/(n-1) normalisation, as sklearn)
  double total_variance = 0.0;  // trace of the covariance: sum over all d eigenvalues
};

// The one decomposition: every direction of the centred data Xc (d x n), variance descending,
// signs not fixed (fix_signs does that), mean left at zero: the d x d covariance (dsyevr) when
// d <= n, a thin SVD of Xc otherwise, so the cost is min(d, n)^2 max(d, n).
PcaBasis pca_of_centred(const arma::mat& Xc);
// The same for uncentred X, with its mean.
PcaBasis pca_full_basis(const arma::mat& X);
// Numerical rank of a basis of n_points points: directions whose variance exceeds 1e-10 x the
// largest x max(d, n); the rest are rounding noise, not directions of the data.
arma::uword pca_rank(const PcaBasis& b, arma::uword n_points);

// Top-k principal directions of the columns of X (d x n). Uses the d x d covariance when d <= n
// and a thin SVD of the centred data otherwise, so the cost is min(d, n)^2 max(d, n).
PcaBasis pca_basis(const arma::mat& X, arma::uword k);

// All directions with positive variance, truncated to the fewest that keep `ratio` (0, 1] of the
// total variance (ratio = 1 keeps the whole numerical rank): the pre-step LPP/GPLRF papers use.
PcaBasis pca_basis_ratio(const arma::mat& X, double ratio);

// The PCA pre-step of the graph-based projections: basis from pca_basis_ratio and the reduced
// centred data Z = W^T (X - mean). Throws, naming 'dims' and 'pca_ratio', when fewer than `dim`
// directions survive.
struct PcaReduced {
  PcaBasis basis;
  arma::mat Z;  // r x n
};
PcaReduced pca_reduce(const arma::mat& X, double ratio, arma::uword dim, const std::string& method);

// Which factor fix_signs orients in a PCA start: the directions (as every basis above), or the
// points' coordinates, each row's largest-magnitude score positive (scikit-learn's PCA before
// 1.5, the rule t-SNE's start has always used: its results keep their bits).
enum class PcaSigns { Directions, Scores };

// How a PCA start is sized; `size` is the target.
enum class PcaStartScale {
  None,         // the scores as they are
  Factor,       // scores x size
  FirstAxisSd,  // the first coordinate's standard deviation is size (openTSNE)
  RmsRadius,    // the points' root-mean-square distance to their mean is size
};

struct PcaStartOptions {
  PcaSigns signs = PcaSigns::Directions;
  PcaStartScale scale = PcaStartScale::None;
  double size = 1.0;
};

// The start of an embedding from the leading principal directions of X (d x n): the linear map
// P (dim x d) and the coordinates Y = P (X - mean) (dim x n). The first min(dim, d, n - 1) rows
// are pca_basis's directions, signed and scaled as `o` says (both P and Y); rows past the data's
// directions are zero.
struct PcaStart {
  arma::vec mean;        // d
  arma::mat projection;  // dim x d
  arma::mat Y;           // dim x n
};
PcaStart pca_start(const arma::mat& X, arma::uword dim, const PcaStartOptions& o = {});

}  // namespace drbench
