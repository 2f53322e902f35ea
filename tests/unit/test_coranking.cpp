#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "framework/core/rng.hpp"
#include "framework/eval/coranking.hpp"
#include "support/quality_reference.hpp"
#include "framework/support/build_info.hpp"

using namespace drbench;

namespace {

const std::vector<std::string> kAll = {
    "trustworthiness", "continuity",     "qnx",     "rnx",    "lcmc",
    "mrre_intrusion",  "mrre_extrusion", "rnx_auc", "stress", "shepard_spearman"};

std::map<std::string, double> by_label(const QualityResult& r) {
  std::map<std::string, double> m;
  for (const auto& c : r.columns) m[c.label()] = c.value;
  return m;
}

}  // namespace

TEST_CASE("Co-ranking measures equal a numpy implementation on data with ties", "[coranking]") {
  // tests/fixtures/quality/coranking_*.csv: scripts/make_fixtures_coranking.py (full co-ranking
  // matrix in numpy, Shepard correlation by scipy.stats.spearmanr).
  const std::string dir = std::string(drbench::source_dir()) + "/tests/fixtures/quality/";
  arma::mat points;
  REQUIRE(points.load(dir + "coranking_points.csv", arma::csv_ascii));
  REQUIRE(points.n_cols == 6);
  const arma::mat high = points.cols(0, 3).t(), low = points.cols(4, 5).t();
  std::ifstream in(dir + "coranking_expected.csv");
  REQUIRE(in);
  std::map<std::string, double> expected;
  std::vector<int> ks;
  std::string line;
  while (std::getline(in, line)) {
    const auto c1 = line.find(','), c2 = line.find(',', c1 + 1);
    const std::string name = line.substr(0, c1);
    const int k = std::stoi(line.substr(c1 + 1, c2 - c1 - 1));
    expected[k > 0 ? name + "@" + std::to_string(k) : name] = std::stod(line.substr(c2 + 1));
    if (k > 0 && std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
  }
  REQUIRE(expected.size() == 38);
  QualityRequest req{kAll, ks, 10000, 1, 1};
  const QualityResult r = quality_scores(high, low, req);
  CHECK(r.queries == high.n_cols);
  const auto got = by_label(r);
  REQUIRE(got.size() == expected.size());
  for (const auto& [label, v] : expected) {
    INFO(label);
    REQUIRE(got.count(label));
    CHECK(got.at(label) == Approx(v).epsilon(1e-12).margin(1e-15));
  }
  for (const auto& c : r.columns) CHECK(c.se == 0.0);
  // Same bits on three threads (per-query terms are summed in query order).
  req.threads = 3;
  const QualityResult r3 = quality_scores(high, low, req);
  for (std::size_t i = 0; i < r.columns.size(); ++i)
    CHECK(r3.columns[i].value == r.columns[i].value);
}

TEST_CASE("Co-ranking trustworthiness and continuity equal scikit-learn's", "[coranking]") {
  // tests/fixtures/quality/{points,expected}.csv: scripts/make_fixtures_quality.py (sklearn).
  const std::string dir = std::string(drbench::source_dir()) + "/tests/fixtures/quality/";
  arma::mat points, expected;
  REQUIRE(points.load(dir + "points.csv", arma::csv_ascii));
  REQUIRE(expected.load(dir + "expected.csv", arma::csv_ascii));
  const arma::mat high = points.cols(0, 4).t(), low = points.cols(5, 6).t();
  std::vector<int> ks;
  for (arma::uword r = 0; r < expected.n_rows; ++r) ks.push_back(int(expected(r, 0)));
  const auto got =
      by_label(quality_scores(high, low, {{"trustworthiness", "continuity"}, ks, 10000, 0, 1}));
  for (arma::uword r = 0; r < expected.n_rows; ++r) {
    INFO("K = " << ks[r]);
    CHECK(got.at("trustworthiness@" + std::to_string(ks[r])) ==
          Approx(expected(r, 1)).epsilon(1e-12));
    CHECK(got.at("continuity@" + std::to_string(ks[r])) == Approx(expected(r, 2)).epsilon(1e-12));
  }
}

TEST_CASE("Co-ranking: identity map is perfect, a random map scores R_NX near 0", "[coranking]") {
  Rng rng(31);
  const arma::mat X = rng.randn(6, 400);
  const std::vector<int> ks = {1, 5, 40, 199};
  const auto id = by_label(quality_scores(X, X, {kAll, ks, 10000, 2, 1}));
  for (int k : ks) {
    const std::string s = "@" + std::to_string(k);
    CHECK(id.at("qnx" + s) == 1.0);
    CHECK(id.at("rnx" + s) == Approx(1.0).epsilon(1e-14));
    CHECK(id.at("trustworthiness" + s) == 1.0);
    CHECK(id.at("continuity" + s) == 1.0);
    CHECK(id.at("mrre_intrusion" + s) == 0.0);
    CHECK(id.at("mrre_extrusion" + s) == 0.0);
  }
  CHECK(id.at("rnx_auc") == Approx(1.0).epsilon(1e-12));
  CHECK(id.at("stress") == 0.0);
  CHECK(id.at("shepard_spearman") == Approx(1.0).epsilon(1e-12));

  // An embedding unrelated to the data: each K-neighbourhood keeps K/(N-1) of its points by chance.
  const arma::mat Y = rng.randn(2, 400);
  const auto rnd = by_label(quality_scores(X, Y, {kAll, ks, 10000, 2, 1}));
  for (int k : ks) CHECK(std::abs(rnd.at("rnx@" + std::to_string(k))) < 0.03);
  CHECK(std::abs(rnd.at("rnx_auc")) < 0.02);
  CHECK(std::abs(rnd.at("shepard_spearman")) < 0.05);
  CHECK(rnd.at("trustworthiness@5") < 0.6);
}

TEST_CASE("Co-ranking agrees with the direct trustworthiness and continuity", "[coranking]") {
  Rng rng(5);
  const arma::mat X = rng.randn(8, 300);
  const arma::mat Y = X.rows(0, 1) + 0.5 * rng.randn(2, 300);
  const auto got =
      by_label(quality_scores(X, Y, {{"trustworthiness", "continuity"}, {3, 12, 100}, 0, 0, 1}));
  for (int k : {3, 12, 100}) {
    CHECK(got.at("trustworthiness@" + std::to_string(k)) ==
          Approx(trustworthiness(X, Y, k)).epsilon(1e-13));
    CHECK(got.at("continuity@" + std::to_string(k)) == Approx(continuity(X, Y, k)).epsilon(1e-13));
  }
}

TEST_CASE("Co-ranking estimator over sampled queries", "[coranking]") {
  Rng rng(77);
  const arma::uword n = 3000;
  const arma::mat X = rng.randn(5, n);
  const arma::mat Y = X.rows(0, 1) + 0.7 * rng.randn(2, n);
  const std::vector<std::string> ms = {"trustworthiness", "rnx",    "mrre_extrusion",
                                       "rnx_auc",         "stress", "shepard_spearman"};
  const QualityResult exact = quality_scores(X, Y, {ms, {10, 100}, n, 9, 2});
  const QualityResult est = quality_scores(X, Y, {ms, {10, 100}, 400, 9, 2});
  CHECK(exact.queries == n);
  CHECK(est.queries == 400);
  REQUIRE(est.columns.size() == exact.columns.size());
  for (std::size_t i = 0; i < est.columns.size(); ++i) {
    INFO(est.columns[i].label() << " exact " << exact.columns[i].value << " estimate "
                                << est.columns[i].value << " se " << est.columns[i].se);
    CHECK(est.columns[i].se > 0);
    CHECK(std::abs(est.columns[i].value - exact.columns[i].value) < 4 * est.columns[i].se);
  }
  // Another seed draws other queries.
  const QualityResult other = quality_scores(X, Y, {ms, {10, 100}, 400, 10, 2});
  CHECK(other.columns[0].value != est.columns[0].value);
  // The R_NX curve ends at N-2 and holds the listed K's value where the grid meets it.
  REQUIRE(!exact.curve_k.empty());
  CHECK(exact.curve_k.front() == 1);
  CHECK(exact.curve_k.back() == int(n - 2));
  CHECK(exact.curve.size() == exact.curve_k.size());
}

TEST_CASE("Co-ranking refuses unknown measures and impossible K", "[coranking]") {
  Rng rng(1);
  const arma::mat X = rng.randn(3, 20);
  CHECK_THROWS_WITH(quality_scores(X, X, {{"trustworthyness"}, {3}, 0, 0, 1}),
                    Catch::Contains("unknown quality measure 'trustworthyness'"));
  CHECK_THROWS_WITH(quality_scores(X, X, {{"rnx"}, {10}, 0, 0, 1}),
                    Catch::Contains("evaluation.quality_k"));
  CHECK_THROWS(quality_scores(X, X.cols(0, 9), {{"rnx"}, {2}, 0, 0, 1}));
  CHECK(find_quality_measure("rnx_auc")->higher_better);
  CHECK_FALSE(find_quality_measure("stress")->higher_better);
  CHECK(quality_labels({"rnx", "stress"}, {5, 10}) ==
        std::vector<std::string>{"rnx@5", "rnx@10", "stress"});
}
