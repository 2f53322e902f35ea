#pragma once
// The LDA start of the supervised linear maps (NCA, LMNN): scikit-learn's
// LinearDiscriminantAnalysis(solver='svd').scalings_, the directions that
// NeighborhoodComponentsAnalysis(init='lda') and metric-learn's init='lda' start from, with
// their scale (within-class whitened), which sets how sharp the first softmax or margin is.
#include <armadillo>
#include <string>

#include "framework/core/rng.hpp"

namespace drbench {

// X d x n, labels as FitInput gives them. Returns d x r, r <= min(classes - 1, d) the directions
// whose between-class singular value exceeds tol times the largest (scikit-learn's tol = 1e-4),
// signs as the SVD leaves them.
arma::mat lda_scalings(const arma::mat& X, const arma::uvec& labels, double tol = 1e-4);

// The first dim of them as the rows of a start L (dim x d); a MethodError naming `dims` and
// `init` when LDA has fewer (scikit-learn refuses n_components > classes - 1 the same way).
arma::mat lda_start(const arma::mat& X, const arma::uvec& labels, arma::uword dim,
                    const std::string& method);

// The start L (dim x d) a learnt linear map (NCA, MCML, LMNN) takes by its `init`: the top
// principal directions of X ("pca"), lda_start ("lda"), the identity's first rows ("identity"),
// or N(0, 1) entries drawn from rng (any other: "random").
arma::mat linear_map_start(const std::string& init, const arma::mat& X, const arma::uvec& labels,
                           arma::uword dim, Rng& rng, const std::string& method);

}  // namespace drbench
