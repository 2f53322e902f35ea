// Task expansion: count, order, canonical keys, seeds that depend on identity rather than order,
// and the data-shape checks of dims. Fake methods come from test_config_fakes.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "framework/config/experiment.hpp"
#include "framework/config/validate.hpp"
#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/plan/task.hpp"
#include "framework/sched/order.hpp"
#include "unit/error_message.hpp"

using namespace drbench;
using drbench::testing::message_of;

namespace {

// min_mean_error: the expansion without inner validation tasks (test_selection.cpp has those).
const char* kSweep = R"(seed: 11
evaluation: {selection: min_mean_error}
datasets:
  - {name: iris, source: bundled}
  - {name: usps}
splits:
  train_ratio: [0.3, 0.5]
  repeats: 3
  seed: 5
methods:
  - method: identity
  - method: test_cfg_supervised
    label: sup
    dims: [1, 2]
    grid: {gamma: [0.1, 1], kernel: [rbf, poly]}
)";

// The same sweep written in another order: methods swapped, grid axes swapped, dims reversed.
const char* kSweepReordered = R"(seed: 11
evaluation: {selection: min_mean_error}
datasets:
  - {name: usps}
  - {name: iris, source: bundled}
splits:
  train_ratio: [0.5, 0.3]
  repeats: 3
  seed: 5
methods:
  - method: test_cfg_supervised
    label: sup
    dims: [2, 1]
    grid: {kernel: [poly, rbf], gamma: [1, 0.1]}
  - method: identity
)";

}  // namespace

TEST_CASE("expansion count, order and canonical keys", "[tasks]") {
  const Experiment ex = parse_experiment(kSweep, "sweep.yaml");
  const auto tasks = expand_tasks(ex);
  // 2 datasets x 2 ratios x 3 repeats x (identity 1 + sup 4 settings x 2 dims)
  REQUIRE(tasks.size() == 2 * 2 * 3 * (1 + 4 * 2));
  for (std::size_t i = 0; i < tasks.size(); ++i) CHECK(tasks[i].id == i);

  CHECK(tasks[0].key == "iris|ratio=0.3|r0|identity||d0");
  CHECK(tasks[1].key == "iris|ratio=0.3|r0|sup|center=true,gamma=0.1,k=5,kernel=rbf|d1");
  CHECK(tasks[2].key == "iris|ratio=0.3|r0|sup|center=true,gamma=0.1,k=5,kernel=rbf|d2");
  CHECK(tasks[3].key == "iris|ratio=0.3|r0|sup|center=true,gamma=0.1,k=5,kernel=poly|d1");
  CHECK(tasks[8].key == "iris|ratio=0.3|r0|sup|center=true,gamma=1,k=5,kernel=poly|d2");
  CHECK(tasks[9].key == "iris|ratio=0.3|r1|identity||d0");
  CHECK(tasks[27].key == "iris|ratio=0.5|r0|identity||d0");
  CHECK(tasks[54].key == "usps|ratio=0.3|r0|identity||d0");
  CHECK(tasks.back().key == "usps|ratio=0.5|r2|sup|center=true,gamma=1,k=5,kernel=poly|d2");

  const Task& t = tasks[3];
  CHECK(t.dataset == 0);
  CHECK(t.split_value == 0.3);
  CHECK(t.repeat == 0);
  CHECK(t.method == 1);
  CHECK(t.dim == 1);
  CHECK(t.setting.str("kernel") == "poly");
  CHECK(t.setting.real("gamma") == 0.1);
  CHECK(t.setting.integer("k") == 5);  // default filled in

  std::set<std::string> keys;
  for (const auto& task : tasks) keys.insert(task.key);
  CHECK(keys.size() == tasks.size());
}

TEST_CASE("seeds follow task identity, not position", "[tasks]") {
  const Experiment ex = parse_experiment(kSweep, "sweep.yaml");
  const auto tasks = expand_tasks(ex);
  const auto other = expand_tasks(parse_experiment(kSweepReordered, "sweep.yaml"));
  REQUIRE(other.size() == tasks.size());
  std::map<std::string, const Task*> by_key;
  for (const auto& t : other) by_key[t.key] = &t;
  for (const auto& t : tasks) {
    REQUIRE(by_key.count(t.key) == 1);
    CHECK(by_key[t.key]->seed == t.seed);
    CHECK(by_key[t.key]->split_seed == t.split_seed);
    CHECK(t.seed == hash_seed(11, t.key));
  }
  // Every method sees the same partitions (paired t-tests); repeats and datasets differ.
  CHECK(tasks[0].split_seed == hash_seed(5, "iris|ratio=0.3|r0"));
  for (int i = 1; i < 9; ++i) CHECK(tasks[i].split_seed == tasks[0].split_seed);
  CHECK(tasks[9].split_seed != tasks[0].split_seed);
  CHECK(tasks[27].split_seed != tasks[0].split_seed);
  CHECK(tasks[54].split_seed != tasks[0].split_seed);
  std::set<std::uint64_t> seeds;
  for (const auto& t : tasks) seeds.insert(t.seed);
  CHECK(seeds.size() == tasks.size());

  // The split seed comes from splits.seed; the method seed from the top-level seed.
  Experiment reseeded = ex;
  reseeded.seed = 12;
  const auto re = expand_tasks(reseeded);
  CHECK(re[0].split_seed == tasks[0].split_seed);
  CHECK(re[0].seed != tasks[0].seed);
}

TEST_CASE("expansion is deterministic", "[tasks]") {
  const Experiment ex = parse_experiment(kSweep, "sweep.yaml");
  const auto a = expand_tasks(ex), b = expand_tasks(parse_experiment(kSweep, "sweep.yaml"));
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].key == b[i].key);
    CHECK(a[i].seed == b[i].seed);
    CHECK(a[i].split_seed == b[i].split_seed);
    CHECK(a[i].cost == b[i].cost);
  }
}

TEST_CASE("split kinds in keys, and costs from data shapes", "[tasks]") {
  const Experiment ex = parse_experiment(R"(datasets: [{name: usps}, {name: iris}]
splits: {train_per_class: [10, 100], repeats: 1}
methods: [{method: test_cfg_supervised, dims: [2]}]
)",
                                         "pc.yaml");
  const auto est = expand_tasks(ex);
  REQUIRE(est.size() == 4);
  CHECK(est[0].key ==
        "usps|per_class=10|r0|test_cfg_supervised|center=true,gamma=1,k=5,kernel=rbf|d2");
  // Without shapes: n = 1000, d = 100, 10 classes; the fake's cost is n * d * dim * k.
  CHECK(est[0].cost == Approx(100.0 * 100 * 2 * 5));
  CHECK(est[1].cost == Approx(1000.0 * 100 * 2 * 5));  // 100 per class capped at n
  // Measured training shapes at the smallest value (10 per class); n scales with the value.
  const auto shaped = expand_tasks(ex, {DataShape{100, 256, 10}, DataShape{30, 4, 3}});
  CHECK(shaped[0].cost == Approx(100.0 * 256 * 2 * 5));
  CHECK(shaped[1].cost == Approx(1000.0 * 256 * 2 * 5));
  CHECK(shaped[2].cost == Approx(30.0 * 4 * 2 * 5));
  CHECK(shaped[3].cost == Approx(300.0 * 4 * 2 * 5));
  for (std::size_t i = 0; i < est.size(); ++i) {
    CHECK(shaped[i].key == est[i].key);  // shapes change costs only
    CHECK(shaped[i].seed == est[i].seed);
  }
  CHECK_THROWS_AS(expand_tasks(ex, {DataShape{1, 1, 1}}), Error);

  const Experiment own = parse_experiment(
      "datasets: [{name: a}]\nsplits: {own: true, repeats: 2}\nmethods: [{method: identity}]\n",
      "own.yaml");
  const auto ot = expand_tasks(own);
  REQUIRE(ot.size() == 2);
  CHECK(ot[1].key == "a|own|r1|identity||d0");
  CHECK(ot[1].split_seed == hash_seed(0, "a|own|r1"));
}

TEST_CASE("training-shape estimates per split value", "[tasks]") {
  SplitsSpec s;
  s.kind = SplitsSpec::Kind::PerClass;
  CHECK(train_shape(s, 10, DataShape{9298, 256, 10}).n == 100);
  CHECK(train_shape(s, 10, DataShape{50, 4, 10}).n == 50);
  s.kind = SplitsSpec::Kind::Ratio;
  CHECK(train_shape(s, 0.3, DataShape{150, 4, 3}).n == 45);
  CHECK(train_shape(s, 0.3, DataShape{150, 4, 3}).d == 4);
  s.kind = SplitsSpec::Kind::Own;
  CHECK(train_shape(s, 0, DataShape{150, 4, 3}).n == 150);
  CHECK(scale_to_split(s, 0, DataShape{120, 4, 3}).n == 120);
  s.kind = SplitsSpec::Kind::Ratio;
  s.values = {0.2, 0.6};
  CHECK(scale_to_split(s, 0.2, DataShape{30, 4, 3}).n == 30);
  CHECK(scale_to_split(s, 0.6, DataShape{30, 4, 3}).n == 90);
  CHECK(scale_to_split(s, 0.6, DataShape{30, 4, 3}).d == 4);
}

TEST_CASE("validate_against_data refuses dims above a method's limit", "[tasks][config]") {
  const std::string cfg = R"(datasets:
  - {name: usps}
  - {name: iris, source: bundled}
splits: {train_ratio: [0.5]}
methods:
  - method: identity
    dims: [500]
  - method: test_cfg_supervised
    label: sup
    dims: [2, 9]
)";
  const Experiment ex = parse_experiment(cfg, "cfg/lim.yaml");
  CHECK_NOTHROW(validate_against_data(ex, {DataShape{9298, 256, 10}, DataShape{150, 4, 10}}));
  const std::string m = message_of<ConfigError>([&] {
    validate_against_data(ex, {DataShape{9298, 256, 10}, DataShape{150, 4, 3}});
  });
  CHECK_THAT(m, Catch::Contains("cfg/lim.yaml:10: 'methods[1].dims': test_cfg_supervised allows "
                                "at most C-1 = 2 dimensions on iris"));
  CHECK_THAT(m, Catch::Contains("but dims asks for 9"));
  CHECK_THAT(m, Catch::Contains("fix: use dims <= 2 for 'sup'"));
  // The default limit is min(n-1, d) of the training part.
  const Experiment tr = parse_experiment(R"(datasets: [{name: tiny}]
splits: {train_per_class: [2]}
methods:
  - method: test_cfg_transductive
    dims: [3, 6]
evaluation: {protocol: transductive}
)",
                                         "cfg/tr.yaml");
  CHECK_NOTHROW(validate_against_data(tr, {DataShape{8, 50, 4}}));
  CHECK_THROWS_WITH(validate_against_data(tr, {DataShape{6, 50, 3}}),
                    Catch::Contains("cfg/tr.yaml:5: 'methods[0].dims': test_cfg_transductive "
                                    "allows at most n-1 = 5 dimensions on tiny"));
  CHECK_THROWS_WITH(validate_against_data(tr, {DataShape{100, 4, 10}}),
                    Catch::Contains("allows at most d = 4 dimensions on tiny (n=100 training "
                                    "points, d=4, C=10), but dims asks for 6"));
  CHECK_THROWS_AS(validate_against_data(tr, {}), Error);
}

TEST_CASE("dispatch order: long tasks first, the rest partition by partition", "[tasks][sched]") {
  const Experiment ex = parse_experiment(kSweep, "sweep.yaml");
  const auto tasks = expand_tasks(ex);
  std::vector<std::uint64_t> ids;
  std::vector<double> cost(tasks.size());
  for (const auto& t : tasks) {
    ids.push_back(t.id);
    // identity cheap, the supervised method dearer with gamma; one task far longer than the rest.
    cost[t.id] = (t.method == 0 ? 1.0 : 2.0 + t.setting.real("gamma")) * (1 + t.repeat);
  }
  cost[ids.back()] = 1000.0;
  const DispatchOrder d = dispatch_order(ex, tasks, ids, cost, 2);
  REQUIRE(d.ids.size() == ids.size());
  REQUIRE(d.group.size() == ids.size());
  CHECK(std::set<std::uint64_t>(d.ids.begin(), d.ids.end()).size() == ids.size());
  // 1000 > total / 2 / 32: first, alone in its group.
  CHECK(d.ids.front() == ids.back());
  CHECK(d.group[0] != d.group[1]);
  // Each partition's tasks sit together and share a group; each group is one partition; groups go
  // by their costliest task; inside one, longest first.
  std::map<std::uint32_t, std::string> key_of;
  std::set<std::string> seen;
  std::vector<double> group_top;  // costliest task of each group, in dispatch order
  for (std::size_t i = 1; i < d.ids.size(); ++i) {
    const std::string key = prepared_key(ex, tasks[d.ids[i]]);
    auto [it, fresh] = key_of.emplace(d.group[i], key);
    CHECK(it->second == key);
    if (d.group[i] != d.group[i - 1]) {
      CHECK(seen.insert(key).second);  // a partition never comes back later
      group_top.push_back(cost[d.ids[i]]);
    } else {
      CHECK(cost[d.ids[i]] <= cost[d.ids[i - 1]]);
    }
  }
  CHECK(std::is_sorted(group_top.rbegin(), group_top.rend()));
  CHECK(seen.size() == 2 * 2 * 3);  // datasets x split values x repeats
  // Same method chain, same partition: one key; split seed names dataset, split value, repeat.
  CHECK(prepared_key(ex, tasks[0]) == prepared_key(ex, tasks[1]));
  CHECK(prepared_key(ex, tasks[0]) != prepared_key(ex, tasks.back()));
}

TEST_CASE("a dataset's dims replace the methods' dims on its tasks", "[tasks][config]") {
  // The 2009 review embeds each data set at its own intrinsic dimension.
  const std::string cfg = R"(evaluation: {selection: min_mean_error}
datasets:
  - {name: usps, dims: [3, 5]}
  - {name: iris, source: bundled}
splits: {train_ratio: [0.5]}
methods:
  - method: identity
  - method: test_cfg_supervised
    label: sup
    dims: [2]
)";
  const Experiment ex = parse_experiment(cfg, "cfg/dd.yaml");
  CHECK(task_dims(ex, 0, 1) == std::vector<std::uint64_t>{3, 5});
  CHECK(task_dims(ex, 1, 1) == std::vector<std::uint64_t>{2});
  CHECK(task_dims(ex, 0, 0) == std::vector<std::uint64_t>{0});  // identity keeps its input space
  std::multiset<std::pair<std::size_t, std::uint64_t>> got;
  for (const Task& t : expand_tasks(ex))
    if (t.method == 1) got.insert({t.dataset, t.dim});
  CHECK(got == std::multiset<std::pair<std::size_t, std::uint64_t>>{{0, 3}, {0, 5}, {1, 2}});

  // A method may leave its dims out when every dataset has them; otherwise it must give them.
  const std::string all = R"(datasets:
  - {name: usps, dims: 4}
  - {name: iris, source: bundled, dims: [2]}
splits: {train_ratio: [0.5]}
methods:
  - {method: test_cfg_supervised, label: sup}
)";
  const Experiment every = parse_experiment(all, "cfg/all.yaml");
  CHECK(expand_tasks(every).size() == 2);
  CHECK(task_dims(every, 0, 0) == std::vector<std::uint64_t>{4});
  std::string some = all;
  some.replace(some.find(", dims: [2]"), 11, "");
  CHECK_THROWS_WITH(parse_experiment(some, "cfg/some.yaml"),
                    Catch::Contains("'methods[0].dims': required key is missing"));
  CHECK_THROWS_WITH(parse_experiment(R"(datasets: [{name: usps, dims: [2, 2]}]
splits: {train_ratio: [0.5]}
methods: [{method: pca, dims: [2]}]
)",
                                     "cfg/twice.yaml"),
                    Catch::Contains("'datasets[0].dims[1]': dimension 2 appears twice"));

  // A dataset dim above a method's limit is reported at the dataset's dims.
  const std::string m = message_of<ConfigError>([&] {
    validate_against_data(every, {DataShape{9298, 256, 10}, DataShape{150, 4, 2}});
  });
  CHECK_THAT(m, Catch::Contains("cfg/all.yaml:3: 'datasets[1].dims': test_cfg_supervised allows "
                                "at most C-1 = 1 dimensions on iris"));
  CHECK_THAT(m, Catch::Contains("fix: use dims <= 1 for iris, or drop 'sup'"));
}
