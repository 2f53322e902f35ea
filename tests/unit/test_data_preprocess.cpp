#include <catch2/catch.hpp>

#include <cmath>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/linalg/sparse_pca.hpp"
#include "framework/neighbours/neighbour_graph.hpp"

using namespace drbench;

namespace {

PreprocStep step(PreprocStep::Kind k) {
  PreprocStep s;
  s.kind = k;
  return s;
}

PreprocStep pca_variance(double v) {
  PreprocStep s = step(PreprocStep::Kind::Pca);
  s.variance = v;
  return s;
}

PreprocStep pca_components(std::uint64_t k) {
  PreprocStep s = step(PreprocStep::Kind::Pca);
  s.components = k;
  return s;
}

arma::mat data(std::uint64_t seed, arma::uword d, arma::uword n) {
  Rng rng(seed);
  arma::mat X = rng.randn(d, n);
  X.each_col() += arma::regspace(1, double(d));
  X.each_col() %= arma::regspace(1, double(d));
  return X;
}

}  // namespace

TEST_CASE("Every step is fitted on the training points only", "[data]") {
  const arma::mat train = data(1, 5, 40);
  arma::mat test = data(2, 5, 10);
  for (const PreprocStep& s :
       {step(PreprocStep::Kind::Center), step(PreprocStep::Kind::Standardize),
        step(PreprocStep::Kind::MinMax), pca_variance(0.9), pca_components(2)}) {
    INFO(s.describe());
    Pipeline a({s}), b({s});
    a.fit(train);
    b.fit(train);
    const arma::mat ya = a.apply(test.col(0));
    arma::mat test2 = test;
    test2.cols(1, 9) *= 100.0;  // wildly different other test points
    const arma::mat yb = b.apply(test2).col(0);
    CHECK(arma::approx_equal(ya, yb, "absdiff", 1e-12));
    // Refitting on different training data does change the transform.
    Pipeline c({s});
    c.fit(data(3, 5, 40) * 2.0);
    CHECK(!arma::approx_equal(c.apply(test.col(0)), ya, "absdiff", 1e-6));
  }
}

TEST_CASE("Center, standardize and min-max statistics", "[data]") {
  arma::mat train = data(4, 3, 30);
  train.row(2).fill(7.0);  // constant feature
  Pipeline std_pipe({step(PreprocStep::Kind::Standardize)});
  const arma::mat z = std_pipe.fit_apply(train);
  CHECK(arma::abs(arma::mean(z, 1)).max() < 1e-12);
  CHECK(arma::stddev(z.row(0), 1) == Approx(1.0));
  CHECK(z.row(2).is_zero());
  CHECK(z.is_finite());

  Pipeline mm({step(PreprocStep::Kind::MinMax)});
  const arma::mat m = mm.fit_apply(train);
  CHECK(arma::min(m.rows(0, 1), 1).max() == Approx(0.0).margin(1e-15));
  CHECK(arma::max(m.rows(0, 1), 1).min() == Approx(1.0));
  // Test points outside the training range map outside [0, 1]; they are not clipped.
  const arma::vec beyond =
      mm.apply(arma::vec{train.row(0).max() + (train.row(0).max() - train.row(0).min()), 0, 7});
  CHECK(beyond(0) == Approx(2.0));

  PreprocStep global = step(PreprocStep::Kind::MinMax);
  global.per_feature = false;
  const arma::mat usps_like = {{-1, 0.5}, {1, 0}};
  Pipeline g({global});
  const arma::mat gm = g.fit_apply(usps_like);
  CHECK(arma::approx_equal(gm, (usps_like + 1.0) / 2.0, "absdiff", 1e-15));
  CHECK(global.describe() == "minmax(global)");
}

TEST_CASE("unit_norm scales each point to length one, whatever the training set", "[data]") {
  arma::mat train = data(6, 4, 20), test = data(7, 4, 5);
  test.col(2).zeros();
  Pipeline a({step(PreprocStep::Kind::UnitNorm)}), b({step(PreprocStep::Kind::UnitNorm)});
  const arma::mat u = a.fit_apply(train);
  CHECK(arma::approx_equal(arma::sqrt(arma::sum(arma::square(u), 0)), arma::ones<arma::rowvec>(20),
                           "absdiff", 1e-14));
  CHECK(arma::approx_equal(u.col(3) * arma::norm(train.col(3)), train.col(3), "absdiff", 1e-12));
  b.fit(data(8, 4, 30) * 50.0);
  const arma::mat ta = a.apply(test), tb = b.apply(test);
  CHECK(arma::approx_equal(ta, tb, "absdiff", 0.0));  // no statistic of the training set used
  CHECK(ta.col(2).is_zero());                         // a zero point stays zero, not NaN
  CHECK(ta.is_finite());
  CHECK(step(PreprocStep::Kind::UnitNorm).describe() == "unit_norm");
}

TEST_CASE("PCA keeps the requested variance fraction, both Gram sides agree", "[data]") {
  // Variances 100, 25, 4, 1 along axes: cumulative fractions 0.769, 0.962, 0.992, 1.
  Rng rng(5);
  arma::mat Z = rng.randn(4, 2000);
  Z.each_col() %= arma::vec{10, 5, 2, 1};
  // Exact variance per axis after whitening the sample, so the count is not at the mercy of noise.
  Z.each_col() -= arma::mean(Z, 1);
  Z.each_col() /= arma::stddev(Z, 0, 1);
  Z.each_col() %= arma::vec{10, 5, 2, 1};
  arma::mat Q, R;
  arma::qr(Q, R, rng.randn(4, 4));
  const arma::mat X = Q * Z;
  Pipeline p({pca_variance(0.97)});
  const arma::mat Y = p.fit_apply(X);
  CHECK(Y.n_rows == 3);
  CHECK(Pipeline({pca_variance(0.95)}).fit_apply(X).n_rows == 2);
  CHECK(arma::stddev(Y.row(0)) == Approx(10.0).epsilon(0.05));
  CHECK(arma::abs(arma::mean(Y, 1)).max() < 1e-10);
  CHECK(Pipeline({pca_variance(0.75)}).fit_apply(X).n_rows == 1);
  CHECK(Pipeline({pca_variance(1.0)}).fit_apply(X).n_rows == 4);
  CHECK(pca_variance(0.95).describe() == "pca(variance=0.95)");

  // d > n goes through the n x n Gram matrix: same projection up to rounding.
  const arma::mat wide = data(6, 50, 12);
  Pipeline pw({pca_components(5)});
  const arma::mat Yw = pw.fit_apply(wide);
  arma::mat Wc = wide.each_col() - arma::mean(wide, 1);
  arma::mat U, V;
  arma::vec s;
  arma::svd_econ(U, s, V, Wc);
  for (arma::uword k = 0; k < 5; ++k)
    CHECK(std::abs(arma::dot(Yw.row(k), (s(k) * V.col(k)).t())) ==
          Approx(s(k) * s(k)).epsilon(1e-8));
  CHECK_THROWS_AS(Pipeline({pca_components(13)}).fit(wide), DataError);
  CHECK_THROWS_AS(Pipeline({pca_components(51)}).fit(wide), DataError);
}

TEST_CASE("Steps chain: standardize then PCA", "[data]") {
  const arma::mat X = data(7, 6, 50);
  Pipeline chain({step(PreprocStep::Kind::Standardize), pca_components(2)});
  const arma::mat Y = chain.fit_apply(X);
  CHECK(Y.n_rows == 2);
  CHECK(arma::approx_equal(chain.apply(X.cols(3, 5)), Y.cols(3, 5), "absdiff", 1e-12));
  CHECK_THROWS(Pipeline({step(PreprocStep::Kind::Center)}).apply(X));
}

TEST_CASE("Fitting transforms the training points exactly as applying the fitted chain does",
          "[data]") {
  // run_task takes the holdout training block from fit_apply (one in-place pass) instead of
  // fitting and then applying to a second copy: the bits must be the same.
  const arma::mat train = data(4, 6, 50);
  PreprocStep global = step(PreprocStep::Kind::MinMax);
  global.per_feature = false;
  const std::vector<std::vector<PreprocStep>> chains = {
      {global, pca_components(3)},
      {step(PreprocStep::Kind::Standardize), pca_variance(0.95)},
      {step(PreprocStep::Kind::Center), step(PreprocStep::Kind::UnitNorm), pca_components(4)},
      {pca_components(5), step(PreprocStep::Kind::MinMax)}};
  for (const auto& chain : chains) {
    Pipeline a(chain), b(chain);
    const arma::mat once = a.fit_apply(train);
    b.fit(train);
    const arma::mat twice = b.apply(train);
    REQUIRE(once.n_rows == twice.n_rows);
    REQUIRE(once.n_cols == twice.n_cols);
    CHECK(arma::accu(once != twice) == 0);
  }
}

namespace {

// Counts-like sparse points: about `density` of the entries nonzero, class-dependent means.
arma::sp_mat sparse_data(std::uint64_t seed, arma::uword d, arma::uword n, double density) {
  Rng rng(seed);
  arma::mat X(d, n, arma::fill::zeros);
  for (arma::uword j = 0; j < n; ++j)
    for (arma::uword i = 0; i < d; ++i)
      if (rng.uniform() < density)
        X(i, j) = 1.0 + std::floor(5 * rng.uniform()) + double((i + j % 3) % 4);
  return arma::sp_mat(X);
}

double max_abs(const arma::mat& A) {
  return A.is_empty() ? 0.0 : arma::abs(A).max();
}

}  // namespace

TEST_CASE("Sparse points: pca (after unit_norm) runs sparse and equals the dense chain",
          "[data][sparse]") {
  const arma::sp_mat Xs = sparse_data(11, 40, 300, 0.1);
  const arma::mat X(Xs);
  const arma::uvec train = arma::regspace<arma::uvec>(0, 199),
                   test = arma::regspace<arma::uvec>(200, 299);
  const std::vector<std::vector<PreprocStep>> chains = {
      {pca_components(10)},
      {pca_variance(0.8)},
      {step(PreprocStep::Kind::UnitNorm), pca_components(5), step(PreprocStep::Kind::Standardize)},
  };
  for (const auto& chain : chains) {
    REQUIRE(Pipeline::sparse_runs(chain));
    Pipeline dense(chain), sparse(chain);
    const arma::mat Zd = dense.fit_apply(X.cols(train));
    const arma::mat Zs = sparse.fit_apply(arma::sp_mat(Xs.cols(train)));
    REQUIRE(Zs.n_rows == Zd.n_rows);
    CHECK(max_abs(Zs - Zd) < 1e-8 * std::max(1.0, max_abs(Zd)));
    const arma::mat Td = dense.apply(X.cols(test));
    const arma::mat Ts = sparse.apply(arma::sp_mat(Xs.cols(test)));
    CHECK(max_abs(Ts - Td) < 1e-8 * std::max(1.0, max_abs(Td)));
    // The neighbour graph t-SNE and UMAP build on them (exact search, 15 neighbours): the same.
    const NeighbourGraph gd = neighbour_graph(Zd, 15), gs = neighbour_graph(Zs, 15);
    CHECK(arma::all(arma::vectorise(gd.index == gs.index)));
  }
  // A chain that does not start with pca densifies, and gives the dense values exactly.
  const std::vector<PreprocStep> other = {step(PreprocStep::Kind::Standardize), pca_components(3)};
  REQUIRE_FALSE(Pipeline::sparse_runs(other));
  Pipeline a(other), b(other);
  CHECK(arma::approx_equal(a.fit_apply(X.cols(train)), b.fit_apply(arma::sp_mat(Xs.cols(train))),
                           "absdiff", 0.0));
}

TEST_CASE("Sparse PCA: the Lanczos route equals the covariance route up to sign",
          "[data][sparse]") {
  const arma::sp_mat Xs = sparse_data(12, 60, 250, 0.15);
  const SparsePca cov = pca_of_sparse(Xs, 0, 1.0);
  REQUIRE(cov.all);
  const SparsePca lz = pca_of_sparse(Xs, 6, 1.0, /*cov_max_dim=*/0);  // force Lanczos
  REQUIRE(lz.basis.W.n_cols == 6);
  CHECK(arma::approx_equal(lz.basis.variances, cov.basis.variances.head(6), "reldiff", 1e-10));
  CHECK(lz.basis.total_variance == Approx(arma::accu(cov.basis.variances)).epsilon(1e-10));
  // Scores of the points on each direction, equal up to the direction's sign.
  const arma::mat Xc = arma::mat(Xs).each_col() - cov.basis.mean;
  for (arma::uword c = 0; c < 6; ++c) {
    const arma::rowvec a = cov.basis.W.col(c).t() * Xc, b = lz.basis.W.col(c).t() * Xc;
    const double s = arma::dot(a, b) < 0 ? -1.0 : 1.0;
    CHECK(max_abs(a - s * b) < 1e-8 * max_abs(a));
  }
  // The variance rule grows the Lanczos basis until the fraction is reached.
  const SparsePca v = pca_of_sparse(Xs, 0, 0.9, 0);
  double acc = 0;
  arma::uword need = 0;
  while (acc < 0.9 * arma::accu(cov.basis.variances)) acc += cov.basis.variances(need++);
  CHECK(v.basis.W.n_cols >= need);
}
