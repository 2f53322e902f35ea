// method: external (methods/external/): the process runner (exit status, stderr tail, time limit
// and stop killing the whole process group, exec failures), the exchange files (what drbench
// writes, what it accepts back and what it refuses), and the config entry (schema, grid checks,
// command resolution). The end-to-end runs with Python and Octave are tests/cli/external.sh.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "framework/budget/budget.hpp"
#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/support/h5.hpp"
#include "framework/support/time_limit.hpp"
#include "methods/external/exchange.hpp"
#include "methods/external/process.hpp"

using namespace drbench;
using namespace drbench::external;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    std::string t = "/tmp/drbench-test-external-XXXXXX";
    REQUIRE(::mkdtemp(t.data()));
    path = t;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

RunRequest sh(const std::string& script, const std::string& dir) {
  RunRequest r;
  r.argv = {resolve_executable("sh", "."), "-c", script};
  r.workdir = dir;
  return r;
}

// Running or sleeping; a killed process waiting to be reaped (by whoever adopted it) is not.
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z' &&
         line[close + 2] != 'X';
}

}  // namespace

TEST_CASE("run_command reports exit status, signal and the stderr tail", "[external]") {
  TempDir d;
  RunOutcome ok = run_command(sh("echo out; echo 'it went wrong' >&2; exit 3", d.path));
  CHECK(ok.started);
  CHECK(ok.exit_status == 3);
  CHECK(ok.describe() == "exit status 3");
  CHECK(ok.stderr_tail == "it went wrong\n");
  std::string tail =
      run_command(sh("head -c 5000 /dev/zero | tr '\\0' a >&2; printf END >&2", d.path), 100)
          .stderr_tail;
  CHECK(tail.size() == 100);
  CHECK(tail.substr(97) == "END");
  RunOutcome seg = run_command(sh("kill -SEGV $$", d.path));
  CHECK(seg.signal == SIGSEGV);
  CHECK_THAT(seg.describe(), Catch::Contains("killed by signal 11"));
  // srun passes drbench's stop signal (SIGUSR1) to every process of the job step: the command
  // lets it pass and finishes.
  CHECK(run_command(sh("kill -USR1 $$; exit 0", d.path)).exit_status == 0);
  // The working directory is the one asked for, and the environment additions arrive.
  RunRequest env = sh("pwd > where.txt; printf %s \"$DRBENCH_X\" > env.txt", d.path);
  env.env = {"DRBENCH_X=a b;$(c)"};
  CHECK(run_command(env).exit_status == 0);
  std::ifstream w(d.path + "/where.txt"), e(d.path + "/env.txt");
  std::string where, value;
  std::getline(w, where);
  std::getline(e, value);
  CHECK(std::filesystem::equivalent(where, d.path));
  CHECK(value == "a b;$(c)");
}

TEST_CASE("run_command passes arguments verbatim, never through a shell", "[external]") {
  TempDir d;
  RunRequest r;
  r.argv = {resolve_executable("printf", "."), "%s|%s", "$(touch PWNED)", "a; touch PWNED2"};
  r.workdir = d.path;
  CHECK(run_command(r).exit_status == 0);
  std::ifstream out(d.path + "/stdout.txt");
  std::string s;
  std::getline(out, s);
  CHECK(s == "$(touch PWNED)|a; touch PWNED2");
  CHECK(!std::filesystem::exists(d.path + "/PWNED"));
  CHECK(!std::filesystem::exists(d.path + "/PWNED2"));
}

TEST_CASE("a command starts without the MPI launcher's variables of its rank", "[external]") {
  // What mpirun gives a rank: an MPI program run as a method would take them as its own.
  ::setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  ::setenv("PMIX_RANK", "1", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  ::setenv("DRBENCH_TEST_KEPT", "yes", 1);
  TempDir d;
  RunRequest r;
  r.argv = {resolve_executable("env", ".")};
  r.workdir = d.path;
  r.env = {"OMP_NUM_THREADS=3"};
  const RunOutcome o = run_command(r);
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  ::unsetenv("PMIX_RANK");
  ::unsetenv("DRBENCH_TEST_KEPT");
  REQUIRE(o.exit_status == 0);
  std::ifstream out(d.path + "/stdout.txt");
  const std::string env((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  CHECK(env.find("OMPI_COMM_WORLD_RANK") == std::string::npos);
  CHECK(env.find("PMIX_RANK") == std::string::npos);
  CHECK(env.find("OMPI_ALLOW_RUN_AS_ROOT=1") != std::string::npos);
  CHECK(env.find("DRBENCH_TEST_KEPT=yes") != std::string::npos);
  CHECK(env.find("OMP_NUM_THREADS=3") != std::string::npos);
  CHECK(mpi_runtime_variable("PMI_SIZE"));
  CHECK(!mpi_runtime_variable("OMP_NUM_THREADS"));
}

TEST_CASE("run_command kills the whole process group at the deadline and on stop", "[external]") {
  TempDir d;
  // The command leaves a grandchild that ignores SIGTERM: only the group kill reaches it.
  RunRequest r = sh("(trap '' TERM; sleep 100) & echo $! > child.pid; sleep 100", d.path);
  r.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  const auto t0 = std::chrono::steady_clock::now();
  RunOutcome o = run_command(r);
  CHECK(o.timed_out);
  CHECK(!o.interrupted);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
  CHECK_THAT(o.describe(), Catch::Contains("timed out after"));
  pid_t child = 0;
  std::ifstream(d.path + "/child.pid") >> child;
  REQUIRE(child > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(!alive(child));

  RunRequest s = sh("sleep 100 & echo $! > child2.pid; wait", d.path);
  const auto t1 = std::chrono::steady_clock::now();
  s.stop = [t1] { return std::chrono::steady_clock::now() - t1 > std::chrono::milliseconds(300); };
  RunOutcome so = run_command(s);
  CHECK(so.interrupted);
  CHECK(!so.timed_out);
  pid_t child2 = 0;
  std::ifstream(d.path + "/child2.pid") >> child2;
  REQUIRE(child2 > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(!alive(child2));

  // A background process left behind by a command that exits normally is killed too.
  RunOutcome bg = run_command(sh("sleep 100 & echo $! > child3.pid", d.path));
  CHECK(bg.exit_status == 0);
  pid_t child3 = 0;
  std::ifstream(d.path + "/child3.pid") >> child3;
  REQUIRE(child3 > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(!alive(child3));
}

TEST_CASE("a command that cannot be executed exits 127 with the reason", "[external]") {
  TempDir d;
  const std::string f = d.path + "/not_exec";
  std::ofstream(f) << "#!/bin/sh\nexit 0\n";
  RunRequest r;
  r.argv = {f};
  r.workdir = d.path;
  RunOutcome o = run_command(r);
  CHECK(o.exit_status == 127);
  CHECK_THAT(o.stderr_tail, Catch::Contains("exec failed"));
  CHECK(resolve_executable(f, ".").empty());  // not executable: validation refuses it first
  CHECK(resolve_executable("no-such-command-xyz", ".").empty());
  CHECK(!resolve_executable("sh", ".").empty());
  std::filesystem::permissions(f, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  CHECK(resolve_executable("not_exec", d.path).empty());  // no '/': PATH only
  CHECK(resolve_executable("./not_exec", d.path) == f);
}

TEST_CASE("the input file holds what the task may see, in h5py's row layout", "[external]") {
  TempDir d;
  arma::mat X = {{1, 2, 3}, {4, 5, 6}};  // d = 2, n = 3
  arma::mat Xt(2, 1);
  Xt(0, 0) = 7;
  Xt(1, 0) = 8;
  arma::uvec y = {0, 1, 1};
  Input in;
  in.Xtrain = &X;
  in.ytrain = &y;
  in.Xtest = &Xt;
  in.seed = 12345;
  in.dim = 1;
  in.n_classes = 2;
  in.label = "a $(b)";
  in.dataset = "toy";
  in.params.set("k", std::int64_t(4));
  in.params.set("w", 0.5);
  in.params.set("c", std::string("x;y"));
  in.params.set("b", true);
  const std::string file = d.path + "/in.h5";
  write_input(file, in);
  {
    h5::File f = h5::open_file(file, false);
    const h5::Matrix m = h5::read_matrix(f, f.h, "X_train");
    CHECK(m.rows == 3);
    CHECK(m.cols == 2);
    CHECK(m.data == std::vector<double>{1, 4, 2, 5, 3, 6});  // row i = point i
    CHECK(h5::read_matrix(f, f.h, "X_test").data == std::vector<double>{7, 8});
    CHECK(h5::read_i64(f, f.h, "y_train") == std::vector<std::int64_t>{0, 1, 1});
    CHECK(h5::read_attr_string(f, f.h, "format") == kFormat);
    CHECK(h5::read_attr_int(f, f.h, "seed") == 12345);
    CHECK(h5::read_attr_string(f, f.h, "label") == "a $(b)");
    CHECK(h5::read_attr_strings(f, f.h, "param_names") ==
          std::vector<std::string>{"b", "c", "k", "w"});
    CHECK(h5::read_attr_strings(f, f.h, "param_types") ==
          std::vector<std::string>{"bool", "choice", "int", "real"});
    h5::Handle g = h5::open_group(f, f.h, "params");
    CHECK(h5::read_attr_string(f, g, "c") == "x;y");
    CHECK(h5::read_attr_int(f, g, "k") == 4);
  }
  // An unsupervised task without test points: no labels, no X_test.
  in.ytrain = nullptr;
  in.Xtest = nullptr;
  write_input(file, in);
  h5::File f2 = h5::open_file(file, false);
  CHECK(!h5::exists(f2.h, "y_train"));
  CHECK(!h5::exists(f2.h, "X_test"));
}

TEST_CASE("the output file is checked: presence, shape, finiteness, trace", "[external]") {
  TempDir d;
  const std::string file = d.path + "/out.h5";
  auto write = [&](arma::uword n, arma::uword dim, bool test, double poison, std::size_t trace_rows,
                   std::size_t grad_rows) {
    h5::File f = h5::create_file(file);
    std::vector<double> z(n * dim);
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = double(i);
    if (!z.empty()) z[0] = poison;
    h5::write_matrix(f, f.h, "Z_train", n, dim, z.data());
    if (test) h5::write_matrix(f, f.h, "Z_test", 1, dim, z.data() + dim);
    if (trace_rows) {
      h5::Handle g = h5::create_group(f, f.h, "trace");
      h5::write_f64(f, g, "objective", std::vector<double>(trace_rows, 2.0));
      h5::write_f64(f, g, "grad_norm", std::vector<double>(grad_rows, 0.1));
      h5::attr_string(f, f.h, "optimizer", "lbfgs");
    }
  };
  CHECK_THROWS_WITH(read_output(file, 3, 1, 2, true), Catch::Contains("wrote no output file"));
  std::ofstream(file) << "not hdf5";
  CHECK_THROWS_WITH(read_output(file, 3, 1, 2, true), Catch::Contains("not an HDF5 file"));

  write(3, 2, true, 0.0, 4, 4);
  Output o = read_output(file, 3, 1, 2, true);
  CHECK(o.Ztrain.n_rows == 2);
  CHECK(o.Ztrain.n_cols == 3);
  CHECK(o.Ztrain(1, 0) == 1.0);  // row-major point 0 = column 0
  CHECK(o.Ztrain(0, 1) == 2.0);
  CHECK(o.Ztest.n_cols == 1);
  REQUIRE(o.trace.rows.size() == 4);
  CHECK(o.trace.rows[3].iteration == 4);
  CHECK(o.trace.rows[0].grad_norm == 0.1);
  CHECK(std::isnan(o.trace.rows[0].step));
  CHECK(o.trace.optimizer == "lbfgs");

  CHECK_THROWS_WITH(read_output(file, 4, 1, 2, true), Catch::Contains("is 3 x 2, expected 4 x 2"));
  CHECK_THROWS_WITH(read_output(file, 3, 1, 3, true), Catch::Contains("expected 3 x 3"));
  write(3, 2, false, 0.0, 0, 0);
  CHECK_THROWS_WITH(read_output(file, 3, 1, 2, true), Catch::Contains("no dataset 'Z_test'"));
  CHECK_NOTHROW(read_output(file, 3, 0, 2, false));
  write(3, 2, true, arma::datum::nan, 0, 0);
  CHECK_THROWS_WITH(read_output(file, 3, 1, 2, true), Catch::Contains("'Z_train' contains NaN"));
  write(3, 2, true, 0.0, 4, 3);
  CHECK_THROWS_WITH(read_output(file, 3, 1, 2, true), Catch::Contains("trace/grad_norm has 3"));
}

TEST_CASE("an external entry is checked like a built-in method", "[external][config]") {
  const std::string sh_path = resolve_executable("sh", ".");
  auto cfg = [&](const std::string& entry) {
    return "datasets: [{name: iris, source: bundled}]\nsplits: {train_ratio: [0.5]}\nmethods:\n"
           "  - {method: external, label: ext, dims: [2], command: [" +
           sh_path + ", -c, 'exit 0']" + entry + "}\n";
  };
  const Experiment ex = parse_experiment(
      cfg(", params: {k: {type: int, default: 5, min: 1, max: 9}, "
          "v: {type: choice, default: a, choices: [a, b]}}, grid: {k: [2, 3], v: b}, "
          "supervised: true, cost: {n: 1, d: 0}"),
      "cfg/ext.yaml");
  REQUIRE(ex.methods.size() == 1);
  CHECK(ex.methods[0].method == "external:ext");
  const MethodInfo& info = Registry::instance().get("external:ext");
  CHECK(info.supervised);
  CHECK(info.configured_from == "external");
  CHECK(cost_of(info, {100, 7, 3}, {}, 2) == Approx(100.0));
  const auto settings = expand_grid(ex.methods[0]);
  REQUIRE(settings.size() == 2);
  CHECK(settings[0].canonical() == "k=2,v=b");
  // The configured method is found by name but not listed with the built-in ones.
  const auto names = Registry::instance().names();
  CHECK(std::find(names.begin(), names.end(), "external:ext") == names.end());

  auto refused = [&](const std::string& entry, const std::string& text) {
    INFO(entry);
    CHECK_THROWS_WITH(parse_experiment(cfg(entry), "cfg/ext.yaml"), Catch::Contains(text));
  };
  refused(", params: {k: {type: int, default: 5, max: 9}}, grid: {k: 10}", "methods[0].grid.k");
  refused(", params: {k: {type: int, default: 5}}, grid: {j: 1}", "methods[0].grid");
  refused(", params: {k: {type: integer, default: 5}}", "methods[0].params.k.type");
  refused(", params: {k: {type: int, default: 0, min: 1}}", "the default is not valid");
  refused(", params: {K: {type: real, default: 1.0}}", "not a plain identifier");
  refused(", params: {v: {type: choice, default: c, choices: [a, b]}}", "default is not valid");
  refused(", params: {v: {type: choice, default: a}}", "choices");
  refused(", timeout: 0", "timeout must be positive");
  refused(", cost: {n: 9}", "exponent out of range");
  refused(", shell: true", "methods[0]");
  refused(", out_of_sample: false", "no out-of-sample map");  // holdout protocol
  // Whole methods lists on iris, refused while the config is parsed.
  auto refused_methods = [](const std::string& methods, const std::string& text) {
    INFO(methods);
    CHECK_THROWS_WITH(parse_experiment("datasets: [{name: iris, source: bundled}]\n"
                                       "splits: {train_ratio: [0.5]}\nmethods: [" +
                                           methods + "]\n",
                                       "cfg/ext.yaml"),
                      Catch::Contains(text));
  };
  refused_methods("{method: external, dims: [2], command: [sh]}", "needs a label");
  refused_methods("{method: external, label: x, dims: [2], command: sh}", "must be a list (argv)");
  refused_methods("{method: external, label: x, dims: [2], command: [no-such-command-xyz]}",
                  "'no-such-command-xyz' is not an executable on PATH");
  refused_methods("{method: external, label: x, dims: [2], command: [sh, ./missing_script.py]}",
                  "'./missing_script.py' does not exist");
  // A built-in method does not take the external keys.
  refused_methods("{method: pca, dims: [2], command: [sh]}", "methods[0]");
}

TEST_CASE("an external method's failures are MethodErrors naming the command", "[external]") {
  const std::string sh_path = resolve_executable("sh", ".");
  const Experiment ex = parse_experiment(
      "datasets: [{name: iris, source: bundled}]\nsplits: {train_ratio: [0.5]}\nmethods:\n"
      "  - {method: external, label: failing, dims: [2], command: [" +
          sh_path +
          ", -c, 'echo broken pipe dream >&2; exit 2']}\n"
          "  - {method: external, label: slow, dims: [2], timeout: 0.3, command: [" +
          sh_path + ", -c, 'sleep 30']}\n",
      "cfg/ext.yaml");
  arma::mat X(3, 10, arma::fill::randu);
  Rng rng(1);
  Trace trace;
  FitInput in{X, nullptr, 0, 2, rng, &trace};
  const MethodInfo& failing = Registry::instance().get(ex.methods[0].method);
  CHECK_THROWS_AS(failing.fit(failing.complete({}), in), MethodError);
  CHECK_THROWS_WITH(failing.fit(failing.complete({}), in),
                    Catch::Contains("exit status 2") && Catch::Contains("broken pipe dream") &&
                        Catch::Contains("'failing'"));
  bool noted = false;
  for (const auto& [k, v] : trace.notes)
    noted = noted || (k == "exit_status" && v == "exit status 2");
  CHECK(noted);
  const MethodInfo& slow = Registry::instance().get(ex.methods[1].method);
  CHECK_THROWS_AS(slow.fit(slow.complete({}), in), TimeLimitExceeded);
}
