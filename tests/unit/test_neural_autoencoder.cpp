// The autoencoder (methods/neural/autoencoder): back-propagation against finite differences for
// every weight and bias of deep sigmoid, tanh and linear networks; a linear autoencoder reaching
// PCA's reconstruction error (its optimum spans the top principal subspace and it has no other
// local minima: Baldi & Hornik 1989); an arc that a one-unit code reconstructs better than PCA's
// line; the same seed giving the same network, whatever the BLAS thread count.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/optim/grad_check.hpp"
#include "framework/support/blas.hpp"
#include "methods/neural/autoencoder/autoencoder.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;

namespace {

// Mean squared reconstruction error of PCA with `q` components: the covariance's trailing
// eigenvalues (normalised by n).
double pca_error(const arma::mat& X, arma::uword q) {
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  const arma::vec ev = arma::eig_sym(Xc * Xc.t() / double(X.n_cols));  // ascending
  return arma::accu(ev.head(ev.n_elem - q));
}

double reconstruction_error(const Method& m, const arma::mat& X) {
  const auto& ae = dynamic_cast<const Autoencoder&>(m);
  return arma::accu(arma::square(ae.reconstruct(X) - X)) / double(X.n_cols);
}

}  // namespace

TEST_CASE("autoencoder widths halve from the first hidden layer down to the code",
          "[neural][autoencoder]") {
  CHECK(autoencoder_widths(784, 30, 3, 1000) == std::vector<arma::uword>{784, 1000, 500, 250, 30});
  CHECK(autoencoder_widths(13, 2, 2, 64) == std::vector<arma::uword>{13, 64, 32, 2});
  CHECK(autoencoder_widths(10, 6, 2, 8) == std::vector<arma::uword>{10, 8, 6, 6});
  CHECK(autoencoder_widths(10, 3, 0, 8) == std::vector<arma::uword>{10, 3});
}

TEST_CASE("autoencoder back-propagation matches finite differences", "[neural][autoencoder]") {
  Rng rng(5);
  const arma::mat X = rng.randn(4, 11);
  for (const std::string act : {"sigmoid", "tanh", "linear"}) {
    AutoencoderNet net({4, 6, 3, 2}, activation_from(act));
    // Encoder 4-6-3-2 and decoder 2-3-6-4, each layer out x (in + 1).
    CHECK(net.n_params() == (6 * 5 + 3 * 7 + 2 * 4) + (3 * 3 + 6 * 4 + 4 * 7));
    AutoencoderObjective obj(net, X);
    Rng init(7);
    const arma::vec theta = net.initial(init) + 0.1 * init.randn(net.n_params(), 1);
    for (const double scale : {0.5, 1.0, 2.0}) {
      const GradCheck c = check_gradient(obj, scale * theta);
      INFO(act << " scale " << scale << ": rel error " << c.max_rel_error << " at " << c.worst);
      CHECK(c.max_rel_error < 1e-6);
    }
  }
}

TEST_CASE("a linear autoencoder reaches PCA's reconstruction error", "[neural][autoencoder]") {
  Rng rng(11);
  // Five dimensions with well separated variances, so the top-2 subspace is unique.
  const arma::mat X = arma::diagmat(arma::vec{3.0, 2.0, 1.0, 0.5, 0.2}) * rng.randn(5, 60);
  const double want = pca_error(X, 2);
  for (const std::int64_t layers : {0, 1}) {
    auto m = fit_method("autoencoder",
                        {{"activation", std::string("linear")},
                         {"hidden_layers", layers},
                         {"hidden", std::int64_t(4)},
                         {"iterations", std::int64_t(5000)},
                         {"tolerance", 0.0}},
                        X, 2);
    const double got = reconstruction_error(*m, X);
    INFO(layers << " hidden layers: autoencoder " << got << ", PCA " << want);
    CHECK(got >= want * (1 - 1e-9));  // PCA's is the least any rank-2 map can reach
    CHECK(got <= want * (1 + 1e-6));
  }
}

TEST_CASE("a sigmoid autoencoder's one-unit code follows an arc that PCA cuts",
          "[neural][autoencoder]") {
  // Three quarters of a circle with a little noise: PCA's best line leaves the curvature as
  // error; a one-dimensional nonlinear code follows the arc.
  Rng rng(3);
  const arma::uword n = 120;
  arma::mat X(2, n);
  for (arma::uword i = 0; i < n; ++i) {
    const double t = 1.5 * arma::datum::pi * double(i) / double(n - 1);
    X(0, i) = std::cos(t) + 0.01 * rng.randn(1, 1)(0);
    X(1, i) = std::sin(t) + 0.01 * rng.randn(1, 1)(0);
  }
  const double pca = pca_error(X, 1);
  auto m = fit_method("autoencoder",
                      {{"hidden_layers", std::int64_t(1)},
                       {"hidden", std::int64_t(16)},
                       {"iterations", std::int64_t(2000)}},
                      X, 1);
  const double ae = reconstruction_error(*m, X);
  INFO("mean squared reconstruction error: autoencoder " << ae << ", PCA " << pca);
  CHECK(ae < 0.1 * pca);
  // The encoder maps new points as it maps the training points.
  CHECK(arma::abs(m->transform(X) - m->embedding()).max() < 1e-12);
}

TEST_CASE("an autoencoder depends on its seed alone, not on the BLAS threads",
          "[neural][autoencoder]") {
  Rng data(4);
  const arma::mat X = data.randn(12, 80);
  const MethodInfo& info = Registry::instance().get("autoencoder");
  ParamSet p;
  p.set("iterations", std::int64_t(40));
  auto fit = [&](std::uint64_t seed, int threads) {
    set_blas_threads(threads);
    Rng rng(seed);
    FitInput in{X, nullptr, 0, 2, rng, nullptr};
    in.threads = unsigned(threads);
    auto m = info.make(info.complete(p));
    m->fit(in);
    set_blas_threads(1);
    return m->embedding();
  };
  const arma::mat a = fit(1, 1), b = fit(1, 1), c = fit(1, 4), other = fit(2, 1);
  CHECK(arma::approx_equal(a, b, "absdiff", 0.0));
  CHECK(arma::approx_equal(a, c, "absdiff", 0.0));
  CHECK(arma::abs(a - other).max() > 1e-3);
}
