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

}  // namespace drbench
