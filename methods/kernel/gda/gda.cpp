#include "methods/kernel/gda/gda.hpp"

#include <string>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

void GDA::fit(const FitInput& in) {
  if (!in.labels) throw MethodError("gda is supervised: the task has no training labels");
  const arma::uvec& y = *in.labels;
  const std::size_t C = in.n_classes;
  if (C < 2) throw MethodError("gda needs at least 2 classes in the training data");
  if (in.dim > C - 1)
    throw MethodError("gda: dims=" + std::to_string(in.dim) + " exceeds C-1=" +
                      std::to_string(C - 1) + " (between-class scatter has rank C-1); lower dims");
  fit_basis(in.X);
  const arma::mat& Z = this->Z();  // centred: class means are deviations from the global mean
  const arma::uword r = Z.n_rows;
  arma::mat means(r, C, arma::fill::zeros);
  arma::vec counts(C, arma::fill::zeros);
  for (arma::uword i = 0; i < Z.n_cols; ++i) {
    means.col(y(i)) += Z.col(i);
    counts(y(i)) += 1;
  }
  arma::mat Bs(r, r, arma::fill::zeros);
  for (std::size_t c = 0; c < C; ++c) {
    if (counts(c) == 0) continue;
    means.col(c) /= counts(c);
    Bs += counts(c) * means.col(c) * means.col(c).t();
  }
  // Total scatter in Z coordinates is diag(lambda); the ridge is relative to its mean.
  const EigenPairs e = gen_sym_eigs(Bs, arma::diagmat(lambda()), in.dim, Spectrum::Largest,
                                    params().real("reg"), "reg", "total scatter in feature space");
  ratios_ = e.values;
  arma::mat W = e.vectors;
  W.each_row() /= arma::sqrt(arma::sum(arma::square(W), 0));  // unit vectors in feature space
  set_directions(W);
}

namespace {

MethodInfo gda_info() {
  MethodInfo m;
  m.name = "gda";
  m.family = "kernel";
  m.summary = "generalized discriminant analysis (kernel Fisher discriminant), <= C-1 dims";
  m.reference = "Baudat & Anouar 2000, Neural Computation 12(10), eq. 9-16 (ridge-regularised)";
  m.params = kernel_param_specs();
  m.params.push_back(ParamSpec::real(
      "reg", 1e-3, 0.0, std::nullopt,
      "ridge on the total scatter, relative to its mean eigenvalue (needed when n > C and the "
      "kernel is nearly singular)",
      true));
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return s.n_classes > 0 ? arma::uword(s.n_classes - 1) : arma::uword(0);
  };
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    return double(s.n) * s.n * (s.d + 5.0 * s.n);
  };
  m.make = [](const ParamSet& p) { return std::make_unique<GDA>(p); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(gda_info)
}  // namespace drbench
