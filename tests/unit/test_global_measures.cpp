// The PaCMAP and TriMap papers' global measures: against a numpy implementation
// (scripts/make_fixtures_global_measures.py) and their defining properties.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/eval/coranking.hpp"
#include "framework/eval/global_measures.hpp"
#include "framework/support/build_info.hpp"

using namespace drbench;

namespace {

struct Fixture {
  arma::mat high, low;
  arma::uvec labels;
  arma::umat triplets;
  std::map<std::string, double> expected;
};

Fixture load_fixture() {
  const std::string dir = std::string(drbench::source_dir()) + "/tests/fixtures/quality/";
  Fixture f;
  arma::mat points, t;
  REQUIRE(points.load(dir + "global_points.csv", arma::csv_ascii));
  REQUIRE(points.n_cols == 9);
  f.high = points.cols(0, 5).t();
  f.low = points.cols(6, 7).t();
  f.labels = arma::conv_to<arma::uvec>::from(points.col(8));
  REQUIRE(t.load(dir + "global_triplets.csv", arma::csv_ascii));
  f.triplets = arma::conv_to<arma::umat>::from(t).t();
  std::ifstream in(dir + "global_expected.csv");
  REQUIRE(in);
  std::string line;
  while (std::getline(in, line)) {
    const auto c = line.find(',');
    f.expected[line.substr(0, c)] = std::stod(line.substr(c + 1));
  }
  REQUIRE(f.expected.size() == 3);
  return f;
}

// Well-separated classes in 8-D with an anisotropic spread, n points.
void clusters(arma::uword n, arma::mat& X, arma::uvec& y, std::uint64_t seed) {
  Rng rng(seed);
  const arma::mat centres = 4.0 * rng.randn(8, 6);
  y.set_size(n);
  X.set_size(8, n);
  const arma::vec scale = arma::linspace(2.0, 0.2, 8);
  for (arma::uword i = 0; i < n; ++i) {
    y(i) = i % 6;
    X.col(i) = centres.col(y(i)) + scale % rng.randn(8, 1);
  }
}

}  // namespace

TEST_CASE("Global measures equal a numpy implementation", "[global_measures]") {
  const Fixture f = load_fixture();
  CHECK(random_triplet_accuracy(f.high, f.low, f.triplets) ==
        Approx(f.expected.at("random_triplet")).epsilon(1e-14));
  CHECK(centroid_triplet_accuracy(f.high, f.low, f.labels) ==
        Approx(f.expected.at("centroid_triplet")).epsilon(1e-14));
  CHECK(global_score(f.high, f.low) == Approx(f.expected.at("global_score")).epsilon(1e-10));
}

TEST_CASE("Global measures: a perfect map scores 1, a random one about 1/2", "[global_measures]") {
  arma::mat X;
  arma::uvec y;
  clusters(1500, X, y, 3);
  const arma::umat t = sample_random_triplets(X.n_cols, 5, 11);
  // Distances scaled, rotated and shifted keep every order.
  Rng rng(5);
  arma::mat Q, R;
  arma::qr(Q, R, rng.randn(8, 8));
  const arma::mat same = 3.0 * Q * X + 1.0;
  CHECK(random_triplet_accuracy(X, same, t) == 1.0);
  CHECK(centroid_triplet_accuracy(X, same, y) == 1.0);
  // Unrelated coordinates agree with the input's order by chance only.
  const arma::mat noise = rng.randn(2, X.n_cols);
  const double rt = random_triplet_accuracy(X, noise, t);
  CHECK(rt == Approx(0.5).margin(0.02));  // 7,500 triplets: std 0.006
  CHECK(global_score(X, noise) < 0.5);
}

TEST_CASE("Global score is 1 for PCA and any invertible linear map of it", "[global_measures]") {
  arma::mat X;
  arma::uvec y;
  clusters(600, X, y, 7);
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  arma::vec eval;
  arma::mat evec;
  arma::eig_sym(eval, evec, Xc * Xc.t());
  const arma::mat P = evec.cols(6, 7).t() * Xc;  // top two directions
  CHECK(global_score(X, P) == Approx(1.0).epsilon(1e-10));
  const arma::mat A = {{2.0, 0.5}, {-1.0, 3.0}};
  CHECK(global_score(X, A * P + 7.0) == Approx(1.0).epsilon(1e-10));
  // Any other 2-D linear projection loses variance PCA keeps: strictly below 1.
  const arma::mat other = evec.cols(0, 1).t() * Xc;
  const double gs = global_score(X, other);
  CHECK(gs < 0.99);
  CHECK(gs > 0.0);
  // An embedding as wide as the input's rank leaves PCA nothing to lose: refused.
  CHECK_THROWS_AS(global_score(X.rows(0, 1), P), Error);
}

TEST_CASE("Random triplets: every point anchors its share, j and k distinct", "[global_measures]") {
  const arma::uword n = 50, per = 7;
  const arma::umat t = sample_random_triplets(n, per, 99);
  REQUIRE(t.n_cols == n * per);
  arma::uvec anchors(n, arma::fill::zeros), hits(n, arma::fill::zeros);
  for (arma::uword c = 0; c < t.n_cols; ++c) {
    ++anchors(t(0, c));
    CHECK(t(1, c) != t(0, c));
    CHECK(t(2, c) != t(0, c));
    CHECK(t(2, c) != t(1, c));
    CHECK(t(1, c) < n);
    CHECK(t(2, c) < n);
    ++hits(t(1, c));
    ++hits(t(2, c));
  }
  CHECK(arma::all(anchors == per));
  // Uniform over the others: every point drawn, none far above its expected 14.
  CHECK(hits.min() > 0);
  CHECK(hits.max() < 40);
  CHECK(arma::all(arma::vectorise(sample_random_triplets(n, per, 99) == t)));
  CHECK(arma::any(arma::vectorise(sample_random_triplets(n, per, 100) != t)));
}

TEST_CASE("Global measures through the quality vocabulary", "[global_measures]") {
  const Fixture f = load_fixture();
  QualityRequest req{{"global_score", "centroid_triplet", "random_triplet"}, {10}, 10000, 4, 1};
  CHECK_THROWS_WITH(quality_scores(f.high, f.low, req),
                    Catch::Contains("centroid_triplet") && Catch::Contains("labels"));
  req.labels = &f.labels;
  const QualityResult r = quality_scores(f.high, f.low, req);
  REQUIRE(r.columns.size() == 3);
  CHECK(r.columns[0].label() == "global_score");
  CHECK(r.columns[0].value == Approx(f.expected.at("global_score")).epsilon(1e-10));
  CHECK(r.columns[1].value == Approx(f.expected.at("centroid_triplet")).epsilon(1e-14));
  CHECK(r.columns[2].value > 0.5);
  CHECK(r.columns[2].se > 0.0);
  CHECK(r.queries == f.high.n_cols);
  // Beside the co-ranking measures, on more threads: the same values.
  req.measures = {"rnx_auc", "random_triplet"};
  req.threads = 3;
  const QualityResult r3 = quality_scores(f.high, f.low, req);
  CHECK(r3.columns[1].value == r.columns[2].value);
  for (const char* m : {"random_triplet", "centroid_triplet", "global_score"}) {
    const QualityMeasureInfo* info = find_quality_measure(m);
    REQUIRE(info);
    CHECK(info->higher_better);
    CHECK_FALSE(info->per_k);
  }
}
