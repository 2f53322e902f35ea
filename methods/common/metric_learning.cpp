#include "methods/common/metric_learning.hpp"

#include <utility>

namespace drbench {

TaskEstimate metric_learning_cost(const IntKey& iterations, double evaluations, double pair_work) {
  return [=](const TaskSize& z) {
    return double(iterations(z.p)) * evaluations *
           (z.n * z.n * (z.q + pair_work) + 2.0 * z.n * z.d * z.q);
  };
}

Budget metric_learning_budget(const IntKey& iterations, double evaluations, double pair_work,
                              double squares) {
  return linear_budget(metric_learning_cost(iterations, evaluations, pair_work),
                       [squares](const TaskSize& z) { return 8.0 * squares * z.n * z.n; });
}

}  // namespace drbench
