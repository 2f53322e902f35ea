#include "methods/kernel/klpp/klpp.hpp"

#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

void KernelLPP::fit(const FitInput& in) {
  const arma::sp_mat G = knn_graph(in.X, neighbours_);
  const arma::sp_mat W = heat_weights(G, graph_.heat_width, graph_.binary);
  fit_basis(in.X);
  set_directions(lpp_directions(Z(), W, in.dim, graph_.reg));
}

namespace {

MethodInfo klpp_info() {
  MethodInfo m;
  m.name = "klpp";
  m.family = "kernel";
  m.summary = "kernel locality preserving projections on a heat-kernel kNN graph";
  m.reference = "He & Niyogi 2003 (NIPS 16), section 4 'Kernel LPP'";
  const IntKey neighbours = keywords::neighbours(5, 1, 100, "the kNN graph (papers vary 2..20)");
  m.params = kernel_keys().specs();
  m.params.push_back(neighbours);
  for (auto& p : lpp_keys().specs()) m.params.push_back(p);
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 0 ? s.n - 1 : 0; };
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    return double(s.n) * s.n * (s.d + 5.0 * s.n);
  };
  m.transform_reproduces_embedding = true;
  // The full eigendecomposition of the Gram matrix (K, eigenvectors, LAPACK's workspace) and the
  // kept n x r basis with its r x r pencil: five n x n at the peak, two kept for the test side.
  m.memory = [](const DataShape& s, const ParamSet&, arma::uword dim) {
    return memory_dense(s, dim, 5.0, 2.0);
  };
  m.make = [neighbours](const ParamSet& p) {
    return std::make_unique<KernelLPP>(kernel_keys()(p), arma::uword(neighbours(p)), lpp_keys()(p));
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(klpp_info)
}  // namespace drbench
