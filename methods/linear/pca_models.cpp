#include "methods/linear/pca_models.hpp"

#include <algorithm>

namespace drbench {

void describe_pca_models(MethodInfo& m) {
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    const double a = std::min(s.n, s.d), b = std::max(s.n, s.d);
    return a * a * b;
  };
  m.transform_reproduces_embedding = true;
  m.memory = [](const DataShape& s, const ParamSet&, arma::uword dim) {
    return memory_linear(s, dim);
  };
}

}  // namespace drbench
