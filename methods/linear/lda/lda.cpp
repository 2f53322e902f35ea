#include "methods/linear/lda/lda.hpp"

#include <algorithm>

#include "framework/budget/budget.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

Scatter class_scatter(const arma::mat& X, const arma::uvec& labels, std::size_t n_classes) {
  const arma::uword d = X.n_rows, n = X.n_cols;
  Scatter s;
  const arma::uword C = n_classes ? n_classes : (labels.n_elem ? labels.max() + 1 : 0);
  s.class_means.zeros(d, C);
  s.counts.zeros(C);
  for (arma::uword i = 0; i < n; ++i) {
    if (labels(i) >= C)
      throw MethodError("label " + std::to_string(labels(i)) + " of training point " +
                        std::to_string(i) + " is outside 0.." + std::to_string(C - 1));
    s.class_means.col(labels(i)) += X.col(i);
    s.counts(labels(i)) += 1;
  }
  for (arma::uword c = 0; c < C; ++c)
    if (s.counts(c) > 0) s.class_means.col(c) /= static_cast<double>(s.counts(c));
  s.mean = arma::mean(X, 1);
  const arma::mat Xw = X - s.class_means.cols(labels);
  s.Sw = Xw * Xw.t();
  arma::mat Mb = s.class_means.each_col() - s.mean;
  Mb.each_row() %= arma::sqrt(arma::conv_to<arma::rowvec>::from(s.counts));
  s.Sb = Mb * Mb.t();
  return s;
}

void Lda::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  const Scatter s = class_scatter(in.X, y, in.n_classes);
  const arma::uword present = arma::accu(s.counts > 0);
  if (present < 2) throw MethodError("lda needs at least 2 classes in the training data");
  require_dim(in.dim, std::min<arma::uword>(present - 1, in.X.n_rows),
              "LDA has at most C-1 = " + std::to_string(present - 1) +
                  " discriminant directions for C classes");
  EigenPairs e =
      gen_sym_eigs(s.Sb, s.Sw, in.dim, Spectrum::Largest, reg_, "reg", "within-class scatter S_w");
  fix_signs(e.vectors);
  values_ = e.values;
  set_projection(in.X, s.mean, e.vectors);
}

namespace {

MethodInfo lda_info() {
  MethodInfo m = describe_method(
      "lda", "linear", "Fisher linear discriminant analysis (S_b w = lambda (S_w + ridge) w)",
      "Fisher (1936); Fukunaga, Statistical Pattern Recognition (1990) ch. 10");
  const RealKey reg = keywords::ridge(1e-6, 0.0, 1e3, false,
                                      "added to S_w, relative to trace(S_w)/d; raise it when S_w "
                                      "is singular (fewer points than dimensions)")
                          .with(keywords::formerly("reg"));
  m.params = {reg};
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.n_classes > 0 ? s.n_classes - 1 : 0, s.d);
  };
  m.transform_reproduces_embedding = true;
  m.make = [reg](const ParamSet& p) { return std::make_unique<Lda>(reg(p)); };
  return m;
}

}  // namespace
// Within-class differences (n x d) and the two d x d scatter matrices.
DRBENCH_METHOD(lda_info,
               linear_budget([](const TaskSize& z) { return z.n * z.d * z.d + z.d * z.d * z.d; }))
}  // namespace drbench
