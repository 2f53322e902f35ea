// method: external. The bridge that lets a method written in any language enter a sweep: the
// config entry names a command (an argv list, exec'd without a shell) and declares the method's
// parameters, protocol and cost; for every task drbench writes one input file, runs the command
// in a scratch directory of its own under the task's time limit, reads the embeddings it wrote and
// scores them like any built-in method's (docs/external-methods.md).
#include <unistd.h>

#include <sys/statvfs.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <thread>

#include "framework/budget/budget.hpp"
#include "framework/config/method_entry.hpp"
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "framework/support/build_info.hpp"
#include "framework/support/stop_signal.hpp"
#include "framework/support/time_limit.hpp"
#include "methods/external/exchange.hpp"
#include "methods/external/process.hpp"

namespace drbench {
namespace {

using config::join_key;
using config::Reader;

struct Definition {
  std::string label;
  std::vector<std::string> argv;  // argv[0] resolved to an executable path
  bool supervised = false;
  bool out_of_sample = true;
  double timeout = 0;    // seconds; 0: only the config's max_task_seconds
  unsigned threads = 0;  // the command's thread count; 0: the config's threads
};

std::string host() {
  char buf[256] = {0};
  ::gethostname(buf, sizeof buf - 1);
  return buf;
}

// The marker every process of a command run in scratch folder `dir` inherits (RunRequest::marker).
std::string marker_of(const std::string& dir) {
  return "DRBENCH_OUTPUT=" + dir + "/output.h5";
}

// Scratch folders under `tmp` that a drbench killed on this host left behind (its `owner` file
// names a process that is gone, or another process now under its pid): removed, with whatever
// their commands left running. Said once on stderr, as nothing else would say it.
void remove_stale_scratch(const std::string& tmp) {
  std::size_t folders = 0, processes = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(tmp, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("drbench-external-", 0) != 0 || !e.is_directory(ec)) continue;
    std::ifstream owner(e.path() / "owner");
    std::string h, started;
    long pid = 0;
    if (!(owner >> h >> pid >> started) || h != host() || pid <= 0 ||
        external::process_start_time(pid) == started)
      continue;  // another host's, a live drbench's, or one written before owners were
    processes += external::kill_strays(marker_of(e.path().string())).size();
    if (std::filesystem::remove_all(e.path(), ec) > 0) ++folders;
  }
  if (folders > 0)
    std::fprintf(stderr,
                 "[drbench] removed %zu scratch folder(s) drbench-external-* under %s left by a "
                 "drbench that was killed%s\n",
                 folders, tmp.c_str(),
                 processes > 0 ? (", and killed " + std::to_string(processes) +
                                  " process(es) their commands had left running")
                                     .c_str()
                               : "");
}

// A scratch directory that is removed with everything in it when the run is over. Its `owner`
// file (host, pid, process start time) lets a later run tell that a killed drbench left it.
class Scratch {
 public:
  Scratch() {
    const char* env = std::getenv("TMPDIR");
    const std::string tmp = env && *env ? env : "/tmp";
    static std::once_flag cleaned;
    std::call_once(cleaned, [&] { remove_stale_scratch(tmp); });
    std::string templ = tmp + "/drbench-external-XXXXXX";
    if (!::mkdtemp(templ.data()))
      throw Error("cannot create a scratch directory under " + templ +
                  " (fix: set TMPDIR to a writable directory)");
    path_ = templ;
    std::ofstream(path_ + "/owner")
        << host() << " " << ::getpid() << " " << external::process_start_time(::getpid()) << "\n";
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The command's stderr tail as indented lines under the error, so that a Python traceback stays
// readable rather than one line of 2,000 characters.
std::string indented(const std::string& s) {
  std::string out;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    std::string line = s.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    out += "\n    " + line;
    start = end + 1;
  }
  while (out.size() >= 5 && out.compare(out.size() - 5, 5, "\n    ") == 0)
    out.resize(out.size() - 5);
  return out;
}

std::string command_text(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + ("'" + a + "'");
  return s;
}

// scancel, and a time limit without --signal, send SIGTERM to every process of the job, the
// command included, and drbench's own handler makes that a stop. A command ended by a stop signal
// while the run stops is therefore no verdict on the method. Both get the signal at about the
// same moment, in either order: give drbench's handler a moment to see it.
bool ended_with_the_run(int signal) {
  if (signal != SIGTERM && signal != SIGINT && signal != SIGUSR1 && signal != SIGUSR2) return false;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!stop_requested() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return stop_requested();
}

// The command's input, or on a full TMPDIR an error that says so (recorded as a failure of the
// environment, which a resumed run retries) rather than HDF5's.
void write_input(const std::string& dir, const std::string& file, const external::Input& in) {
  try {
    external::write_input(file, in);
  } catch (const std::exception&) {
    struct statvfs fs {};
    const double need = 8.0 * double(in.Xtrain->n_elem + (in.Xtest ? in.Xtest->n_elem : 0));
    // Under the points' bytes and 1 MiB for HDF5's own structures left: the write failed for want
    // of space, whatever HDF5's message says.
    if (::statvfs(dir.c_str(), &fs) == 0 &&
        double(fs.f_bavail) * double(fs.f_frsize) < need + double(1 << 20))
      throw Error("No space left on device: the external command's input (" +
                  std::to_string(std::llround(need / 1024)) + " KiB) does not fit under TMPDIR (" +
                  std::filesystem::path(dir).parent_path().string() +
                  ") (fix: free space there or set TMPDIR to a larger directory; rerunning the "
                  "same command retries the task)");
    throw;
  }
}

class External final : public Method {
 public:
  External(std::shared_ptr<const Definition> def, ParamSet p)
      : def_(std::move(def)), p_(std::move(p)) {}

  void fit(const FitInput& in) override {
    X_ = in.X;
    if (in.labels) y_ = *in.labels;
    supervised_ = in.labels != nullptr;
    // A seed every library takes as random_state (NumPy's legacy generator wants < 2^32).
    seed_ = static_cast<std::int64_t>(in.rng.engine()() & 0x7fffffffULL);
    dim_ = in.dim;
    n_classes_ = in.n_classes;
    threads_ = in.threads;
    dataset_ = in.dataset;
    trace_ = in.trace;
    const bool with_test = def_->out_of_sample && in.Xnew && in.Xnew->n_cols > 0;
    external::Output o = run(with_test ? in.Xnew : nullptr, trace_);
    Z_ = std::move(o.Ztrain);
    if (with_test) {
      Xtest_ = *in.Xnew;
      Ztest_ = std::move(o.Ztest);
    }
  }

  arma::mat embedding() const override { return Z_; }

  arma::mat transform(const arma::mat& Xnew) const override {
    if (!def_->out_of_sample) return Method::transform(Xnew);
    if (Xnew.n_cols == Xtest_.n_cols && Xnew.n_rows == Xtest_.n_rows &&
        arma::approx_equal(Xnew, Xtest_, "absdiff", 0.0))
      return Ztest_;  // mapped in the fit's own run
    // Points the fit was not told about: the same fit again (same seed), these as X_test.
    return run(&Xnew, nullptr).Ztest;
  }

 private:
  external::Output run(const arma::mat* Xtest, Trace* trace) const {
    Scratch dir;
    const std::string in_file = dir.path() + "/input.h5", out_file = dir.path() + "/output.h5";
    external::Input in;
    in.Xtrain = &X_;
    in.ytrain = supervised_ ? &y_ : nullptr;
    in.Xtest = Xtest;
    in.seed = seed_;
    in.dim = dim_;
    in.n_classes = n_classes_;
    in.threads = def_->threads > 0 ? def_->threads : threads_;
    in.label = def_->label;
    in.dataset = dataset_;
    in.params = p_;
    write_input(dir.path(), in_file, in);

    external::RunRequest req;
    req.argv = def_->argv;
    req.argv.push_back(in_file);
    req.argv.push_back(out_file);
    req.workdir = dir.path();
    const unsigned nthreads = def_->threads > 0 ? def_->threads : std::max(1u, threads_);
    const std::string t = std::to_string(nthreads);
    const std::string sdk = std::string(source_dir()) + "/python";
    const char* old_path = std::getenv("PYTHONPATH");
    req.env = {"OMP_NUM_THREADS=" + t,
               "OPENBLAS_NUM_THREADS=" + t,
               "MKL_NUM_THREADS=" + t,
               "DRBENCH_INPUT=" + in_file,
               "DRBENCH_OUTPUT=" + out_file,
               "PYTHONPATH=" + sdk + (old_path && *old_path ? ":" + std::string(old_path) : "")};
    req.deadline = task_deadline();
    if (def_->timeout > 0)
      req.deadline =
          std::min(req.deadline, deadline_after(std::chrono::steady_clock::now(), def_->timeout));
    req.stop = [] { return abandon_requested(); };
    req.marker = marker_of(dir.path());
    const external::RunOutcome r = external::run_command(req);

    if (trace) {
      trace->optimizer = "external";
      trace->note("command", command_text(def_->argv));
      trace->note("exit_status", r.describe());
      // What the command ran with: its thread count changes what some libraries return.
      trace->note("environment", "OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=MKL_NUM_THREADS=" + t +
                                     "; the launcher's MPI variables removed");
      if (!r.stderr_tail.empty()) trace->note("stderr_tail", r.stderr_tail);
    }
    if (trace && !r.killed_strays.empty()) {
      std::string list;
      for (const auto& s : r.killed_strays) list += (list.empty() ? "" : ", ") + s;
      trace->note("killed_left_running", list);
    }
    const std::string who =
        "external command of '" + def_->label + "' (" + command_text(def_->argv) + ")";
    const std::string tail =
        r.stderr_tail.empty() ? "" : "; stderr ends:" + indented(r.stderr_tail);
    if (r.interrupted) throw TaskInterrupted(who + " " + r.describe());
    if (r.timed_out)
      throw TimeLimitExceeded(who + " " + r.describe() +
                              (def_->timeout > 0
                                   ? " (its timeout: " + to_string(ParamValue(def_->timeout)) +
                                         " s, or max_task_seconds)"
                                   : "") +
                              tail);
    if (ended_with_the_run(r.signal))
      throw TaskInterrupted(who + " " + r.describe() +
                            " as the run was stopped (the batch system signalled every process "
                            "of the job): not a result, run again on resume");
    if (!r.started || r.signal != 0 || r.exit_status != 0)
      throw MethodError(who + " failed: " + r.describe() + tail);
    try {
      external::Output o = external::read_output(out_file, X_.n_cols, Xtest ? Xtest->n_cols : 0,
                                                 dim_, Xtest != nullptr);
      if (trace) {
        const std::string opt = trace->optimizer;
        for (const auto& row : o.trace.rows) trace->rows.push_back(row);
        trace->optimizer = o.trace.optimizer.empty() ? opt : o.trace.optimizer;
      }
      return o;
    } catch (const MethodError& e) {
      throw MethodError(who + ": " + e.what() + tail);
    }
  }

  std::shared_ptr<const Definition> def_;
  ParamSet p_;
  arma::mat X_, Xtest_, Z_, Ztest_;
  arma::uvec y_;
  bool supervised_ = false;
  std::int64_t seed_ = 0;
  arma::uword dim_ = 0;
  std::size_t n_classes_ = 0;
  unsigned threads_ = 1;
  std::string dataset_;
  Trace* trace_ = nullptr;
};

// params: {name: {type: int|real|bool|choice, default: V, min: A, max: B, choices: [...],
// doc: "..."}}: the schema a grid is checked against, exactly as a built-in method's ParamSpecs.
ParamSpec param_spec(const Reader& r, const YAML::Node& n, const std::string& key,
                     const std::string& name) {
  static const std::regex ident("[a-z][a-z0-9_]*");
  if (!std::regex_match(name, ident))
    r.fail(n, key, "parameter name '" + name + "' is not a plain identifier",
           "lower-case letters, digits and '_', starting with a letter (it becomes a Python "
           "keyword argument and an Octave struct field)");
  r.expect_map(n, key);
  r.check_keys(n, key, {"type", "default", "min", "max", "choices", "doc"});
  const std::string type = r.one_of(r.required(n, key, "type"), join_key(key, "type"),
                                    {"int", "real", "bool", "choice"});
  const std::string doc = n["doc"] ? r.str(n["doc"], join_key(key, "doc")) : "";
  const YAML::Node def = r.required(n, key, "default");
  const std::string dkey = join_key(key, "default");
  auto bound = [&](const char* b) -> std::optional<double> {
    if (!n[b]) return std::nullopt;
    if (type != "int" && type != "real")
      r.fail(n[b], join_key(key, b), std::string(b) + " applies to int and real parameters only",
             "remove it");
    return r.real(n[b], join_key(key, b));
  };
  const auto lo = bound("min"), hi = bound("max");
  if (lo && hi && *lo > *hi) r.fail(n["max"], join_key(key, "max"), "max is below min");
  if (n["choices"] && type != "choice")
    r.fail(n["choices"], join_key(key, "choices"), "choices apply to choice parameters only",
           "type: choice, or remove choices");
  ParamSpec s;
  if (type == "int") {
    s = ParamSpec::integer(name, r.integer(def, dkey), lo, hi, doc);
  } else if (type == "real") {
    s = ParamSpec::real(name, r.real(def, dkey), lo, hi, doc);
  } else if (type == "bool") {
    s = ParamSpec::boolean(name, r.boolean(def, dkey), doc);
  } else {
    const YAML::Node cn = r.required(n, key, "choices");
    const std::string ckey = join_key(key, "choices");
    r.expect_list(cn, ckey);
    std::vector<std::string> choices;
    for (std::size_t i = 0; i < cn.size(); ++i) {
      choices.push_back(r.str(cn[i], config::index_key(ckey, i)));
      // A setting is written name=value,name=value inside a task key joined by '|': a value
      // with one of these would let two settings share a key (and their results be pooled).
      if (choices.back().find_first_of(",=|") != std::string::npos)
        r.fail(cn[i], config::index_key(ckey, i),
               "'" + choices.back() +
                   "' contains ',', '=' or '|', which separate settings in task keys",
               "name the choice without them (e.g. 'a_b' for 'a,b') and map it inside the command");
    }
    s = ParamSpec::choice(name, r.str(def, dkey), choices, doc);
  }
  if (auto problem = s.check(s.default_value); !problem.empty())
    r.fail(def, dkey, "the default is not valid: " + problem);
  return s;
}

MethodInfo configure(const MethodEntry& e) {
  const Reader& r = e.reader;
  const YAML::Node& n = e.node;
  if (!n["label"])
    r.fail(n, join_key(e.key, "label"), "an external method needs a label",
           "label: my_method (its row in the tables, and its name in results)");
  auto def = std::make_shared<Definition>();
  def->label = e.label;

  const std::string ckey = join_key(e.key, "command");
  const YAML::Node cn = r.required(n, e.key, "command");
  if (!cn.IsSequence())
    r.fail(cn, ckey, "the command must be a list (argv), not " + config::describe(cn),
           "command: [python3, my_method.py] (no shell: each item is one argument)");
  r.expect_list(cn, ckey);
  for (std::size_t i = 0; i < cn.size(); ++i) {
    std::string a = r.str(cn[i], config::index_key(ckey, i));
    if (i == 0) {
      const std::string exe = external::resolve_executable(a, e.config_dir);
      if (exe.empty())
        r.fail(cn[i], config::index_key(ckey, i),
               a.find('/') != std::string::npos
                   ? "'" + a + "' is not an executable file (relative to " + e.config_dir + ")"
                   : "'" + a + "' is not an executable on PATH",
               "install it, give its full path, or chmod +x it");
      a = exe;
    } else if (a.rfind("./", 0) == 0 || a.rfind("../", 0) == 0) {
      // A script beside the config: the command runs in a scratch directory, so make it absolute.
      const auto p = (std::filesystem::path(e.config_dir) / a).lexically_normal();
      if (!std::filesystem::exists(p))
        r.fail(
            cn[i], config::index_key(ckey, i),
            "'" + a + "' does not exist (relative to the config's directory " + e.config_dir + ")",
            "fix the path");
      a = std::filesystem::absolute(p).string();
    }
    def->argv.push_back(a);
  }
  auto flag = [&](const char* k, bool d) { return n[k] ? r.boolean(n[k], join_key(e.key, k)) : d; };
  def->supervised = flag("supervised", false);
  def->out_of_sample = flag("out_of_sample", true);
  if (n["timeout"]) {
    def->timeout = r.real(n["timeout"], join_key(e.key, "timeout"));
    if (!(def->timeout > 0))
      r.fail(n["timeout"], join_key(e.key, "timeout"), "the timeout must be positive",
             "timeout: 600 (seconds)");
  }

  if (n["threads"]) {
    // The command's OMP/OPENBLAS/MKL_NUM_THREADS (default: the config's threads).
    def->threads =
        static_cast<unsigned>(r.integer(n["threads"], join_key(e.key, "threads"), 1, 4096));
  }

  MethodInfo m =
      describe_method("external:" + e.label, "external",
                      "external command " + command_text(def->argv), "the command's own");
  m.supervised = def->supervised;
  m.out_of_sample = def->out_of_sample;
  m.iterative = flag("iterative", false);
  if (n["params"]) {
    const std::string pkey = join_key(e.key, "params");
    r.expect_map(n["params"], pkey);
    for (const auto& kv : n["params"]) {
      const std::string name = r.str(kv.first, pkey);
      m.params.push_back(param_spec(r, kv.second, join_key(pkey, name), name));
    }
  }
  std::shared_ptr<const Definition> cdef = def;
  m.make = [cdef](const ParamSet& p) { return std::make_unique<External>(cdef, p); };
  return m;
}

// The budget of a configured entry: its `cost` (relative, like every method's estimate) and what
// drbench itself holds for the command.
Budget entry_budget(const MethodEntry& e) {
  const Reader& r = e.reader;
  const YAML::Node& n = e.node;
  // cost: {n: a, d: b, dim: c, scale: s} = s n^a d^b (dim+1)^c, relative like every method's
  // estimate (the default n^2 d is the framework's); `drbench plan --costs` learns seconds anyway.
  double ca = 2, cb = 1, cc = 0, cs = 1;
  if (n["cost"]) {
    const std::string key = join_key(e.key, "cost");
    r.expect_map(n["cost"], key);
    r.check_keys(n["cost"], key, {"n", "d", "dim", "scale"});
    auto exponent = [&](const char* k, double& v) {
      if (!n["cost"][k]) return;
      v = r.real(n["cost"][k], join_key(key, k));
      if (!(v >= 0 && v <= 4))
        r.fail(n["cost"][k], join_key(key, k), "exponent out of range", "a value in [0, 4]");
    };
    exponent("n", ca);
    exponent("d", cb);
    exponent("dim", cc);
    if (n["cost"]["scale"]) {
      cs = r.real(n["cost"]["scale"], join_key(key, "scale"));
      if (!(cs > 0)) r.fail(n["cost"]["scale"], join_key(key, "scale"), "must be positive");
    }
  }
  // drbench itself holds the data, the input file's copy and the embeddings; the command's own
  // memory is its business (and outside this process).
  return make_budget(
      [=](const TaskSize& z) {
        return cs * std::pow(z.n, ca) * std::pow(z.d, cb) * std::pow(z.q + 1.0, cc);
      },
      [](const TaskSize& z) { return 8.0 * (3.0 * z.n * z.d + 4.0 * z.n * z.q); });
}

// Each configured entry's budget comes from its own keys (entry_budget).
Budget external_budget() {
  Budget b;
  b.configure = entry_budget;
  return b;
}

MethodInfo external_info() {
  MethodInfo m = describe_method(
      "external", "external",
      "a method run as an external command (any language): command, params, ... in the "
      "config entry (docs/external-methods.md)",
      "docs/external-methods.md");
  m.config_keys = {"command",   "params",  "supervised", "out_of_sample",
                   "iterative", "timeout", "cost",       "threads"};
  m.configure = configure;
  // The SDK's own demo method (PCA by SVD in NumPy), as `python3 -m drbench.external` runs it.
  m.contract_entry =
      "{method: external, label: contract, command: [/usr/bin/python3, -m, drbench.external], "
      "params: {center: {type: bool, default: true}}}";
  m.make = [](const ParamSet&) -> std::unique_ptr<Method> {
    throw Error("internal: method 'external' runs only as configured by its config entry");
  };
  return m;
}

}  // namespace
DRBENCH_METHOD(external_info, external_budget())
}  // namespace drbench
