#include "methods/linear/dcv/dcv.hpp"

#include <algorithm>

#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"
#include "methods/linear/lda/lda.hpp"

namespace drbench {

void Dcv::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  const Scatter s = class_scatter(in.X, y, in.n_classes);
  const arma::uvec present = arma::find(s.counts > 0);
  if (present.n_elem < 2) throw MethodError("dcv needs at least 2 classes in the training data");
  require_dim(
      in.dim, present.n_elem - 1,
      "DCV has at most C-1 = " + std::to_string(present.n_elem - 1) + " directions for C classes");
  // Range of S_w from the within-class differences (thin SVD: cheap when d >> n).
  const arma::mat Xw = in.X - s.class_means.cols(y);
  arma::mat U, V;
  arma::vec sv;
  if (!arma::svd_econ(U, sv, V, Xw, "left"))
    throw MethodError("dcv: SVD of the within-class differences failed (NaN/Inf in the input?)");
  const double top = sv.n_elem ? sv(0) * sv(0) : 0.0;
  const arma::uvec range = arma::find(arma::square(sv) > null_tol_ * top);
  const arma::mat Q = U.cols(range);
  null_dim_ = in.X.n_rows - range.n_elem;
  // Common vectors: class means with their S_w-range component removed (every sample of the
  // class has the same one, since x - m_c lies in that range).
  arma::mat common = s.class_means.cols(present);
  common -= Q * (Q.t() * common);
  arma::mat Cc = common.each_col() - arma::mean(common, 1);
  arma::mat W;
  arma::vec cs;
  if (!arma::svd_econ(W, cs, V, Cc, "left"))
    throw MethodError("dcv: SVD of the common vectors failed");
  const arma::uword informative = arma::accu(cs > 1e-10 * std::max(1.0, cs.n_elem ? cs(0) : 0.0));
  if (informative < in.dim)
    throw MethodError("dcv: the null space of S_w (dimension " + std::to_string(null_dim_) +
                      ") separates only " + std::to_string(informative) +
                      " directions between classes; lower 'dims' or raise 'null_tol' to treat "
                      "low-variance within-class directions as null (large-sample case)");
  W = W.head_cols(in.dim);
  fix_signs(W);
  set_projection(in.X, s.mean, W);
}

namespace {

MethodInfo dcv_info() {
  MethodInfo m;
  m.name = "dcv";
  m.family = "linear";
  m.summary =
      "discriminative common vectors: between-class directions inside the null space of S_w";
  m.reference = "Cevikalp et al., IEEE TPAMI 27(1) 2005, section 2.2, eq. 12-17";
  m.params = {ParamSpec::real("null_tol", 1e-10, 0.0, 1.0,
                              "eigenvalues of S_w below null_tol * the largest count as null "
                              "(raise it when n - C >= d, the large-sample case)")};
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.n_classes > 0 ? s.n_classes - 1 : 0, s.d);
  };
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    return double(s.n) * s.d * std::min(s.n, s.d);
  };
  m.make = [](const ParamSet& p) { return std::make_unique<Dcv>(p.real("null_tol")); };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(dcv_info)
}  // namespace drbench
