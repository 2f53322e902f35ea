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

}  // namespace drbench
