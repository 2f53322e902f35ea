#pragma once
// The keys of the linear methods that solve their eigenproblem on PCA-reduced data (pca_reduce):
// ip, lpp, slpp, npe and lltsa read the same `pca_ratio`, and ip, lpp and slpp the same ridge.
#include <string>

#include "framework/core/keywords.hpp"
#include "framework/core/params.hpp"

namespace drbench {

// `pca_ratio`: the variance the PCA pre-step keeps, 1 (full rank) by default.
inline RealKey pca_ratio_key() {
  return ParamSpec::real("pca_ratio", 1.0, 0.0, 1.0,
                         "variance kept by the PCA pre-step (1 = full rank)", true);
}

// `ridge` (formerly `reg`), 1e-8 by default, added to `matrix` (the eigenproblem's right-hand
// side, e.g. "X D X^T") relative to its trace/dim.
inline RealKey pre_step_ridge(const std::string& matrix) {
  return keywords::ridge(1e-8, 0.0, 1e3, false, "on " + matrix + ", relative to its trace/dim")
      .with(keywords::formerly("reg"));
}

}  // namespace drbench
