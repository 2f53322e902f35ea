// The evaluation protocols as docs/config.md defines them: holdout maps test points with the
// method's transform; transductive embeds train and test points together, shows the method only
// the training labels and scores each test point against the training points; splits: {all: true}
// is leave-one-out over every point and refuses supervised methods.
#include <catch2/catch.hpp>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/data/load.hpp"
#include "framework/data/preprocess.hpp"
#include "framework/data/split.hpp"
#include "framework/eval/knn.hpp"
#include "framework/plan/task.hpp"
#include "framework/sched/run_task.hpp"
#include "unit/error_message.hpp"
#include "unit/fake_method.hpp"

using namespace drbench;

namespace {

// What the partially-labelled fake was last shown.
arma::uvec g_seen_labels;

MethodInfo test_partial_labels() {
  MethodInfo m = testing::fake_method_info(
      "test_partial_labels", "linear",
      "fake semi-supervised, transductive-only method for protocol tests", [](const FitInput& in) {
        if (in.labels) g_seen_labels = *in.labels;
      });
  m.supervised = true;
  m.partial_labels = true;
  m.out_of_sample = false;
  return m;
}

std::string config(const std::string& splits, const std::string& protocol,
                   const std::string& method = "identity") {
  return "seed: 3\ndatasets: [{name: iris, source: bundled, preprocess: [standardize]}]\n"
         "splits: " +
         splits + "\nmethods: [{method: " + method +
         ", dims: [2]}]\nevaluation: {knn: [1, 3], protocol: " + protocol + "}\n";
}

std::vector<TaskResult> run_all(const Experiment& ex) {
  TaskRunner runner(ex, data_search_path(""));
  std::vector<TaskResult> out;
  for (const Task& t : expand_tasks(ex)) out.push_back(runner.run(t, 0));
  return out;
}

std::string error_of(const std::string& yaml) {
  return testing::config_error(yaml, "cfg/p.yaml");
}

}  // namespace

DRBENCH_REGISTER_METHOD(test_partial_labels)

TEST_CASE("transductive: test points scored against training points, split respected",
          "[protocol]") {
  // identity ignores dims; its embedding is the (standardised) input, so the transductive score
  // must equal the holdout one on the same partition.
  std::string yaml = config("{train_per_class: [2, 10], repeats: 2}", "transductive");
  yaml.replace(yaml.find(", dims: [2]"), 11, "");
  const Experiment tr = parse_experiment(yaml, "cfg/t.yaml");
  std::string hold = yaml;
  hold.replace(hold.find("transductive"), 12, "holdout");
  const Experiment ho = parse_experiment(hold, "cfg/h.yaml");
  const auto a = run_all(tr), b = run_all(ho);
  REQUIRE(a.size() == 4);
  REQUIRE(b.size() == 4);
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO(a[i].key << ": " << a[i].error);
    REQUIRE(a[i].ok);
    CHECK(a[i].n_test == b[i].n_test);
    CHECK(a[i].n_test == 150 - a[i].n_train);
    CHECK(a[i].knn_error == b[i].knn_error);
  }
  // 2 per class and 10 per class are different experiments.
  CHECK(a[0].n_train == 6);
  CHECK(a[2].n_train == 30);
  CHECK(a[0].knn_error != a[2].knn_error);
}

TEST_CASE("transductive: a partially-labelled method never sees a test label", "[protocol]") {
  const Experiment ex = parse_experiment(
      config("{train_per_class: [5]}", "transductive", "test_partial_labels"), "cfg/t.yaml");
  const auto r = run_all(ex);
  REQUIRE(r.size() == 1);
  INFO(r[0].error);
  REQUIRE(r[0].ok);
  REQUIRE(g_seen_labels.n_elem == 150);
  CHECK(arma::accu(g_seen_labels == kUnlabelled) == 135);
  CHECK(arma::accu(g_seen_labels != kUnlabelled) == 15);
  CHECK(r[0].n_test == 135);
}

TEST_CASE("splits all: leave-one-out over every point", "[protocol]") {
  std::string yaml = config("{all: true}", "transductive");
  yaml.replace(yaml.find(", dims: [2]"), 11, "");
  const Experiment ex = parse_experiment(yaml, "cfg/a.yaml");
  const auto r = run_all(ex);
  REQUIRE(r.size() == 1);
  REQUIRE(r[0].ok);
  Dataset ds = load_dataset(ex.datasets[0], data_search_path(""), dataset_seed(ex, 0));
  Pipeline p(ex.datasets[0].preprocess);
  CHECK(r[0].knn_error == knn_loo_errors(p.fit_apply(ds.X), ds.y, {1, 3}));
  CHECK(r[0].n_test == 0);
  CHECK(r[0].n_train == 150);
}

TEST_CASE("supervised methods are refused where they would see the labels they are scored on",
          "[protocol][config]") {
  const std::string e = error_of(config("{train_ratio: [0.5]}", "transductive", "lda"));
  CHECK_THAT(e, Catch::Contains("cfg/p.yaml:4: 'methods[0].method'"));
  CHECK_THAT(e, Catch::Contains("'lda' is supervised and cannot fit partially labelled data"));
  CHECK_THAT(e, Catch::Contains("set protocol: holdout (or protocol: auto) on this entry"));
  const std::string a = error_of(config("{all: true}", "transductive", "test_partial_labels"));
  CHECK_THAT(a, Catch::Contains("splits: {all: true} scores every point leave-one-out"));
  CHECK_THAT(a, Catch::Contains("'test_partial_labels'"));
  // Unsupervised methods without a transform run under either transductive form.
  CHECK(error_of(config("{all: true}", "transductive", "test_cfg_transductive")) == "no error");
  CHECK(error_of(config("{train_ratio: [0.5]}", "transductive", "test_partial_labels")) ==
        "no error");
}

TEST_CASE("kept embeddings say which dataset points they are", "[protocol]") {
  for (const char* protocol : {"holdout", "transductive"}) {
    std::string yaml = config("{train_per_class: [3]}", protocol);
    yaml += "output: {keep_embeddings: true}\n";
    const Experiment ex = parse_experiment(yaml, "cfg/e.yaml");
    const auto r = run_all(ex);
    REQUIRE(r.size() == 1);
    INFO(protocol << ": " << r[0].error);
    REQUIRE(r[0].ok);
    const Dataset ds = load_dataset(ex.datasets[0], data_search_path(""), dataset_seed(ex, 0));
    const Partition p = make_partition(ds, ex.splits, 3, expand_tasks(ex)[0].split_seed);
    CHECK(arma::all(r[0].index_train == p.train));
    CHECK(arma::all(r[0].index_test == p.test));
    CHECK(arma::all(r[0].label_train == ds.y.elem(p.train)));
    CHECK(arma::all(r[0].label_test == ds.y.elem(p.test)));
    CHECK(r[0].embedding_train.n_cols == 9);
    CHECK(r[0].embedding_test.n_cols == 141);
  }
}
