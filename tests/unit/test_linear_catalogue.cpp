// The linear techniques of the classic catalogue (factor analysis, truncated SVD, FastICA,
// Gaussian random projection) against scikit-learn's embeddings
// (scripts/make_linear_catalogue_fixtures.py) or, for the random projection, whose draws cannot
// match another generator, against the Johnson-Lindenstrauss properties it is used for.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "framework/core/trace.hpp"
#include "methods/common/linear_method.hpp"
#include "methods/linear/fastica/fastica.hpp"
#include "methods/linear/random_projection/random_projection.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::max_diff_up_to_sign;
using drbench::testing::sklearn_fixture;

namespace {

// Largest difference between the rows of A and those of B after matching every row of A to the
// row of B it correlates with most, with the sign of that correlation (ICA's order and signs are
// arbitrary). Each row of B is used once.
double max_diff_up_to_order_and_sign(const arma::mat& A, const arma::mat& B) {
  REQUIRE(A.n_rows == B.n_rows);
  arma::uvec used(B.n_rows, arma::fill::zeros);
  double worst = 0;
  for (arma::uword r = 0; r < A.n_rows; ++r) {
    double best = -1, sign = 1;
    arma::uword pick = 0;
    for (arma::uword q = 0; q < B.n_rows; ++q) {
      if (used(q)) continue;
      const double c = arma::as_scalar(arma::cor(A.row(r).t(), B.row(q).t()));
      if (std::abs(c) > best) best = std::abs(c), sign = c < 0 ? -1 : 1, pick = q;
    }
    used(pick) = 1;
    worst = std::max(worst, arma::abs(sign * A.row(r) - B.row(pick)).max());
  }
  return worst;
}

// The smallest |correlation| between a row of A and the row of B it is matched to (as above).
double min_matched_correlation(const arma::mat& A, const arma::mat& B) {
  arma::uvec used(B.n_rows, arma::fill::zeros);
  double worst = 1;
  for (arma::uword r = 0; r < A.n_rows; ++r) {
    double best = -1;
    arma::uword pick = 0;
    for (arma::uword q = 0; q < B.n_rows; ++q) {
      const double c = std::abs(arma::as_scalar(arma::cor(A.row(r).t(), B.row(q).t())));
      if (!used(q) && c > best) best = c, pick = q;
    }
    used(pick) = 1;
    worst = std::min(worst, best);
  }
  return worst;
}

}  // namespace

TEST_CASE("factor_analysis matches scikit-learn's FactorAnalysis", "[linear][factor_analysis]") {
  const arma::mat F = sklearn_fixture("factor_analysis_sklearn.txt");
  const arma::mat X = F.rows(0, 4), ref = F.rows(5, 6);
  Trace trace;
  auto m = fit_method("factor_analysis", {}, X, 2, nullptr, 0, &trace);
  // Same iteration, same stopping test: the same number of steps (28) and the same posterior means.
  CHECK(trace.rows.size() == 28);
  CHECK(max_diff_up_to_sign(m->embedding(), ref) < 1e-8);
  const arma::mat G = sklearn_fixture("factor_analysis_sklearn_new.txt");
  CHECK(max_diff_up_to_sign(m->transform(G.rows(0, 4)), G.rows(5, 6)) < 1e-8);
  CHECK(arma::abs(m->transform(X) - m->embedding()).max() < 1e-12);
}

TEST_CASE("factor_analysis with d > n takes the SVD path to the same fit",
          "[linear][factor_analysis]") {
  // The same 5-D data padded with 40 constant features (zero variance, noise floored) and fitted on
  // 30 points: the SVD of the scaled data must give what the covariance eigenproblem gives.
  const arma::mat F = sklearn_fixture("factor_analysis_sklearn.txt");
  arma::mat X = F.rows(0, 4).eval().cols(0, 29);
  const arma::mat wide = arma::join_cols(X, arma::ones(40, 30));
  auto narrow = fit_method("factor_analysis", {{"tolerance", 1e-9}}, X, 2);
  auto padded = fit_method("factor_analysis", {{"tolerance", 1e-9}}, wide, 2);
  CHECK(max_diff_up_to_sign(narrow->embedding(), padded->embedding()) < 1e-5);
}

TEST_CASE("truncated_svd matches scikit-learn's TruncatedSVD", "[linear][truncated_svd]") {
  const arma::mat F = sklearn_fixture("truncated_svd_sklearn.txt");
  const arma::mat X = F.rows(0, 5), ref = F.rows(6, 8);
  auto m = fit_method("truncated_svd", {}, X, 3);
  CHECK(max_diff_up_to_sign(m->embedding(), ref) < 1e-9);
  // d > n: the SVD path gives the same singular directions as the Gram eigenproblem.
  auto t = fit_method("truncated_svd", {}, X.cols(0, 4).t(), 3);
  arma::mat U, V;
  arma::vec s;
  arma::svd_econ(U, s, V, arma::mat(X.cols(0, 4).t()));
  CHECK(max_diff_up_to_sign(t->embedding(), arma::diagmat(s.head(3)) * V.head_cols(3).t()) < 1e-9);
}

TEST_CASE("fastica matches scikit-learn's FastICA up to order and sign", "[linear][fastica]") {
  const arma::mat F = sklearn_fixture("fastica_sklearn.txt");
  const arma::mat X = F.rows(0, 3), par = F.rows(4, 6), defl = F.rows(7, 9), S = F.rows(10, 12);
  for (const std::string algorithm : {"parallel", "deflation"}) {
    INFO(algorithm);
    auto m = fit_method(
        "fastica",
        {{"algorithm", algorithm}, {"iterations", std::int64_t(1000)}, {"tolerance", 1e-8}}, X, 3);
    const arma::mat Y = m->embedding();
    arma::mat Sz = S.each_col() - arma::mean(S, 1);
    Sz.each_col() /= arma::stddev(Sz, 1, 1);
    if (algorithm == "parallel") {
      // The symmetric fixed point is unique up to order and sign: the same sources to 1e-5.
      CHECK(max_diff_up_to_order_and_sign(Y, par) < 1e-5);
    } else {
      // Deflation's later rows depend on which source the first one found (the start), so a
      // different start lands within the sample's dependence of the sources (sklearn's own
      // deflation and parallel runs correlate at 0.9996; this start at 0.9987).
      CHECK(min_matched_correlation(Y, defl) > 0.998);
    }
    // The sources themselves come back (the mixing noise is 1e-3; the sample correlation
    // between the Laplace and square-wave sources is what limits it).
    CHECK(min_matched_correlation(Y, Sz) > 0.995);
    CHECK(arma::abs(Y * Y.t() / double(Y.n_cols) - arma::eye(3, 3)).max() < 1e-10);
  }
  for (const std::string contrast : {"exp", "cube"}) {
    INFO(contrast);
    auto m =
        fit_method("fastica", {{"contrast", contrast}, {"iterations", std::int64_t(1000)}}, X, 3);
    CHECK(min_matched_correlation(m->embedding(), S) > 0.99);
  }
}

TEST_CASE("symmetric decorrelation returns the nearest orthogonal matrix", "[linear][fastica]") {
  Rng rng(3);
  const arma::mat W = rng.randn(4, 4);
  const arma::mat Q = symmetric_decorrelation(W);
  CHECK(arma::abs(Q * Q.t() - arma::eye(4, 4)).max() < 1e-12);
  // The polar factor of W = U S V' is U V'.
  arma::mat U, V;
  arma::vec s;
  arma::svd(U, s, V, W);
  CHECK(arma::abs(Q - U * V.t()).max() < 1e-10);
}

TEST_CASE("random_projection keeps distances as Johnson-Lindenstrauss says",
          "[linear][random_projection]") {
  Rng rng(11);
  const arma::uword n = 60, d = 2000;
  const arma::mat X = rng.randn(d, n);
  const double eps = 0.5;
  const arma::uword k = johnson_lindenstrauss_min_dim(n, eps);
  CHECK(k == 196);  // scikit-learn's johnson_lindenstrauss_min_dim(60, eps=0.5)
  auto m = fit_method("random_projection", {}, X, k, nullptr, 0, nullptr, 5);
  const arma::mat Y = m->embedding();
  double worst = 0, mean_ratio = 0;
  arma::uword pairs = 0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = i + 1; j < n; ++j) {
      const double r = arma::accu(arma::square(Y.col(i) - Y.col(j))) /
                       arma::accu(arma::square(X.col(i) - X.col(j)));
      worst = std::max(worst, std::abs(r - 1));
      mean_ratio += r;
      ++pairs;
    }
  CHECK(worst < eps);
  // E |R'x|^2 = |x|^2: the mean ratio over 1770 (dependent) pairs is within a few 1/sqrt(k/2).
  CHECK(std::abs(mean_ratio / pairs - 1) < 4 * std::sqrt(2.0 / k));
  // Entries N(0, 1/k): their variance times k is 1 to within a few standard errors.
  const arma::mat& R = dynamic_cast<const LinearMethod&>(*m).projection();
  CHECK(std::abs(arma::var(arma::vectorise(R)) * k - 1) < 4 * std::sqrt(2.0 / R.n_elem));
  CHECK(std::abs(arma::mean(arma::vectorise(R))) * std::sqrt(double(k * R.n_elem)) < 4);
  // Seeded: the same seed draws the same matrix, another seed another.
  auto again = fit_method("random_projection", {}, X, k, nullptr, 0, nullptr, 5);
  auto other = fit_method("random_projection", {}, X, k, nullptr, 0, nullptr, 6);
  CHECK(arma::approx_equal(again->embedding(), Y, "absdiff", 0.0));
  CHECK(arma::abs(other->embedding() - Y).max() > 0.1);
  CHECK(arma::approx_equal(m->transform(X), Y, "absdiff", 1e-12));
}
