#pragma once
// The budget the linear metric learners (nca, mcml, lmnn) share: the optimiser's steps, each a
// few evaluations of an objective over all pairs of points.
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/params.hpp"

namespace drbench {

// Cost: `iterations` steps of the optimiser, `evaluations` objective evaluations a step, each
// forming an n x n matrix at `pair_work` + dim operations a pair, L X and the gradient's product
// with X^T.
TaskEstimate metric_learning_cost(const IntKey& iterations, double evaluations, double pair_work);
// That cost; memory: memory_linear and `squares` dense n x n arrays.
Budget metric_learning_budget(const IntKey& iterations, double evaluations, double pair_work,
                              double squares);

}  // namespace drbench
