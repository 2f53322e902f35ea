#pragma once
// Initial latent points for the GP-LVM. "ppca" follows GPmat's ppcaEmbed (the initialisation of
// the TPSLVM and GPLRF experiments): principal-component scores scaled to unit variance per latent
// dimension; "pca" keeps the raw scores.
#include <armadillo>
#include <string>

#include "framework/core/rng.hpp"

namespace drbench {

// Y is d x n and already centred. Returns q x n. Directions with (numerically) zero variance, e.g.
// q > rank(Y), get small random coordinates from rng so that the kernel stays non-degenerate.
arma::mat pca_latent_init(const arma::mat& Y, arma::uword q, bool unit_variance, Rng& rng);

// The GPLRF paper's start for its oil experiments: SLPP coordinates (heat-kernel same-class
// graph, width = mean squared same-class distance, no PCA pre-step) of the d x n data Y with
// labels 0..C-1, centred and scaled to unit variance per latent dimension as "ppca" is, so the
// kernel hyperparameters start at the same scale whichever start is used.
arma::mat slpp_latent_init(const arma::mat& Y, const arma::uvec& labels, arma::uword q);

// m cluster centres of the columns of X (q x n) by k-means: k-means++ seeding from rng, then
// Lloyd iterations until no point changes cluster or `iterations` have run (a centre left empty
// keeps its place). The inducing inputs' start of a sparse GP-LVM: unlike a random subset of the
// points, the centres keep apart, so Kuu starts far better conditioned. Deterministic given rng;
// O(n m q) per iteration.
arma::mat kmeans_centres(const arma::mat& X, arma::uword m, Rng& rng, int iterations = 30);

}  // namespace drbench
