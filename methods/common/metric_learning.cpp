#include "methods/common/metric_learning.hpp"

#include <utility>

#include "framework/core/keywords.hpp"

namespace drbench {

OptimOptions scipy_lbfgs_options(arma::uword iterations, double tolerance, Trace* trace) {
  OptimOptions opt;
  opt.max_iterations = int(iterations);
  opt.x_tol = 0;
  opt.f_tol = 0;
  opt.g_tol = tolerance;
  opt.rel_f_tol = tolerance;
  opt.f_window = 1;
  opt.trace = trace;
  return opt;
}

RealKey scipy_lbfgs_tolerance(const std::string& suffix) {
  return keywords::tolerance(1e-5, std::nullopt,
                             "stop when the gradient's largest component, or the objective's "
                             "relative decrease over one iteration, falls below this" +
                                 suffix);
}

ChoiceKey linear_map_init(const std::string& lda_init) {
  if (lda_init.empty())
    return keywords::init("pca", {"pca", "identity", "random"},
                          "the top principal directions, the identity's first rows, or N(0, 1) "
                          "entries");
  return keywords::init("pca", {"pca", "lda", "identity", "random"},
                        "the top principal directions, scikit-learn's LDA directions (" + lda_init +
                            " init='lda', and 'auto' when dims < classes; at most classes - 1), "
                            "the identity's first rows, or N(0, 1) entries");
}

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
