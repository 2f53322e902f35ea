#pragma once
// What the linear metric learners (nca, mcml, lmnn) share: the init key; nca's and mcml's setting,
// contract and stopping rule; the budget, the optimiser's steps, each a few evaluations of an
// objective over all pairs of points.
#include <memory>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/params.hpp"
#include "framework/core/trace.hpp"
#include "framework/optim/optimizer.hpp"

namespace drbench {

// scipy's L-BFGS-B with `tol` (scikit-learn's NCA): at most `iterations` steps, stopping when the
// gradient's largest component or the objective's relative decrease over one iteration falls
// below `tolerance`; Netlab's step tests are off.
OptimOptions scipy_lbfgs_options(arma::uword iterations, double tolerance, Trace* trace);
// Its `tolerance` key, 1e-5 by default; `suffix` ends the doc line (e.g. " (scikit-learn: 1e-5)").
RealKey scipy_lbfgs_tolerance(const std::string& suffix);

// The `init` key of a learnt linear map: linear_map_start's starts, "pca" by default. With
// `lda_init` (whose init='lda' the "lda" start follows, e.g. "metric-learn's") the choices
// include "lda"; empty, they do not.
ChoiceKey linear_map_init(const std::string& lda_init);

// The setting of a learnt linear map run by scipy_lbfgs_options (nca, mcml).
struct LinearMapSetting {
  arma::uword iterations = 0;
  double tolerance = 1e-5;
  std::string init = "pca";  // linear_map_start's
};

// What the contracts of nca and mcml share: the parameters `iterations`, `tolerance` and `init`;
// supervised and iterative, new points by the learnt map; Map made from a LinearMapSetting.
template <class Map>
void describe_lbfgs_map(MethodInfo& m, const IntKey& iterations, const RealKey& tolerance,
                        const ChoiceKey& init) {
  m.params = {iterations, tolerance, init};
  m.supervised = true;
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.make = [=](const ParamSet& p) {
    return std::make_unique<Map>(
        LinearMapSetting{arma::uword(iterations(p)), tolerance(p), init(p)});
  };
}

// Cost: `iterations` steps of the optimiser, `evaluations` objective evaluations a step, each
// forming an n x n matrix at `pair_work` + dim operations a pair, L X and the gradient's product
// with X^T.
TaskEstimate metric_learning_cost(const IntKey& iterations, double evaluations, double pair_work);
// That cost; memory: memory_linear and `squares` dense n x n arrays.
Budget metric_learning_budget(const IntKey& iterations, double evaluations, double pair_work,
                              double squares);

}  // namespace drbench
