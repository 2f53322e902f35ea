#pragma once
// Gaussian random projection (Johnson & Lindenstrauss 1984; Dasgupta & Gupta 2003): a d x dim
// matrix R with independent N(0, 1/dim) entries, drawn from the task's seed; a point, training or
// new, maps to R' x, which keeps squared distances in expectation (E |R'x|^2 = |x|^2) and within
// 1 +- eps with high probability once dim >= 4 log(n) / (eps^2/2 - eps^3/3). The data are not
// centred (scikit-learn's GaussianRandomProjection).
#include "methods/common/linear_method.hpp"

namespace drbench {

class RandomProjection final : public LinearMethod {
 public:
  RandomProjection() : LinearMethod("random_projection") {}
  void fit(const FitInput& in) override;
};

// The smallest dim that keeps every pairwise squared distance of n points within 1 +- eps with
// probability at least 1 - 1/n (Dasgupta & Gupta 2003, theorem 2.1; scikit-learn's
// johnson_lindenstrauss_min_dim).
arma::uword johnson_lindenstrauss_min_dim(arma::uword n, double eps);

}  // namespace drbench
