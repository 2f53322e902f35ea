// Typed parameter keys (framework/core/params.hpp), one name per concept (keywords::ridge, lambda,
// tolerance) and the migration of settings written under the former names
// (docs/results-format.md, "Renamed parameters").
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/store.hpp"
#include "framework/support/build_info.hpp"
#include "test_results_fixture.hpp"

using namespace drbench;

TEST_CASE("a typed key declares its parameter and reads it back as its type", "[params]") {
  const IntKey n = ParamSpec::integer("n", 5, 1, 10, "count");
  const RealKey r = ParamSpec::real("r", 0.5, 0.0, 1.0, "fraction");
  const ChoiceKey c = ParamSpec::choice("c", "a", {"a", "b"}, "choice");
  const BoolKey b = ParamSpec::boolean("b", true, "flag");
  MethodInfo m;
  m.params = {n, r, c, b};
  REQUIRE(m.params.size() == 4);
  CHECK(m.params[0].name == "n");
  CHECK(m.params[2].type == ParamType::Choice);
  ParamSet given;
  given.set("n", std::int64_t(7));
  given.set("r", std::int64_t(1));  // an integer written for a real is promoted by complete()
  given.set("c", std::string("b"));
  const ParamSet p = m.complete(given);
  CHECK(n(p) == 7);
  CHECK(r(p) == 1.0);
  CHECK(c(p) == "b");
  CHECK(b(p));
  // A key of the wrong type is refused when it is made, i.e. when its method registers.
  CHECK_THROWS_WITH(IntKey(ParamSpec::real("x", 1.0, 0.0, 2.0, "x")),
                    Catch::Contains("declared real but keyed as int"));
  // with() edits a copy: same name and type, the original untouched.
  const IntKey wide = n.with([](ParamSpec& s) { s.max = 100.0; });
  CHECK(*wide.spec().max == 100.0);
  CHECK(*n.spec().max == 10.0);
}

TEST_CASE("one name per concept: ridges, prior weights and tolerances", "[params][keywords]") {
  for (const char* name : {"lda", "lpp", "slpp", "ip", "ip_sr", "mmpa", "gda", "klpp", "sklpp",
                           "lle", "llgplvm", "dgplvm", "dee", "ee"}) {
    INFO(name);
    const MethodInfo& m = Registry::instance().get(name);
    CHECK(m.param("ridge"));
    for (const char* old : {"reg", "lle_reg", "mu"}) CHECK_FALSE(m.param(old));
  }
  for (const char* name : {"gplrf", "dgplvm", "llgplvm", "rankgplvm", "tsnegplvm"}) {
    INFO(name);
    const MethodInfo& m = Registry::instance().get(name);
    CHECK(m.param("lambda"));
    CHECK_FALSE(m.param("alpha"));
  }
  CHECK(Registry::instance().get("sammon").param("tolerance"));
  CHECK_FALSE(Registry::instance().get("sammon").param("tol"));
  // No method declares a name another method retired for the same concept.
  for (const MethodInfo& m : Registry::instance().all()) {
    if (m.name.rfind("test_", 0) == 0) continue;
    for (const ParamSpec& s : m.params) {
      INFO(m.name << "." << s.name);
      for (const char* old : {"reg", "lle_reg", "tol"}) CHECK(s.name != old);
    }
  }
}

TEST_CASE("a former name is refused with the new one, naming the key", "[params][keywords]") {
  const std::string head =
      "name: t\nseed: 1\ndatasets: [{name: iris, source: bundled}]\n"
      "splits: {train_ratio: [0.5], repeats: 1}\nevaluation: {knn: [1]}\n"
      "output: {path: results/t.h5}\nmethods:\n";
  try {
    parse_experiment(head + "  - {method: llgplvm, dims: [2], grid: {lle_reg: [0.001]}}\n",
                     "t.yaml");
    FAIL("lle_reg was accepted");
  } catch (const Error& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("grid.lle_reg"));
    CHECK_THAT(what, Catch::Contains("use ridge"));
  }
  // The same former name means different concepts in different methods.
  const MethodInfo& ip_sr = Registry::instance().get("ip_sr");
  const MethodInfo& gplrf = Registry::instance().get("gplrf");
  CHECK_THAT(keywords::retired_name_fix(ip_sr, "alpha"), Catch::Contains("use ridge"));
  CHECK_THAT(keywords::retired_name_fix(gplrf, "alpha"), Catch::Contains("use lambda"));
  CHECK_THAT(keywords::retired_name_fix(Registry::instance().get("sammon"), "tol"),
             Catch::Contains("use tolerance"));
}

TEST_CASE("settings of version 1 read under the new names; seeds hash the old ones",
          "[params][results]") {
  const MethodInfo& ll = Registry::instance().get("llgplvm");
  ParamSet given;
  given.set("lambda", 1000.0);
  given.set("ridge", 0.01);
  const ParamSet p = ll.complete(given);
  const std::string now = p.canonical();
  CHECK(now.find("lambda=1000") != std::string::npos);
  CHECK(now.find("ridge=0.01") != std::string::npos);
  // Version-1 text: alpha first, lle_reg among the l's; migrating it re-sorts the items.
  const std::string old = ll.seed_setting(p);
  CHECK(old.rfind("alpha=1000,", 0) == 0);
  CHECK(old.find("lle_reg=0.01") != std::string::npos);
  CHECK(old.find("lambda") == std::string::npos);
  CHECK(ll.migrate_setting(old, 1) == now);
  CHECK(ll.migrate_setting(now, 1) == now);
  CHECK(ll.migrate_setting(old, kSettingsVersion) == old);  // a current file is not rewritten
  // A method with no renamed parameter: seed text and canonical text are one.
  const MethodInfo& pca = Registry::instance().get("isomap");
  const ParamSet q = pca.complete(ParamSet{});
  CHECK(pca.seed_setting(q) == q.canonical());
  // A version-1 config and its renamed twin normalise alike when the old one is read as such.
  const std::string cfg = "methods:\n  - {method: ip_sr, dims: [2], grid: {alpha: [0.01, 1]}}\n";
  const std::string renamed =
      "methods:\n  - {method: ip_sr, dims: [2], grid: {ridge: [0.01, 1]}}\n";
  CHECK(normalised_config(cfg, 1) == normalised_config(renamed));
  CHECK(normalised_config(cfg) != normalised_config(renamed));
}

TEST_CASE("a renamed parameter keeps every task seed", "[params][tasks]") {
  const Experiment ex = parse_experiment(
      "name: t\nseed: 3\ndatasets: [{name: iris, source: bundled}]\n"
      "splits: {train_ratio: [0.5], repeats: 1}\nevaluation: {knn: [1]}\n"
      "output: {path: results/t.h5}\n"
      "methods:\n  - {method: lda, dims: [2], grid: {ridge: [0.1]}}\n",
      "t.yaml");
  const std::vector<Task> tasks = expand_tasks(ex);
  REQUIRE(tasks.size() == 1);
  const Task& t = tasks[0];
  CHECK(setting_of_key(t.key) == "ridge=0.1");
  // The seed of the same task under the version-1 name, as results written before the rename
  // recorded it.
  CHECK(t.seed == hash_seed(ex.seed, key_with_setting(t.key, "reg=0.1")));
  CHECK(t.seed != hash_seed(ex.seed, t.key));
}

TEST_CASE("every declared parameter has its row in docs/parameters.md", "[contract][keywords]") {
  std::ifstream in(std::string(source_dir()) + "/docs/parameters.md");
  REQUIRE(in);
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A row names its parameters in backticks in its first cell.
  std::set<std::string> rows;
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::string cell = line.substr(1, line.find('|', 1) - 1);
    for (std::size_t at = cell.find('`'); at != std::string::npos;) {
      const std::size_t end = cell.find('`', at + 1);
      if (end == std::string::npos) break;
      rows.insert(cell.substr(at + 1, end - at - 1));
      at = cell.find('`', end + 1);
    }
  }
  for (const MethodInfo& m : Registry::instance().all()) {
    if (m.name.rfind("test_", 0) == 0) continue;  // the config tests' doubles
    for (const ParamSpec& s : m.params) {
      INFO(m.name << "." << s.name << ": add a row to docs/parameters.md");
      CHECK(rows.count(s.name) == 1);
    }
  }
}

TEST_CASE("a journal written under the old names resumes under the new ones", "[params][results]") {
  // A run killed before its first snapshot leaves only the journal, which records no settings
  // version: its config and keys are read as version 1.
  testing::TempDir dir;
  const std::string yaml =
      "name: j\nseed: 5\ndatasets: [{name: iris, source: bundled}]\n"
      "splits: {train_ratio: [0.5], repeats: 2}\n"
      "evaluation: {knn: [1], selection: min_mean_error}\n"
      "output: {path: " +
      dir.file("j.h5") +
      "}\nmethods:\n  - {method: lda, dims: [2], grid: {ridge: [1.0e-6, 0.1]}}\n";
  const Experiment now = parse_experiment(yaml, "j.yaml");
  const std::vector<Task> tasks = expand_tasks(now);
  REQUIRE(tasks.size() == 4);
  // The same run as a build before the rename wrote it: old config text, old keys.
  Experiment before = now;
  before.text = yaml.substr(0, yaml.find("ridge")) + "reg" + yaml.substr(yaml.find("ridge") + 5);
  std::vector<Task> old_tasks = tasks;
  for (Task& t : old_tasks) {
    const std::string s = setting_of_key(t.key);
    t.key = key_with_setting(t.key, "reg" + s.substr(std::string("ridge").size()));
  }
  REQUIRE(old_tasks[0].key.find("|reg=1e-06|") != std::string::npos);
  {
    ResultsStore store(before, old_tasks, RunInfo{}, false);
    store.set_snapshot_interval(1e9);
    for (int i = 0; i < 3; ++i) store.add(testing::toy_result(old_tasks[i], 0.5, 0.25));
    store.commit();
  }
  ResultsStore store(now, tasks, RunInfo{}, false);
  CHECK(store.n_done() == 3);
  CHECK(store.done(0));
  CHECK(store.done(2));
  CHECK_FALSE(store.done(3));
}
