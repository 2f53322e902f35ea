#include <catch2/catch.hpp>

#include "framework/linalg/distances.hpp"
#include "methods/kernel/kernel_subspace.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::subspace_cosines;

namespace {

// Linear LPP in the input space, solved by QZ: X L X' w = mu X D X' w, smallest mu first.
arma::mat primal_lpp(const arma::mat& X, const arma::sp_mat& W, arma::uword dim) {
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  const arma::mat Wd(W);
  const arma::mat D = arma::diagmat(arma::sum(Wd, 1));
  arma::cx_vec ev;
  arma::cx_mat V;
  arma::eig_pair(ev, V, Xc * (D - Wd) * Xc.t(), Xc * D * Xc.t());
  const arma::uvec order = arma::sort_index(arma::real(ev), "ascend");
  return arma::real(V.cols(order.head(dim))).t() * Xc;
}

}  // namespace

TEST_CASE("klpp with a linear kernel is LPP on the centred data", "[kernel][klpp]") {
  Rng rng(21);
  const arma::mat X = arma::diagmat(arma::vec{3, 2, 1, 0.5}) * rng.randn(4, 70);
  auto m = fit_method(
      "klpp",
      {{"kernel", std::string("linear")}, {"neighbours", std::int64_t(6)}, {"ridge", 1e-12}}, X, 2);
  const arma::sp_mat W = heat_weights(knn_graph(X, 6), 1.0, false);
  CHECK(subspace_cosines(m->embedding(), primal_lpp(X, W, 2)).min() > 1 - 1e-6);
}

TEST_CASE("klpp rbf: transform(train) == embedding, and locality beats random directions",
          "[kernel][klpp]") {
  Rng rng(22);
  const arma::mat X = rng.randn(3, 90);
  auto m = fit_method("klpp", {{"neighbours", std::int64_t(8)}, {"kernel_width", 1.0}}, X, 2);
  const arma::mat Y = m->embedding();
  CHECK(arma::abs(m->transform(X) - Y).max() < 1e-8);
  // The first coordinate minimises the Laplacian quotient; a random direction of the same
  // kernel span (another KPCA coordinate mix) does worse.
  const arma::mat Wd(heat_weights(knn_graph(X, 8), 1.0, false));
  const arma::mat L = arma::diagmat(arma::sum(Wd, 1)) - Wd;
  const arma::mat D = arma::diagmat(arma::sum(Wd, 1));
  auto quotient = [&](const arma::rowvec& y) {
    return arma::as_scalar(y * L * y.t()) / arma::as_scalar(y * D * y.t());
  };
  auto kp = fit_method("kpca", {{"kernel_width", 1.0}}, X, 10);
  const arma::mat Z = kp->embedding();
  for (int t = 0; t < 5; ++t) {
    const arma::rowvec r = (rng.randn(10, 1)).t() * Z;
    CHECK(quotient(Y.row(0)) < quotient(r));
  }
}
