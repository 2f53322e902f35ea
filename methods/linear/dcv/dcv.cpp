#include "methods/linear/dcv/dcv.hpp"

#include <algorithm>

#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

void Dcv::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  const arma::mat& X = in.X;
  const arma::uword d = X.n_rows, n = X.n_cols;
  // Class means only: the d x d scatter matrices of class_scatter are never needed (d can be
  // the number of pixels of a face image, far above n).
  const arma::uword C = in.n_classes ? in.n_classes : (y.n_elem ? y.max() + 1 : 0);
  arma::mat means(d, C, arma::fill::zeros);
  arma::uvec counts(C, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i) {
    if (y(i) >= C)
      throw MethodError("dcv: label " + std::to_string(y(i)) + " of training point " +
                        std::to_string(i) + " is outside 0.." + std::to_string(C - 1));
    means.col(y(i)) += X.col(i);
    ++counts(y(i));
  }
  const arma::uvec present = arma::find(counts > 0);
  if (present.n_elem < 2) throw MethodError("dcv needs at least 2 classes in the training data");
  for (const arma::uword c : present) means.col(c) /= static_cast<double>(counts(c));
  require_dim(
      in.dim, present.n_elem - 1,
      "DCV has at most C-1 = " + std::to_string(present.n_elem - 1) + " directions for C classes");
  // Range of S_w from the within-class differences (thin SVD: cheap when d >> n).
  arma::mat U, V;
  arma::vec sv;
  if (!arma::svd_econ(U, sv, V, arma::mat(X - means.cols(y)), "left"))
    throw MethodError("dcv: SVD of the within-class differences failed (NaN/Inf in the input?)");
  const double top = sv.n_elem ? sv(0) * sv(0) : 0.0;
  const arma::uvec range = arma::find(arma::square(sv) > null_tol_ * top);
  const arma::mat Q = U.cols(range);
  null_dim_ = d - range.n_elem;
  // Common vectors: class means with their S_w-range component removed (every sample of the
  // class has the same one, since x - m_c lies in that range).
  arma::mat common = means.cols(present);
  common -= Q * (Q.t() * common);
  const arma::mat Cc = common.each_col() - arma::mean(common, 1);
  arma::mat W;
  arma::vec cs;
  if (!arma::svd_econ(W, cs, V, Cc, "left"))
    throw MethodError("dcv: SVD of the common vectors failed");
  // Spread of the common vectors relative to the spread of the class means: when the null space
  // is empty (or numerically so) the common vectors differ only by rounding, ~1e-16 of it.
  arma::mat Mc = means.cols(present);
  Mc.each_col() -= arma::mean(Mc, 1);
  const double between = arma::norm(Mc, 2);
  const arma::uword informative = arma::accu(cs > 1e-8 * between);
  if (informative < in.dim)
    throw MethodError(
        "dcv: the null space of S_w has dimension " + std::to_string(null_dim_) +
        " (d = " + std::to_string(d) + ", n - C = " + std::to_string(n - present.n_elem) +
        ") and separates only " + std::to_string(informative) + " direction(s) between classes, " +
        "fewer than dims = " + std::to_string(in.dim) +
        ". DCV needs d > n - C; with more samples, lower 'dims' or raise 'null_tol' so that "
        "within-class directions of small variance count as null");
  W = W.head_cols(in.dim);
  fix_signs(W);
  set_projection(X, arma::mean(X, 1), W);
}

namespace {

MethodInfo dcv_info() {
  MethodInfo m = describe_method(
      "dcv", "linear",
      "discriminative common vectors: between-class directions inside the null space of S_w",
      "Cevikalp et al., IEEE TPAMI 27(1) 2005, section 2.2, eq. 12-17");
  const RealKey null_tol = ParamSpec::real(
      "null_tol", 1e-10, 0.0, 1.0,
      "eigenvalues of S_w up to null_tol times its largest eigenvalue count as null "
      "(raise it when n - C >= d, the large-sample case)");
  m.params = {null_tol};
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.n_classes > 0 ? s.n_classes - 1 : 0, s.d);
  };
  m.transform_reproduces_embedding = true;
  m.make = [null_tol](const ParamSet& p) { return std::make_unique<Dcv>(null_tol(p)); };
  return m;
}

}  // namespace
// The thin SVD of X - class means; U is d x min(n, d), beside a d x d projector.
DRBENCH_METHOD(dcv_info,
               linear_budget([](const TaskSize& z) { return z.n * z.d * std::min(z.n, z.d); },
                             [](const TaskSize& z) { return 8.0 * z.d * std::min(z.n, z.d); }))
}  // namespace drbench
