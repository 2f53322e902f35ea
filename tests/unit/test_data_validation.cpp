// Checks that need the data (framework/config/validate.hpp check_dataset, validate_dataset) and
// the parse-time checks of issue 8: each refuses with the file, the line, the key and a fix.
#include <catch2/catch.hpp>

#include "framework/config/experiment.hpp"
#include "framework/config/validate.hpp"
#include "framework/core/error.hpp"
#include "framework/data/load.hpp"
#include "framework/sched/run_task.hpp"
#include "unit/error_message.hpp"

using namespace drbench;

namespace {

// A generated 3-class data set of n points (n/3 per class) and the rest of a config.
std::string blobs(int n, int classes, const std::string& rest) {
  return "seed: 1\ndatasets:\n  - {name: b, source: generator, generator: gaussian_blobs, "
         "params: {n: " +
         std::to_string(n) + ", classes: " + std::to_string(classes) + "}}\n" + rest;
}

// blobs() fitted with the identity method: `splits` and `rest` are the config's lines around it.
std::string identity_on_blobs(int n, int classes, const std::string& splits,
                              const std::string& rest = "") {
  return blobs(n, classes, splits + "methods: [{method: identity}]\n" + rest);
}

// The ConfigError check_dataset raises on the first dataset, or "no error".
std::string data_error(const std::string& yaml) {
  const Experiment ex = parse_experiment(yaml, "cfg/d.yaml");
  return testing::message_of<Error>([&] {
    const Dataset ds = load_dataset(ex.datasets[0], data_search_path(""), dataset_seed(ex, 0));
    check_dataset(ex, 0, ds);
  });
}

std::string parse_error(const std::string& yaml, const std::string& profile = "") {
  return testing::config_error(yaml, "cfg/p.yaml", profile);
}

// Checks that the message check_dataset raises for `yaml` contains every one of `parts`.
void check_data_error(const std::string& yaml, std::initializer_list<const char*> parts) {
  const std::string e = data_error(yaml);
  for (const char* part : parts) CHECK_THAT(e, Catch::Contains(part));
}

}  // namespace

TEST_CASE("kNN k above the training set, or above n-1 for leave-one-out", "[validation]") {
  // 2 per class x 3 classes = 6 training points.
  check_data_error(
      identity_on_blobs(30, 3, "splits: {train_per_class: [2]}\n", "evaluation:\n  knn: [1, 7]\n"),
      {"cfg/d.yaml:7: 'evaluation.knn': k = 7 exceeds the 6 training", "fix: use k <= 6"});
  const std::string loo = "splits: {all: true}\n";
  check_data_error(
      identity_on_blobs(12, 3, loo, "evaluation: {knn: [12], protocol: transductive}\n"),
      {"k = 12 exceeds the 11 other points"});
  CHECK(data_error(identity_on_blobs(
            12, 3, loo, "evaluation: {knn: [11], protocol: transductive}\n")) == "no error");
}

TEST_CASE("neighbours not below the fitted points", "[validation]") {
  check_data_error(
      blobs(30, 3,
            "splits: {train_per_class: [2]}\n"
            "methods:\n  - method: test_cfg_supervised\n"
            "    dims: [1]\n    grid: {k: [3, 6]}\n"),
      {"cfg/d.yaml:8: 'methods[0].grid.k'", "k = 6 is not below the 6 points it is fitted on"});
}

TEST_CASE("quality_k too large for the scored points", "[validation]") {
  const std::string half = "splits: {train_ratio: [0.5]}\n";
  check_data_error(identity_on_blobs(30, 3, half,
                                     "evaluation:\n  quality: [trustworthiness]\n"
                                     "  quality_k: 8\n"),
                   {"cfg/d.yaml:8: 'evaluation.quality_k': K = 8", "15 test points"});
  // A measure without K does not care.
  check_data_error(
      identity_on_blobs(30, 3, half, "evaluation:\n  quality: [stress]\n  quality_k: 8\n"),
      {"no error"});
  // Transductive runs rank among all embedded points (30 here, so K = 8 fits).
  check_data_error(identity_on_blobs(30, 3, half,
                                     "evaluation:\n  protocol: transductive\n  quality: [rnx]\n"
                                     "  quality_k: [2, 8]\n"),
                   {"no error"});
}

TEST_CASE("splits that leave a class without test or training points", "[validation]") {
  check_data_error(identity_on_blobs(30, 3, "splits: {train_per_class: [10]}\n"),
                   {"cfg/d.yaml:4: 'splits.train_per_class'", "leaving it no test points"});
  check_data_error(
      identity_on_blobs(30, 3, "splits: {train_ratio: [0.04]}\n"),
      {"cfg/d.yaml:4: 'splits.train_ratio'", "gives class 0 (10 points) no training points"});
}

TEST_CASE("single-class and transposed data are named as such", "[validation]") {
  check_data_error(
      identity_on_blobs(30, 1, "splits: {all: true}\n", "evaluation: {protocol: transductive}\n"),
      {"every point has the same label"});
  Dataset ds;
  ds.name = "t";
  ds.X = arma::mat(3, 5, arma::fill::randu);  // 5 "points" of 3 features: really 3 of 5
  ds.y = {0, 1, 0};
  ds.n_classes = 2;
  CHECK_THROWS_WITH(validate_dataset(ds), Catch::Contains("X looks transposed"));
  // One time-ordered sequence (a single object's poses) is accepted: its trajectory is the point.
  Dataset one;
  one.name = "duck";
  one.X = arma::mat(2, 6, arma::fill::randu);
  one.y = arma::uvec(6, arma::fill::zeros);
  one.n_classes = 1;
  CHECK_THROWS_WITH(validate_dataset(one), Catch::Contains("sequences: classes"));
  one.sequence = one.y;
  CHECK_NOTHROW(validate_dataset(one));
}

TEST_CASE("data_path must exist; profiles are checked even when not selected", "[validation]") {
  const std::string base =
      "datasets: [{name: iris, source: bundled}]\nsplits: {train_ratio: [0.5]}\n"
      "methods: [{method: identity}]\n";
  const Experiment ex = parse_experiment("data_path: /no/such/dir\n" + base, "cfg/p.yaml");
  CHECK_THROWS_WITH(check_data_path(ex), Catch::Contains("cfg/p.yaml:1: 'data_path': directory "
                                                         "'/no/such/dir' does not exist"));
  const std::string prof = base + "profiles:\n  quick:\n    splits: {repeats: 0}\n";
  CHECK_THAT(parse_error(prof), Catch::Contains("cfg/p.yaml (profile quick):6: 'splits.repeats'"));
  CHECK_THAT(parse_error(prof, "quick"), Catch::Contains("cfg/p.yaml:6: 'splits.repeats'"));
}

TEST_CASE("each profile writes to its own default path", "[validation]") {
  const std::string yaml =
      "datasets: [{name: iris, source: bundled}]\nsplits: {train_ratio: [0.5]}\n"
      "methods: [{method: identity}]\noutput: {path: results/x.h5}\n"
      "profiles:\n  quick: {splits: {repeats: 2}}\n  mine: {output: {path: here.h5}}\n";
  CHECK(parse_experiment(yaml, "c.yaml").output.path == "results/x.h5");
  CHECK(parse_experiment(yaml, "c.yaml", "quick").output.path == "results/x-quick.h5");
  CHECK(parse_experiment(yaml, "c.yaml", "mine").output.path == "here.h5");
}

TEST_CASE("normalised config: comments and layout do not count, values do", "[validation]") {
  const std::string a = "name: x   # the name\nsplits: {train_ratio: [0.3, 0.5]}\nseed: 2\n";
  const std::string b =
      "# header\nseed: 2\nsplits:\n  train_ratio:\n    - 0.3\n    - 0.5\nname: x\n";
  CHECK(normalised_config(a) == normalised_config(b));
  CHECK(normalised_config(a) !=
        normalised_config("name: x\nsplits: {train_ratio: [0.3]}\nseed: 2\n"));
  CHECK(normalised_config("seed: 2\n") != normalised_config("seed: '2'\n"));
  CHECK(normalised_config(a + "profiles: {q: {seed: 3}}\n") == normalised_config(a));
}

TEST_CASE("landmarks above the fitted points", "[validation]") {
  check_data_error(
      blobs(30, 3,
            "splits: {train_per_class: [2]}\n"
            "methods:\n  - method: isomap\n"
            "    dims: [1]\n    grid: {neighbours: [2], "
            "landmarks: [6, 7]}\n"),
      {"'methods[0].grid.landmarks'", "landmarks = 7 exceeds the 6 points it is fitted on",
       "fix: use landmarks <= 6 (0 = full Isomap)"});
}
