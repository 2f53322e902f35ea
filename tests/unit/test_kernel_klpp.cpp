#include <catch2/catch.hpp>

#include "framework/linalg/distances.hpp"
#include "methods/kernel/kernel_subspace.hpp"
#include "tests/unit/neighbour_helpers.hpp"
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
  const arma::sp_mat W =
      heat_weights(symmetric_adjacency(neighbour_graph(X, 6, testing::exact_graph())), 1.0, false);
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
  const arma::mat Wd(
      heat_weights(symmetric_adjacency(neighbour_graph(X, 8, testing::exact_graph())), 1.0, false));
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

TEST_CASE("klpp kernel_scale graph: the relative width multiplies the kNN graph's RMS edge length",
          "[kernel][klpp]") {
  Rng rng(23);
  const arma::mat X = rng.randn(4, 80);
  const std::int64_t k = 6;
  const double rel = 0.7;
  // The root mean squared edge length of the either-way symmetrised kNN graph, by brute force.
  const arma::uword n = X.n_cols;
  arma::umat adj(n, n, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i) {
    arma::vec d(n);
    for (arma::uword j = 0; j < n; ++j) d(j) = arma::accu(arma::square(X.col(i) - X.col(j)));
    d(i) = arma::datum::inf;
    const arma::uvec nn = arma::sort_index(d);
    for (std::int64_t a = 0; a < k; ++a) adj(i, nn(a)) = adj(nn(a), i) = 1;
  }
  double sum = 0.0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      if (adj(i, j)) sum += arma::accu(arma::square(X.col(i) - X.col(j)));
  const double sigma = rel * std::sqrt(sum / double(arma::accu(adj)));
  auto graph = fit_method(
      "klpp", {{"neighbours", k}, {"kernel_width", rel}, {"kernel_scale", std::string("graph")}}, X,
      3);
  auto absolute = fit_method(
      "klpp", {{"neighbours", k}, {"kernel_width", sigma}, {"width", std::string("absolute")}}, X,
      3);
  auto median = fit_method("klpp", {{"neighbours", k}, {"kernel_width", rel}}, X, 3);
  CHECK(arma::abs(graph->embedding() - absolute->embedding()).max() < 1e-9);
  const arma::mat Xn = rng.randn(4, 9);
  CHECK(arma::abs(graph->transform(Xn) - absolute->transform(Xn)).max() < 1e-9);
  // It is a different width from the median one (kNN edges are shorter than the median pair).
  CHECK(arma::abs(graph->embedding() - median->embedding()).max() > 1e-3);
  // Refused where there is no relative RBF width to scale; unkeyed at its default.
  const MethodInfo& info = Registry::instance().get("klpp");
  ParamSet bad;
  bad.set("kernel_scale", std::string("graph"));
  bad.set("width", std::string("absolute"));
  CHECK(info.check_setting(info.complete(bad)).find("kernel_scale") != std::string::npos);
  CHECK(info.check_setting(info.complete(ParamSet{})).empty());
  CHECK(info.complete(ParamSet{}).canonical().find("kernel_scale") == std::string::npos);
}
