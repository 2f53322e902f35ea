#include "methods/linear/pca_models.hpp"

#include <algorithm>
#include <utility>

namespace drbench {

Budget pca_models_budget(std::string method) {
  Budget b;
  b.method = std::move(method);
  b.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    const double a = std::min(s.n, s.d), c = std::max(s.n, s.d);
    return a * a * c;
  };
  b.memory = [](const DataShape& s, const ParamSet&, arma::uword dim) {
    return memory_linear(s, dim);
  };
  return b;
}

}  // namespace drbench
