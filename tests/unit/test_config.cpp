// Config parsing: good configs give the right structs; each kind of bad input gives an error that
// names file, line, key path and a fix. Fake methods come from test_config_fakes.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include "framework/support/build_info.hpp"

#include <yaml-cpp/yaml.h>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "unit/error_message.hpp"

using namespace drbench;

namespace {

// The message of the ConfigError parsing `yaml` raises ("no error" when it parses).
std::string error_of(const std::string& yaml, const std::string& profile = "") {
  return testing::config_error(yaml, "cfg/bad.yaml", profile);
}

// The smallest whole config (identity on dataset a, its own split): line 4 on is the caller's.
const std::string kIdentityOnA =
    "datasets: [{name: a}]\nsplits: {own: true}\nmethods: [{method: identity}]\n";

const char* kGood = R"(name: good
seed: 42
data_path: /data
blas_threads: 2
datasets:
  - name: iris
    source: bundled
    preprocess: [center, standardize]
  - name: usps
    path: usps.h5
    max_points: 500
    verify_checksum: false
    preprocess:
      - {minmax: {per_feature: false}}
      - {pca: {variance: 0.99}}
  - name: faces
    source: csv
    path: faces.csv
    preprocess: [{pca: {components: 50}}, minmax]
splits:
  train_per_class: [5, 10]
  repeats: 3
  test_per_class: 20
methods:
  - method: identity
  - method: test_cfg_supervised
    label: sup
    dims: [2, 9]
    grid:
      gamma: {logspace: [-2, 2, 5]}
      k: 7
      kernel: [rbf, poly, 3]
      center: false
    preprocess: []
evaluation:
  knn: [1, 3]
  knn_metric: cosine
  protocol: holdout
  selection: min_mean_error
  quality: [trustworthiness, continuity]
  quality_k: 12
  ttest_against: identity
output:
  keep_embeddings: true
  keep_traces: false
)";

}  // namespace

TEST_CASE("a complete config parses into the typed experiment", "[config]") {
  const Experiment ex = parse_experiment(kGood, "configs/good.yaml");
  CHECK(ex.name == "good");
  CHECK(ex.file == "configs/good.yaml");
  CHECK(ex.text == kGood);
  CHECK(ex.profile.empty());
  CHECK(ex.seed == 42);
  CHECK(ex.data_path == "/data");
  CHECK(ex.blas_threads == 2);

  REQUIRE(ex.datasets.size() == 3);
  const DatasetSpec& iris = ex.datasets[0];
  CHECK(iris.source == "bundled");
  CHECK(iris.line == 6);
  REQUIRE(iris.preprocess.size() == 2);
  CHECK(iris.preprocess[0].kind == PreprocStep::Kind::Center);
  CHECK(iris.preprocess[1].kind == PreprocStep::Kind::Standardize);
  const DatasetSpec& usps = ex.datasets[1];
  CHECK(usps.source == "file");
  CHECK(usps.path == "usps.h5");
  CHECK(usps.max_points == 500);
  CHECK_FALSE(usps.verify_checksum);
  REQUIRE(usps.preprocess.size() == 2);
  CHECK(usps.preprocess[0].kind == PreprocStep::Kind::MinMax);
  CHECK_FALSE(usps.preprocess[0].per_feature);
  CHECK(usps.preprocess[1].kind == PreprocStep::Kind::Pca);
  CHECK(usps.preprocess[1].variance == 0.99);
  CHECK(usps.preprocess[1].components == 0);
  const DatasetSpec& faces = ex.datasets[2];
  CHECK(faces.source == "csv");
  CHECK(faces.preprocess[0].components == 50);
  CHECK(faces.preprocess[0].variance == 0.0);
  CHECK(faces.preprocess[1].kind == PreprocStep::Kind::MinMax);
  CHECK(faces.preprocess[1].per_feature);

  CHECK(ex.splits.kind == SplitsSpec::Kind::PerClass);
  CHECK(ex.splits.values == std::vector<double>{5, 10});
  CHECK(ex.splits.repeats == 3);
  CHECK(ex.splits.seed == 42);  // defaults to the top-level seed
  CHECK(ex.splits.test_per_class == 20);

  REQUIRE(ex.methods.size() == 2);
  const MethodSpec& id = ex.methods[0];
  CHECK(id.label == "identity");
  CHECK(id.dims == std::vector<std::uint64_t>{0});  // identity ignores dims
  CHECK(id.grid.empty());
  CHECK_FALSE(id.preprocess.has_value());
  const MethodSpec& sup = ex.methods[1];
  CHECK(sup.label == "sup");
  CHECK(sup.method == "test_cfg_supervised");
  CHECK(sup.line == 26);
  CHECK(sup.dims_line == 28);
  CHECK(sup.dims == std::vector<std::uint64_t>{2, 9});
  REQUIRE(sup.grid.size() == 4);
  CHECK(sup.grid[0].param == "gamma");
  CHECK(sup.grid[0].line == 30);
  REQUIRE(sup.grid[0].values.size() == 5);
  CHECK(std::get<double>(sup.grid[0].values[0]) == Approx(0.01));
  CHECK(std::get<double>(sup.grid[0].values[2]) == Approx(1.0));
  CHECK(std::get<double>(sup.grid[0].values[4]) == Approx(100.0));
  CHECK(sup.grid[1].values == std::vector<ParamValue>{std::int64_t{7}});
  CHECK(sup.grid[2].values ==
        std::vector<ParamValue>{std::string("rbf"), std::string("poly"), std::string("3")});
  CHECK(sup.grid[3].values == std::vector<ParamValue>{false});
  REQUIRE(sup.preprocess.has_value());
  CHECK(sup.preprocess->empty());

  CHECK(ex.evaluation.knn == std::vector<int>{1, 3});
  CHECK(ex.evaluation.knn_metric == "cosine");
  CHECK(ex.evaluation.protocol == EvaluationSpec::Protocol::Holdout);
  CHECK(ex.evaluation.quality == std::vector<std::string>{"trustworthiness", "continuity"});
  CHECK(ex.evaluation.quality_k == std::vector<int>{12});
  CHECK(ex.evaluation.ttest_reference == "identity");
  CHECK(ex.output.path == "results/good.h5");
  CHECK(ex.output.keep_embeddings);
  CHECK_FALSE(ex.output.keep_traces);
}

TEST_CASE("defaults fill in what a minimal config leaves out", "[config]") {
  const Experiment ex = parse_experiment(R"(datasets: [{name: wine, source: bundled}]
splits: {train_ratio: 0.5, seed: 9}
methods: [{method: test_cfg_supervised, dims: 2, grid: {gamma: 3}}]
)",
                                         "some/dir/mini.yml");
  CHECK(ex.name == "mini");
  CHECK(ex.seed == 0);
  CHECK(ex.blas_threads == 1);
  CHECK(ex.splits.kind == SplitsSpec::Kind::Ratio);
  CHECK(ex.splits.values == std::vector<double>{0.5});
  CHECK(ex.splits.repeats == 1);
  CHECK(ex.splits.seed == 9);
  CHECK(ex.methods[0].dims == std::vector<std::uint64_t>{2});
  // An integer written for a real parameter is stored as a real.
  CHECK(ex.methods[0].grid[0].values == std::vector<ParamValue>{3.0});
  CHECK(ex.evaluation.knn == std::vector<int>{1});
  CHECK(ex.evaluation.knn_metric == "euclidean");
  CHECK(ex.evaluation.quality.empty());
  CHECK(ex.evaluation.quality_k == std::vector<int>{10});
  CHECK(ex.evaluation.quality_sample == 10000);
  CHECK(ex.evaluation.ttest_reference.empty());
  CHECK(ex.output.path == "results/mini.h5");
  CHECK_FALSE(ex.output.keep_embeddings);
  CHECK(ex.output.keep_traces);
  CHECK(ex.datasets[0].verify_checksum);
}

TEST_CASE("own and all splits; the transductive protocol admits methods without transform",
          "[config]") {
  const Experiment ex = parse_experiment(R"(datasets: [{name: usps}]
splits: {all: true}
methods: [{method: test_cfg_transductive, dims: [2]}]
evaluation: {protocol: transductive}
)",
                                         "x.yaml");
  CHECK(ex.splits.kind == SplitsSpec::Kind::All);
  CHECK(ex.splits.values == std::vector<double>{0.0});
  CHECK(ex.evaluation.protocol == EvaluationSpec::Protocol::Transductive);
  const Experiment own = parse_experiment(R"(datasets: [{name: usps}]
splits: {own: true, repeats: 2}
methods: [{method: identity}]
)",
                                          "x.yaml");
  CHECK(own.splits.kind == SplitsSpec::Kind::Own);
  CHECK(own.splits.repeats == 2);
}

namespace {
// A config whose first method is test_cfg_supervised at dims [1]; `grid_on` completes it from
// that method's grid on.
std::string supervised_first(const std::string& grid_on) {
  return "datasets: [{name: d}]\nsplits: {train_ratio: [0.5]}\nmethods:\n"
         "  - method: test_cfg_supervised\n    dims: [1]\n    grid: " +
         grid_on;
}
}  // namespace

TEST_CASE("linspace and logspace axes", "[config]") {
  const Experiment ex = parse_experiment(
      supervised_first("{k: {linspace: [1, 10, 10]}, gamma: {linspace: [0.5, 1.5, 3]}}\n"
                       "  - method: test_cfg_supervised\n    label: single\n    dims: [1]\n"
                       "    grid: {gamma: {logspace: [1, 1, 1]}}\n"),
      "x.yaml");
  const auto& k = ex.methods[0].grid[0].values;
  REQUIRE(k.size() == 10);
  for (std::int64_t i = 0; i < 10; ++i) CHECK(std::get<std::int64_t>(k[i]) == i + 1);
  const auto& g = ex.methods[0].grid[1].values;
  REQUIRE(g.size() == 3);
  CHECK(std::get<double>(g[0]) == 0.5);
  CHECK(std::get<double>(g[1]) == Approx(1.0));
  CHECK(std::get<double>(g[2]) == 1.5);
  CHECK(ex.methods[1].grid[0].values == std::vector<ParamValue>{10.0});
}

TEST_CASE("expand_grid is the completed cartesian product, last axis fastest", "[config]") {
  const Experiment ex = parse_experiment(
      supervised_first("{gamma: [0.1, 1], kernel: [rbf, poly, '3']}\n  - method: identity\n"),
      "x.yaml");
  const auto settings = expand_grid(ex.methods[0]);
  REQUIRE(settings.size() == 6);
  CHECK(settings[0].canonical() == "center=true,gamma=0.1,k=5,kernel=rbf");
  CHECK(settings[1].canonical() == "center=true,gamma=0.1,k=5,kernel=poly");
  CHECK(settings[2].canonical() == "center=true,gamma=0.1,k=5,kernel=3");
  CHECK(settings[3].canonical() == "center=true,gamma=1,k=5,kernel=rbf");
  CHECK(settings[5].real("gamma") == 1.0);
  // Supervised methods cannot run transductively, so the defaults come from a second config.
  const Experiment tr = parse_experiment(R"(datasets: [{name: d}]
splits: {train_ratio: [0.5]}
methods: [{method: test_cfg_transductive, dims: [1]}]
evaluation: {protocol: transductive}
)",
                                         "x.yaml");
  const auto defaults = expand_grid(tr.methods[0]);
  REQUIRE(defaults.size() == 1);
  CHECK(defaults[0].canonical() == "perplexity=30");
}

TEST_CASE("malformed YAML reports the parser's line", "[config]") {
  const std::string e = error_of("datasets:\n  - name: a\n  b: [1, 2\nsplits: {}\n");
  CHECK_THAT(e, Catch::Contains("cfg/bad.yaml:"));
  CHECK_THAT(e, Catch::Contains("malformed YAML"));
  CHECK_THAT(error_of(""), Catch::Contains("cfg/bad.yaml:1: the config is empty"));
  CHECK_THAT(error_of("- a\n- b\n"), Catch::Contains("expected a map"));
  CHECK_THAT(error_of("key: [unclosed\n"), Catch::Contains("cfg/bad.yaml:"));
}

TEST_CASE("unknown keys are refused with a did-you-mean", "[config]") {
  CHECK_THAT(
      error_of("datasets: [{name: a}]\nsplits: {own: true}\nmethds: []\n"),
      Catch::Contains("cfg/bad.yaml:3: 'methds': unknown key (fix: did you mean 'methods'?"));
  const std::string e = error_of(R"(datasets:
  - name: a
    max_point: 3
)");
  CHECK_THAT(e, Catch::Contains("cfg/bad.yaml:3: 'datasets[0].max_point': unknown key"));
  CHECK_THAT(e, Catch::Contains("did you mean 'max_points'?"));
  CHECK_THAT(error_of(R"(datasets: [{name: a}]
splits: {own: true}
methods:
  - method: test_cfg_supervised
    dims: [1]
    grid:
      gama: 1
)"),
             Catch::Contains("cfg/bad.yaml:7: 'methods[0].grid.gama': unknown key (fix: did you "
                             "mean 'gamma'? valid keys here: gamma, k, kernel, center)"));
  CHECK_THAT(error_of(kIdentityOnA + "evaluation: {knnn: [1]}\n"),
             Catch::Contains("4: 'evaluation.knnn': unknown key (fix: did you mean 'knn'?"));
  CHECK_THAT(error_of(kIdentityOnA + "output: {keep_embedding: true}\n"),
             Catch::Contains("did you mean 'keep_embeddings'?"));
  CHECK_THAT(error_of("datasets: [{name: a}]\ndatasets: [{name: b}]\n"),
             Catch::Contains("2: 'datasets': key given twice"));
}

TEST_CASE("unknown method lists the registered ones", "[config]") {
  const std::string e = error_of(R"(datasets: [{name: a}]
splits: {own: true}
methods:
  - method: identity
  - method: identiy
)");
  CHECK_THAT(e, Catch::Contains("cfg/bad.yaml:5: 'methods[1].method': unknown method 'identiy'"));
  CHECK_THAT(e, Catch::Contains("did you mean 'identity'?"));
  CHECK_THAT(e, Catch::Contains("registered methods: "));
  CHECK_THAT(e, Catch::Contains("test_cfg_supervised"));
}

namespace {
// A config whose only method is test_cfg_supervised with `grid` (a YAML flow map) on line 5.
std::string with_grid(const std::string& grid) {
  return "datasets: [{name: a}]\nsplits: {own: true}\nmethods:\n  - method: test_cfg_supervised\n"
         "    grid: " +
         grid + "\n    dims: [1]\n";
}
}  // namespace

TEST_CASE("parameter values are checked against the method's ParamSpec", "[config]") {
  CHECK(error_of(with_grid("{gamma: 0.5, k: 3, kernel: poly, center: true}")) == "no error");
  testing::check_refusals(
      [](const std::string& grid) { return error_of(with_grid(grid)); },
      {
          {"{gamma: 0}",
           "cfg/bad.yaml:5: 'methods[0].grid.gamma': value 0 out of range; "
           "expected real in (0, inf)"},
          {"{gamma: [1, -2]}", "'methods[0].grid.gamma[1]': value -2 out of range"},
          {"{k: 2.5}", "'methods[0].grid.k': got non-integer '2.5'; expected int in [1, 100]"},
          {"{k: 101}", "out of range"},
          {"{k: '5'}", "'methods[0].grid.k': got '5'"},
          {"{kernel: linear}", "got 'linear'; expected choice in {rbf, poly, 3}"},
          {"{center: 1}", "'methods[0].grid.center': got '1'; expected bool"},
          {"{gamma: abc}", "got 'abc'; expected real"},
          {"{gamma: []}", "'methods[0].grid.gamma': the list is empty"},
          {"{gamma: [1, 2, 1.0]}", "'methods[0].grid.gamma': value 1 appears twice"},
          {"{gamma: {logspace: [-1, 1]}}",
           "'methods[0].grid.gamma.logspace': expected a list of 3 numbers"},
          {"{gamma: {logspce: [-1, 1, 3]}}", "did you mean 'logspace'?"},
          {"{gamma: {linspace: [-1, 1, 3]}}", "linspace point -1: value -1 out of range"},
          {"{k: {linspace: [1, 2, 3]}}",
           "linspace gives the non-integer value 1.5 for integer parameter 'k'"},
          {"{gamma: {linspace: [1, 1, 3]}}", "lo and hi are equal"},
          {"{gamma: {linspace: [1, 2, 0]}}",
           "'methods[0].grid.gamma.linspace[2]': value 0 is out of range"},
      });
  // check_setting: cross-parameter rules over every combination of the grid.
  CHECK_THAT(error_of(with_grid("{kernel: [rbf, poly], k: [10, 60]}")),
             Catch::Contains("'methods[0].grid': setting {center=true,gamma=1,k=60,kernel=poly}: "
                             "the poly kernel needs k <= 50"));
  CHECK_THAT(error_of("datasets: [{name: a}]\nsplits: {own: true}\nmethods:\n"
                      "  - {method: identity, grid: {x: 1}}\n"),
             Catch::Contains("'methods[0].grid': method 'identity' has no parameters"));
}

TEST_CASE("dims, labels and method-level errors", "[config]") {
  const std::string head = "datasets: [{name: a}]\nsplits: {own: true}\nmethods:\n";
  testing::check_refusals(
      [&](const std::string& methods) { return error_of(head + methods); },
      {
          {"  - method: test_cfg_supervised\n",
           "cfg/bad.yaml:4: 'methods[0].dims': required key is missing"},
          {"  - {method: test_cfg_supervised, dims: []}\n",
           "4: 'methods[0].dims': the list is empty"},
          {"  - method: test_cfg_supervised\n    dims: [2, 0]\n",
           "5: 'methods[0].dims[1]': value 0 is out of range"},
          {"  - {method: test_cfg_supervised, dims: [2, 2]}\n", "dimension 2 appears twice"},
          {"  - {method: test_cfg_supervised, dims: two}\n",
           "'methods[0].dims': expected an integer, got 'two'"},
      });
  const std::string dup = error_of(head + "  - {method: identity}\n  - {method: identity}\n");
  CHECK_THAT(dup, Catch::Contains("cfg/bad.yaml:5: 'methods[1].label': label 'identity' is "
                                  "already used by methods[0]"));
  CHECK(error_of(head + "  - {method: identity}\n  - {method: identity, label: id2}\n") ==
        "no error");
  CHECK_THAT(error_of(head + "  - {method: identity, label: 'a|b'}\n"),
             Catch::Contains("4: 'methods[0].label': 'a|b' contains '|'"));
  CHECK(error_of(head + "  - {method: identity, label: PCA (rbf) / 9-D}\n") == "no error");
  CHECK_THAT(error_of(head + "  - {label: x}\n"),
             Catch::Contains("'methods[0].method': required key is missing"));
  CHECK_THAT(error_of("datasets: [{name: a}]\nsplits: {own: true}\nmethods: []\n"),
             Catch::Contains("3: 'methods': the list is empty"));
  CHECK_THAT(error_of("datasets: [{name: a}]\nsplits: {own: true}\nmethods: identity\n"),
             Catch::Contains("'methods': expected a list, got 'identity'"));
}

TEST_CASE("the holdout protocol refuses methods without an out-of-sample map", "[config]") {
  const std::string e = error_of(R"(datasets: [{name: a}]
splits: {train_ratio: [0.5]}
methods:
  - method: identity
  - method: test_cfg_transductive
    dims: [2]
)");
  CHECK_THAT(e, Catch::Contains("cfg/bad.yaml:5: 'methods[1].method': method "
                                "'test_cfg_transductive' has no out-of-sample map"));
  CHECK_THAT(e, Catch::Contains("set protocol: transductive (or protocol: auto) on this entry"));
  CHECK_THAT(
      error_of("datasets: [{name: a}]\nsplits: {all: true}\nmethods: [{method: identity}]\n"),
      Catch::Contains("2: 'splits.all': 'all: true' leaves no held-out test points"));
  CHECK_THAT(error_of(kIdentityOnA + "evaluation: {protocol: inductive}\n"),
             Catch::Contains("one of holdout, transductive"));
  CHECK_THAT(error_of(kIdentityOnA + "evaluation: {knn_metric: manhattan}\n"),
             Catch::Contains("4: 'evaluation.knn_metric': unknown value 'manhattan'"));
}

TEST_CASE("split errors", "[config]") {
  auto with_splits = [](const std::string& s) {
    return error_of("datasets: [{name: a}]\nsplits: " + s + "\nmethods: [{method: identity}]\n");
  };
  testing::check_refusals(
      with_splits,
      {
          {"{train_ratio: [0.3, 1.5]}",
           "cfg/bad.yaml:2: 'splits.train_ratio[1]': training ratio 1.5 is out "
           "of range (fix: a fraction strictly between 0 and 1"},
          {"{train_ratio: 0}", "'splits.train_ratio': training ratio 0"},
          {"{train_per_class: [0]}", "'splits.train_per_class[0]': value 0 is out of range"},
          {"{train_per_class: [5.5]}", "expected an integer"},
          {"{train_per_class: [5, 5]}", "value 5 appears twice"},
          {"{train_per_class: [5], train_ratio: [0.5]}",
           "'splits.train_ratio': 'train_per_class' is already given"},
          {"{repeats: 3}", "'splits': no partition given"},
          {"{own: false}", "'own: false' selects no partition"},
          {"{train_ratio: [0.5], repeats: 0}", "'splits.repeats': value 0 is out of range"},
          {"{train_ratio: [0.5], repeats: -2}", "out of range"},
          {"{train_ratio: []}", "the list is empty"},
          {"{own: true, test_per_class: 5}", "test_per_class does not apply to 'own'"},
          {"{train_ratio: [0.5], seed: -1}", "'splits.seed': expected a non-negative integer"},
      });
  CHECK_THAT(error_of("datasets: [{name: a}]\nmethods: [{method: identity}]\n"),
             Catch::Contains("cfg/bad.yaml:1: 'splits': required key is missing"));
}

TEST_CASE("dataset and preprocessing errors", "[config]") {
  auto with_dataset = [](const std::string& d) {
    return error_of("datasets:\n  - " + d +
                    "\nsplits: {own: true}\nmethods: [{method: identity}]\n");
  };
  testing::check_refusals(
      with_dataset,
      {
          {"{source: bundled}", "cfg/bad.yaml:2: 'datasets[0].name': required key is missing"},
          {"{name: a, source: hdf5}",
           "'datasets[0].source': unknown value 'hdf5' (fix: one of file, csv, "
           "npy, mat, h5ad, mtx, idx, bundled, generator, mocap)"},
          {"{name: a, path: x.npz, labels: cell_type}", "'labels' does not apply to source: npy"},
          {"{name: a, path: x.h5ad}", "'datasets[0].labels': an .h5ad dataset needs its labels"},
          {"{name: a, path: x.mtx}", "'datasets[0].labels_path': a MatrixMarket file carries"},
          {"{name: a, source: csv, variables: {X: fea}}",
           "'variables' does not apply to source: csv"},
          {"{name: a, path: x.mat, variables: {X: fea, z: gnd}}", "datasets[0].variables"},
          {"{name: a, source: idx}", "'datasets[0].path': source: idx needs a path"},
          {"{name: a, source: generator, generator: swiss_roll, path: x.h5}",
           "'path' does not apply to source: generator"},
          {"{name: a, params: {n: 3}}",
           "'datasets[0].params': 'params' only applies to generated data"},
          {"{name: a, source: generator}", "'datasets[0].generator': required key is missing"},
          {"{name: a, max_points: -5}", "expected a non-negative integer"},
          {"{name: a, verify_checksum: yes}",
           "'datasets[0].verify_checksum': expected true or false, got 'yes'"},
          {"{name: a, preprocess: [centre]}",
           "'datasets[0].preprocess[0]': unknown value 'centre' (fix: did you "
           "mean 'center'?"},
          {"{name: a, preprocess: [pca]}", "pca needs either variance or components"},
          {"{name: a, preprocess: [{pca: {variance: 0.9, components: 3}}]}",
           "give either variance or components, not both"},
          {"{name: a, preprocess: [{pca: {variance: 1.5}}]}",
           "'datasets[0].preprocess[0].pca.variance': variance fraction 1.5 is "
           "out of range (fix: a number in (0, 1]"},
          {"{name: a, preprocess: [{pca: {components: 0}}]}",
           "'datasets[0].preprocess[0].pca.components': value 0 is out of range"},
          {"{name: a, preprocess: [{minmax: {per_feature: 2}}]}",
           "'datasets[0].preprocess[0].minmax.per_feature': expected true or false"},
          {"{name: a, preprocess: [{center: {x: 1}}]}", "'center' takes no options"},
          {"{name: a, preprocess: center}", "'datasets[0].preprocess': expected a list"},
          {"{name: 'us|ps'}", "'datasets[0].name': 'us|ps' contains '|'"},
      });
  CHECK(with_dataset("{name: a, source: csv}") == "no error");
  CHECK(with_dataset("{name: a, source: bundled, path: iris}") == "no error");
  CHECK_THAT(error_of("datasets:\n  - {name: a}\n  - {name: a, source: bundled}\n"
                      "splits: {own: true}\nmethods: [{method: identity}]\n"),
             Catch::Contains("3: 'datasets[1].name': dataset name 'a' is already used"));
  CHECK_THAT(error_of("datasets: []\n"), Catch::Contains("'datasets': the list is empty"));
}

TEST_CASE("evaluation and top-level value errors", "[config]") {
  const std::string head =
      "datasets: [{name: a}]\nsplits: {own: true}\nmethods: [{method: identity}, "
      "{method: test_cfg_supervised, label: sup, dims: 1}]\n";
  testing::check_refusals(
      [&](const std::string& evaluation) { return error_of(head + evaluation); },
      {
          {"evaluation: {knn: [1, 0]}\n", "4: 'evaluation.knn[1]': value 0 is out of range"},
          {"evaluation: {knn: []}\n", "the list is empty"},
          {"evaluation: {knn: [3, 3]}\n", "k = 3 appears twice"},
          {"evaluation: {quality: [trustworthyness]}\n", "did you mean 'trustworthiness'?"},
          {"evaluation: {quality_k: 0}\n", "out of range"},
          {"evaluation: {quality: [rnx_aoc]}\n", "did you mean 'rnx_auc'?"},
          {"evaluation: {quality_k: [5, 10, 5]}\n", "K = 5 appears twice"},
          {"evaluation: {quality_k: {linspace: [1, 2, 3]}}\n", "linspace"},
          {"evaluation: {quality_sample: 3}\n", "out of range"},
          {"evaluation: {selection: best}\n", "one of validation, min_mean_error"},
          {"evaluation: {ttest_against: supp}\n",
           "4: 'evaluation.ttest_against': no method has the label 'supp' (fix: "
           "did you mean 'sup'? one of the method labels: identity, sup)"},
      });
  // Every measure of the one vocabulary is accepted.
  CHECK(error_of(head + "evaluation: {quality: [trustworthiness, continuity, qnx, rnx, lcmc, "
                        "mrre_intrusion, mrre_extrusion, rnx_auc, stress, shepard_spearman]}\n") ==
        "no error");
  CHECK(error_of(head + "evaluation: {ttest_against: sup}\n") == "no error");
  CHECK_THAT(error_of("seed: 1.5\n" + head), Catch::Contains("1: 'seed': expected a non-negative"));
  CHECK_THAT(error_of("blas_threads: 0\n" + head), Catch::Contains("'blas_threads': value 0"));
  CHECK_THAT(error_of("name: [a]\n" + head),
             Catch::Contains("'name': expected a string, got a list"));
  CHECK_THAT(error_of(head + "output: {keep_traces: maybe}\n"),
             Catch::Contains("'output.keep_traces': expected true or false"));
  CHECK(parse_experiment(head + "output: {path: out/x.h5}\n", "a.yaml").output.path == "out/x.h5");
}

namespace {
const char* kProfiled = R"(name: prof
seed: 1
datasets:
  - name: iris
    source: bundled
splits:
  train_ratio: [0.3, 0.5]
  repeats: 10
methods:
  - method: identity
  - method: test_cfg_supervised
    dims: [1, 2]
    grid: {gamma: [0.1, 1, 10]}
evaluation: {knn: [1, 3]}
profiles:
  quick:
    splits: {repeats: 2}
    methods:
      - method: identity
    evaluation: {knn: [1]}
)";
// The same with a profile holding an invalid value (lines 21-22).
const std::string kBroken = std::string(kProfiled) + "  broken:\n    splits: {repeats: 0}\n";
}  // namespace

TEST_CASE("profiles overlay the config: maps merge, lists and scalars replace", "[config]") {
  const Experiment ex = parse_experiment(kProfiled, "configs/prof.yaml", "quick");
  CHECK(ex.profile == "quick");
  CHECK(ex.splits.kind == SplitsSpec::Kind::Ratio);
  CHECK(ex.splits.values == std::vector<double>{0.3, 0.5});  // kept from the base map
  CHECK(ex.splits.repeats == 2);                             // replaced by the profile
  REQUIRE(ex.methods.size() == 1);
  CHECK(ex.methods[0].label == "identity");
  CHECK(ex.evaluation.knn == std::vector<int>{1});
  CHECK(ex.output.path == "results/prof-quick.h5");
  // The text is the effective config: reparsing it without a profile gives the same experiment.
  CHECK(ex.text.find("profiles") == std::string::npos);
  const Experiment again = parse_experiment(ex.text, "configs/prof.yaml");
  CHECK(again.splits.repeats == 2);
  CHECK(again.methods.size() == 1);
  CHECK(again.evaluation.knn == std::vector<int>{1});

  const Experiment full = parse_experiment(kProfiled, "configs/prof.yaml");
  CHECK(full.splits.repeats == 10);
  CHECK(full.methods.size() == 2);
  CHECK(full.output.path == "results/prof.h5");
}

TEST_CASE("a null in a profile removes the base's key", "[config]") {
  const std::string base = R"(name: prof
datasets:
  - name: iris
    source: bundled
splits: {train_ratio: [0.5], repeats: 2}
methods:
  - method: identity
  - method: test_cfg_supervised
    dims: [1]
evaluation: {knn: [1], ttest_against: identity}
profiles:
  alone:
    methods:
      - method: test_cfg_supervised
        dims: [1]
)";
  const std::string dropped = base + "    evaluation: {ttest_against: ~}\n";
  CHECK(parse_experiment(dropped, "configs/prof.yaml").evaluation.ttest_reference == "identity");
  const Experiment ex = parse_experiment(dropped, "configs/prof.yaml", "alone");
  CHECK(ex.evaluation.ttest_reference.empty());
  CHECK(ex.evaluation.knn == std::vector<int>{1});  // the rest of the map is kept
  CHECK(parse_experiment(ex.text, "configs/prof.yaml").evaluation.ttest_reference.empty());
  // Without the null the profile keeps a reference its method list lacks, which is an error.
  CHECK_THROWS_WITH(parse_experiment(base, "configs/prof.yaml", "alone"),
                    Catch::Contains("no method has the label 'identity'"));
}

TEST_CASE("profile errors", "[config]") {
  const std::string unknown = error_of(kBroken, "quik");
  CHECK_THAT(unknown, Catch::Contains("'profiles': unknown profile 'quik' (fix: did you mean "
                                      "'quick'? available profiles: quick, broken)"));
  // A bad value a profile supplies points at the profile's line.
  CHECK_THAT(error_of(kBroken, "broken"),
             Catch::Contains("cfg/bad.yaml:22: 'splits.repeats': value 0 is out of range"));
  // ... and is reported when another profile, or none, is selected.
  CHECK_THAT(error_of(kBroken),
             Catch::Contains("cfg/bad.yaml (profile broken):22: 'splits.repeats': value 0"));
  CHECK_THAT(error_of(kBroken, "quick"), Catch::Contains("(profile broken):22"));
  // Profile keys are checked even when the profile is not applied.
  CHECK_THAT(error_of(kBroken + "  typo:\n    evaluaton: {knn: [1]}\n"),
             Catch::Contains("24: 'profiles.typo.evaluaton': unknown key (fix: did you mean "
                             "'evaluation'?"));
  CHECK_THAT(error_of(kIdentityOnA, "quick"),
             Catch::Contains("profile 'quick' was requested but the config defines no profiles"));
}

TEST_CASE("load_experiment reads a file and names it in errors", "[config]") {
  const auto dir = std::filesystem::temp_directory_path() / "drbench_test_config";
  std::filesystem::create_directories(dir);
  const auto file = dir / "sweep.yaml";
  {
    std::ofstream out(file);
    out << kProfiled;
  }
  const Experiment ex = load_experiment(file.string(), "quick");
  CHECK(ex.file == file.string());
  CHECK(ex.output.path == "results/sweep-quick.h5");
  {
    std::ofstream out(file);
    out << "datasets: [{name: a}]\nsplits: {own: tru}\n";
  }
  CHECK_THROWS_WITH(load_experiment(file.string()),
                    Catch::Contains(file.string() + ":2: 'splits.own': expected true or false"));
  std::filesystem::remove_all(dir);
  CHECK_THROWS_AS(load_experiment((dir / "missing.yaml").string()), ConfigError);
}

TEST_CASE("every config shipped in configs/ parses, under each of its profiles", "[config]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(drbench::source_dir()) / "configs";
  int checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    const Experiment ex = load_experiment(entry.path().string());
    CHECK_FALSE(expand_grid(ex.methods.front()).empty());
    const YAML::Node root = YAML::LoadFile(entry.path().string());
    if (root["profiles"])
      for (const auto& kv : root["profiles"])
        CHECK_NOTHROW(load_experiment(entry.path().string(), kv.first.Scalar()));
    ++checked;
  }
  CHECK(checked >= 1);
}

TEST_CASE("the complete example in docs/config.md parses", "[config]") {
  std::ifstream in(std::string(drbench::source_dir()) + "/docs/config.md");
  REQUIRE(in);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto start = text.find("```yaml\n");
  REQUIRE(start != std::string::npos);
  const auto end = text.find("```\n", start + 8);
  const std::string yaml = text.substr(start + 8, end - start - 8);
  const Experiment ex = parse_experiment(yaml, "usps_kernels.yaml");
  CHECK(ex.datasets.size() == 4);
  CHECK(ex.methods.size() == 4);
  CHECK(expand_grid(ex.methods[2]).size() == 5);
  const Experiment quick = parse_experiment(yaml, "usps_kernels.yaml", "quick");
  CHECK(quick.methods.size() == 2);
  CHECK(quick.splits.values == std::vector<double>{10, 20, 30});
  CHECK(quick.splits.repeats == 2);
}
