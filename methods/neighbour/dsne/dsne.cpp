#include "methods/neighbour/dsne/dsne.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/optim/optimizer.hpp"
#include "methods/neighbour/dsne/dsne_objective.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

void Dsne::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  require_dim(in.dim, in.X.n_rows, "at most D projection directions");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  double t = 0.0;
  arma::mat P = dsne_input_similarities(Xc, y, s_.kernel_width, &t);
  DsneObjective obj(Xc, y, std::move(P), in.dim);
  OptimOptions opt;
  opt.max_iterations = s_.iterations;
  opt.x_tol = opt.f_tol = 0.0;
  opt.rel_x_tol = s_.tolerance;
  opt.trace = in.trace;
  const arma::mat A0 = s_.pca_start ? pca_projection_start(in.dim, Xc, 1e-2)
                                    : random_projection_start(in.dim, Xc, in.rng, 1e-2);
  const OptimResult r = minimize("cg", obj, arma::vectorise(A0), opt);
  objective_ = r.f;
  if (in.trace) in.trace->note("kernel_width", std::to_string(std::sqrt(t / 2.0)));
  set_projection(in.X, mean, arma::reshape(r.x, in.dim, in.X.n_rows).t());
}

namespace {

// The input Gaussian of eq. 5 at relative width 1 has t = 2 sigma^2 = the mean squared
// same-class distance.
const char* const kSameClassReference = "the width whose t is the mean squared same-class distance";

MethodInfo dsne_info() {
  MethodInfo m;
  m.name = "dsne";
  m.family = "neighbour";
  m.summary =
      "discriminative SNE: linear map, KL between Gaussian and Student-t similarities "
      "normalised within same-class and different-class pairs";
  m.reference =
      "Zheng, Qiu, Jiang & Wang, J. Comput.-Aided Des. Comput. Graph. 24 (2012), as "
      "stated in Zheng et al., Comput. Math. Methods Med. 2014, eq. 5-8";
  const RealKey kernel_width = keywords::kernel_width(1.0, kSameClassReference);
  const ChoiceKey width = keywords::width("relative", kSameClassReference);
  const IntKey iterations = keywords::iterations(1000, 1000000, "conjugate gradients");
  const RealKey tolerance = keywords::tolerance(1e-3, 1.0, "when |A_new - A| <= tolerance |A|");
  const ChoiceKey init =
      ParamSpec::choice("init", "random", {"random", "pca"},
                        "start: small Gaussian rows, or the leading principal directions (a start "
                        "an outside implementation can reproduce, e.g. scripts/dsne_reference.py)");
  m.params = {kernel_width, width, iterations, tolerance, init};
  m.supervised = true;
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  m.cost = [iterations](const DataShape& s, const ParamSet& p, arma::uword dim) {
    return 5.0 * iterations(p) * (double(dim) * s.n * (s.n + s.d) + 4.0 * s.n * s.n) / 10;
  };
  m.make = [=](const ParamSet& p) {
    DsneSettings s;
    s.kernel_width = {kernel_width(p), width(p) == "relative"};
    s.iterations = int(iterations(p));
    s.tolerance = tolerance(p);
    s.pca_start = init(p) == "pca";
    return std::make_unique<Dsne>(s);
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(dsne_info)
}  // namespace drbench
