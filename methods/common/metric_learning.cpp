#include "methods/common/metric_learning.hpp"

#include <utility>

namespace drbench {

Budget metric_learning_budget(std::string method, const IntKey& iterations, double evaluations,
                              double pair_work, double squares) {
  Budget b;
  b.method = std::move(method);
  b.cost = [=](const DataShape& s, const ParamSet& p, arma::uword dim) {
    const double n = double(s.n);
    return double(iterations(p)) * evaluations * (n * n * (dim + pair_work) + 2.0 * n * s.d * dim);
  };
  if (squares > 0)
    b.memory = [squares](const DataShape& s, const ParamSet&, arma::uword dim) {
      const double n = double(s.n);
      return memory_linear(s, dim) + 8.0 * squares * n * n;
    };
  return b;
}

}  // namespace drbench
