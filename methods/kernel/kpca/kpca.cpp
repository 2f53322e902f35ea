#include "methods/kernel/kpca/kpca.hpp"

#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"

namespace drbench {

void KernelPCA::fit(const FitInput& in) {
  fit_basis(in.X, in.dim);
  if (lambda().n_elem < in.dim)
    throw MethodError("kpca: the centred kernel matrix has rank " +
                      std::to_string(lambda().n_elem) + " < dims=" + std::to_string(in.dim) +
                      "; lower dims or use a nonlinear kernel (kernel: rbf)");
  set_directions(arma::eye(lambda().n_elem, in.dim));
}

namespace {

MethodInfo kpca_info() {
  MethodInfo m = describe_method(
      "kpca", "kernel", "kernel PCA: leading eigenvectors of the centred Gram matrix",
      "Schoelkopf, Smola & Mueller 1998, Neural Computation 10(5), eq. 14-16");
  m.params = kernel_keys().specs();
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 0 ? s.n - 1 : 0; };
  m.transform_reproduces_embedding = true;
  m.make = [](const ParamSet& p) { return std::make_unique<KernelPCA>(kernel_keys()(p)); };
  return m;
}

}  // namespace
// The Gram matrix and its distances (2.5 n x n with the Lanczos work), then the test points'
// cross-kernel and its centred copy; only dim eigenvectors are kept.
DRBENCH_METHOD(kpca_info, dense_budget(dense_eigen_cost(50.0, 0.0), 2.5, 0.0))
}  // namespace drbench
