// The drbench command line. Only argument handling lives here; every command is a thin call into
// the framework so the same operations are available from C++.
#include <mpi.h>

#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "framework/config/validate.hpp"
#include "framework/core/error.hpp"
#include "framework/core/params.hpp"
#include "framework/core/registry.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/generators.hpp"
#include "framework/data/load.hpp"
#include "framework/eval/coranking.hpp"
#include "framework/eval/intrinsic_dim.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/combine.hpp"
#include "framework/results/info.hpp"
#include "framework/results/ranks.hpp"
#include "framework/results/render.hpp"
#include "framework/sched/cost_model.hpp"
#include "framework/sched/dispatch.hpp"
#include "framework/sched/halving.hpp"
#include "framework/sched/order.hpp"
#include "framework/sched/plan.hpp"
#include "framework/sched/run_task.hpp"
#include "framework/sched/scheduler.hpp"
#include "framework/support/blas.hpp"
#include "framework/support/build_info.hpp"
#include "framework/support/memory_size.hpp"
#include "framework/support/time_limit.hpp"

namespace {

using namespace drbench;

const char* kUsage = R"(drbench: reproducible benchmarks of dimensionality-reduction methods

usage:
  drbench run CONFIG [KEY=VALUE ...] [--profile NAME | --quick] [--output FILE.h5]
                     [--only LABEL[,...]] [--dataset NAME[,...]] [--repeats R[-R],...]
                     [--force-new | --retry-failed] [--quiet] [--no-table]
                     [--memory-per-rank SIZE | --node-memory SIZE]
        Run (or resume) the sweep a config describes; under mpirun, rank 0 schedules and writes.
        KEY=VALUE overrides a config key after the profile (splits.repeats=2,
        methods[1].grid.neighbours=[5,10], output.path=x.h5; VALUE is YAML, ~ removes the key),
        checked like the file and recorded in the results. --only/--dataset run a slice of the
        config (method labels, dataset names; a comma inside parentheses does not split, so
        --only 'GPLVM (sparse, DTC)' is one label) into the same results file. --repeats
        runs only those partitions (numbered from 0; 15-19 or 0,3,5-7), e.g. a table's last
        partitions on another machine; not with successive halving.
        Rerunning the same command after a crash or kill resumes; --force-new starts over.
        A resume also reruns the tasks that failed because of their environment (out of
        memory, disk full, a program missing, a rank killed); --retry-failed reruns every
        failed and timed-out task as well (with --only etc.: those in the slice).
        SIGINT (Ctrl-C), SIGTERM or SIGUSR1 stop it cleanly: running tasks finish, results
        are saved, exit status 75; a second signal abandons the running tasks; the same
        command resumes. Under Open MPI, launch with scripts/drbench-mpirun for this.
  drbench validate CONFIG [KEY=VALUE ...] [--profile NAME | --quick] [--memory-per-rank SIZE |
                          --node-memory SIZE] [--ranks-per-node N] [--probe-external]
        Check the config and its data as `run` would, print the task count and the peak memory
        per rank, write nothing.
        --memory-per-rank SIZE (run, validate, plan; e.g. 4G, 1500M, 2GiB): what one rank may
        use. A task whose estimate (the method's, plus the data every rank holds) exceeds it is
        refused before anything runs. Default: the node's physical memory (or its cgroup
        limit) divided by the ranks on the node (run: counted by MPI; validate: 1; plan: the
        largest --ranks, at most this machine's cores). docs/cluster.md, "Memory".
        --node-memory SIZE (run, validate, plan; instead of --memory-per-rank): what one node
        offers the ranks on it together (default: its memory or cgroup limit); one rank's share
        is that over the ranks on the node. A task above the share runs on one rank while
        other ranks of its node take no task and lend it their cores; only a task no node can
        hold is refused. --ranks-per-node N (validate: default 1; plan: default the largest
        --ranks, at most this machine's cores): validate and plan list such tasks.
        docs/cluster.md, "Several nodes and memory placement".
        --probe-external also runs each external method once on a tiny generated dataset.
  drbench aggregate RESULTS.h5 [MORE.h5 ...] [--format md|csv|tex] [--ttest LABEL|best]
                    [--test ttest|wilcoxon] [--correction holm|none] [--no-store]
                    [--long FILE.csv] [--all-settings] [--dataset NAME] [--dim N] [--k K]
                    [--metric MEASURE] [--ranks] [--pool-datasets PATTERN=NAME[,...]]
                    [--pool-labels PATTERN=NAME[,...]] [--details]
        Mean +/- std of the kNN error in percent (best setting per cell, the best cell of each
        column bold, paired tests against LABEL: default the config's evaluation.ttest_against,
        uncorrected as the papers tested, else the best cell of each column with Holm's
        correction over each table's comparisons; --ttest best forces the latter, --ttest "" no
        tests; --test wilcoxon for the signed-rank test; --correction holm|none), printed and
        stored under /tables in the file unless --no-store. --long writes one tidy CSV (one line
        per cell and k) instead of printing; --all-settings lists every setting, not only the
        chosen one (as that CSV, on stdout without --long); --dataset/--dim/--k restrict the
        output. Several files (a table run in pieces, e.g. one profile per column) make one
        table when no cell is in two of them; files of one experiment (run --repeats, --only,
        --dataset slices, each with its own --output) are joined task by task first, as the
        whole run's file. Printed only, each file keeps its own tables.
        --metric tabulates a stored quality measure instead (rnx_auc, trustworthiness, ...; per
        K where it has one, --k then picking a K): best setting and t-tests in its direction;
        printed only. --ranks prints each method's rank per dataset block and the mean rank,
        the Friedman test and the Nemenyi critical difference (Demsar 2006) for that measure
        (with --format csv: one row per method for programs).
        --pool-datasets 'oil_*=oil' tabulates the datasets a pattern matches ('*': any
        characters) as one (subsamples of one data set: mean +/- std over every draw's
        partitions, t-tests paired by draw and partition); --pool-labels 'GPLVM-*=GPLVM' makes
        one row of several method labels, its settings "<label>: <setting>" (the best of several
        kernels). Pooled tables are printed only. --details adds the columns pairs, t,
        mean_diff and fit_seconds to --long/--all-settings and prints every number whole.
        Exit status: 2 for bad input; `run` exits 4 when any task failed.
  drbench plot RESULTS.h5 [MORE.h5 ...] [-o DIR] [--dataset NAME] [--method LABEL]
                          [--format png|pdf|svg] [--metric error|accuracy] [--k K]
                          [--paper CSV] [--dpi N] [--data-path DIR]
        Figures (latent spaces, error against split and dimension, optimiser traces) and a
        manifest.tsv; drawn by python/drbench (Python 3 with h5py, pandas, matplotlib).
        Several files of a table run in pieces draw its curves as one table.
  drbench report RESULTS.h5 [MORE.h5 ...] [-o REPORT.html] [--watch SECONDS] [--max-points N]
        One self-contained interactive HTML page of one or more files (no network needed to
        view it): selectors, sortable tables, zoomable latent spaces with hover, curves, ranks,
        provenance; a run still writing shows what is finished, --watch rewrites the page.
  drbench plan CONFIG [KEY=VALUE ...] --ranks R[,R...] [--costs RESULTS.h5[,...]] [--profile NAME | --quick]
                      [--latency S] [--commit S] [--start S] [--check S] [--remaining]
                      [--memory-per-rank SIZE | --node-memory SIZE] [--ranks-per-node N]
        Predicted wall time, efficiency and load per rank on R ranks: a replay of the scheduler
        on task times fitted from finished results (--costs; several files pool their
        tasks, e.g. a table's columns at different sizes), else on the methods' relative
        cost estimates. --latency: one message (default 2e-5 s); --commit: one fsync (5e-3 s);
        --start: process start and exit (0.8 s); --check: rank 0's up-front config and data
        check (default: the plan times the same check on this machine). --remaining: only
        the tasks without a result in a --costs file of this config (what a resume runs).
        Also prints the peak memory per rank (the largest task's estimate) and refuses a
        config with a task no node holds; tasks placed by memory run in a round of their own
        first, replayed on nodes of --ranks-per-node ranks, with the round's cost.
  drbench info RESULTS.h5 [MORE.h5 ...] [--settings | --progress] | --settings-version
        What a results file holds: config name and hash, overrides, datasets, methods, tasks
        with a result, failed and missing, tables, embeddings and traces kept, version and BLAS.
        --settings prints each task's id, setting and key under today's parameter names (a
        file of an older settings version migrated as every reader does; tab-separated);
        --settings-version prints the settings version this program writes. --progress prints
        how far each file's run has come (tab-separated: file, tasks in the file, tasks of the
        experiment, finished, the journal, the tasks it holds, tasks left; -1: none/unknown).
  drbench methods [NAME]      Every method with its parameters, types, defaults and ranges.
  drbench methods --migrate [--from-version N]
        Reads "METHOD<tab>SETTING" lines on stdin and prints each setting under today's
        parameter names (written under settings version N, default 1), one per line: the
        migration every reader applies to old results files, for text outside one
        (scripts/migrate_settings_text.py).
  drbench datasets [--data-path DIR]
        What the data path holds (config data_path, then $DRBENCH_DATA, then ../shared/datasets),
        plus the bundled tables and generators.
  drbench datasets --intrinsic-dim CONFIG [--profile NAME]
        The Levina-Bickel maximum-likelihood intrinsic dimension (k = 6..12) of every training
        partition of CONFIG, preprocessed as its tasks see it, and per dataset the rounded mean:
        the target dimension of the 2009 review's protocol, to write as that dataset's dims.
  drbench datasets fetch NAME --manifest FILE [--dest DIR] [--timeout S] [--quiet]
        Downloads NAME's files as the JSON manifest lists them (URL, size, sha256), resuming a
        partial download, checks each before use, and records it in DIR/MANIFEST.tsv (default
        $DRBENCH_DATA, else ../shared/datasets). docs/data.md describes the manifest.
  drbench help | --help       This text.
  drbench --version           Version and the BLAS in use.

Examples:
  mpirun -np 2 drbench run configs/quickstart.yaml
  drbench aggregate results/quickstart.h5 --format tex
)";

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "drbench: %s\n(run 'drbench help' for usage)\n", msg.c_str());
  return 2;
}

// Pulls "--name value" or "--flag" out of args; what is left are positional arguments.
struct Args {
  std::vector<std::string> pos;
  std::vector<std::pair<std::string, std::string>> opts;
  std::string value(const std::string& k, const std::string& def = "") const {
    for (const auto& [a, b] : opts)
      if (a == k) return b;
    return def;
  }
  bool flag(const std::string& k) const {
    for (const auto& o : opts)
      if (o.first == k) return true;
    return false;
  }
};

Args parse_args(int argc, char** argv, int from, const std::vector<std::string>& with_value,
                const std::vector<std::string>& flags) {
  Args a;
  for (int i = from; i < argc; ++i) {
    std::string s = argv[i];
    if (s.size() > 1 && s[0] == '-' && s[1] != '-')
      throw Error("unknown option '" + s + "' (fix: options take two dashes: -" + s +
                  "; see 'drbench help')");
    if (s.rfind("--", 0) != 0) {
      a.pos.push_back(s);
      continue;
    }
    bool known = false;
    for (const auto& w : with_value)
      if (s == w) {
        if (i + 1 >= argc) throw Error("option " + s + " needs a value (fix: see 'drbench help')");
        a.opts.emplace_back(s, argv[++i]);
        known = true;
      }
    for (const auto& f : flags)
      if (s == f) {
        a.opts.emplace_back(s, "");
        known = true;
      }
    if (!known) throw Error("unknown option '" + s + "' (fix: see 'drbench help')");
  }
  return a;
}

// --repeats "15-19" or "0,3,5-7": repeat indices, each once, in increasing order.
std::vector<int> repeat_list(const std::string& text) {
  const std::string fix = " (fix: --repeats 15-19, or a list such as 0,3,5-7)";
  if (text.empty()) throw Error("--repeats needs repeat numbers" + fix);
  std::vector<int> out;
  std::size_t pos = 0;
  auto number = [&](const std::string& part) {
    std::size_t used = 0;
    long v = -1;
    try {
      v = std::stol(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size() || v < 0 || v > 1000000)
      throw Error("--repeats '" + text + "': '" + part + "' is not a repeat number" + fix);
    return static_cast<int>(v);
  };
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t dash = item.find('-');
    const int lo = number(item.substr(0, dash));
    const int hi = dash == std::string::npos ? lo : number(item.substr(dash + 1));
    if (hi < lo) throw Error("--repeats '" + text + "': the range '" + item + "' is empty" + fix);
    for (int r = lo; r <= hi; ++r) out.push_back(r);
    pos = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// An option's comma-separated values: "a,b" -> {a, b}, "" -> {}, "a,,b" -> {a, "", b}. A comma
// inside parentheses does not split: labels such as "GPLVM (sparse, DTC)" are one name.
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::string cur;
  int depth = 0;
  for (const char c : text) {
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    cur += c;
  }
  out.push_back(cur);
  return out;
}

// The CONFIG and the key=value overrides after it (Hydra style), or a usage error naming what is
// neither.
std::vector<ConfigOverride> overrides_of(const Args& a, const std::string& cmd) {
  if (a.pos.empty()) throw Error(cmd + " needs a CONFIG (fix: drbench " + cmd + " configs/x.yaml)");
  std::vector<std::string> rest(a.pos.begin() + 1, a.pos.end());
  for (const auto& r : rest)
    if (r.find('=') == std::string::npos)
      throw Error(cmd + " takes one CONFIG, then key=value overrides; '" + r +
                  "' is neither (fix: one config per command, e.g. drbench " + cmd + " " +
                  a.pos[0] + " splits.repeats=2)");
  return parse_overrides(rest);
}

std::string profile_of(const Args& a) {
  if (a.flag("--quick") && a.flag("--profile"))
    throw Error("--quick is --profile quick: give one of them (fix: drop --quick or --profile " +
                a.value("--profile") + ")");
  if (a.flag("--quick")) return "quick";
  if (a.flag("--profile") && a.value("--profile").empty())
    throw Error("--profile needs a profile name (fix: --profile quick, or leave it out)");
  return a.value("--profile");
}

// --memory-per-rank (returned) and --node-memory (into `node`): one of them at most, since each
// says what the other follows from.
MemoryLimit memory_flags(const Args& a, MemoryLimit& node) {
  if (a.flag("--memory-per-rank") && a.flag("--node-memory"))
    throw Error(
        "--memory-per-rank and --node-memory both say how much memory a rank has (fix: one of "
        "them: --node-memory for the whole node, which its ranks share)");
  if (a.flag("--node-memory")) node = memory_limit_given("--node-memory", a.value("--node-memory"));
  if (a.flag("--memory-per-rank"))
    return memory_limit_given("--memory-per-rank", a.value("--memory-per-rank"));
  return {};
}

// Open MPI's mpirun, PMIx and PMI launchers (srun) all leave one of these in each rank's
// environment.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

int cmd_run(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2,
                      {"--profile", "--output", "--only", "--dataset", "--repeats",
                       "--memory-per-rank", "--node-memory"},
                      {"--quick", "--force-new", "--retry-failed", "--quiet", "--no-table"});
  RunOptions o;
  o.profile = profile_of(a);  // before MPI_Init, so a bad flag is a plain usage error
  o.overrides = overrides_of(a, "run");
  o.only_methods = split_list(a.value("--only"));
  o.only_datasets = split_list(a.value("--dataset"));
  for (const char* opt : {"--only", "--dataset"})
    if (a.flag(opt) && a.value(opt).empty())
      return usage_error(std::string(opt) + " needs a name (fix: " + opt +
                         (opt[2] == 'o' ? " PCA,LDA" : " usps") + ")");
  if (a.flag("--repeats")) {
    try {
      o.only_repeats = repeat_list(a.value("--repeats"));
    } catch (const Error& e) {
      return usage_error(e.what());
    }
  }
  if (a.flag("--output") && a.value("--output").empty())
    return usage_error("--output needs a file name (fix: --output results/x.h5)");
  o.config = a.pos[0];
  o.output = a.value("--output");
  o.force_new = a.flag("--force-new");
  o.retry_failed = a.flag("--retry-failed");
  if (o.force_new && o.retry_failed)
    return usage_error(
        "--retry-failed reruns the failed tasks of an existing results file; "
        "--force-new starts over (fix: one of them)");
  o.quiet = a.flag("--quiet");
  o.print_table = !a.flag("--no-table");
  try {
    o.memory = memory_flags(a, o.node_memory);
  } catch (const Error& e) {
    return usage_error(e.what());
  }
  // Started without a launcher, this process is the only rank: rank 0's check (config and data)
  // runs before MPI_Init, whose singleton start binds to each core in turn and can take seconds on
  // a busy machine, so bad input is refused at once. Under mpirun/srun rank 0 alone checks and
  // reports, after MPI_Init.
  install_stop_handlers();
  if (!launched_by_mpi()) {
    try {
      o.checked = check_run(o);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "drbench: %s\nNothing was run or written.\n", e.what());
      return 2;
    }
  }
  // Open MPI keeps its session files under TMPDIR and fails inside MPI_Init when it is full
  // ("ompi_rte_init failed"); external methods keep their scratch folders there.
  {
    const char* env = std::getenv("TMPDIR");
    const std::string tmp = env && *env ? env : "/tmp";
    struct statvfs fs {};
    if (::statvfs(tmp.c_str(), &fs) == 0 && double(fs.f_bavail) * double(fs.f_frsize) < 65536.0) {
      std::fprintf(stderr,
                   "drbench: No space left on device in TMPDIR (%s: %s free), where Open MPI "
                   "keeps its session files and external methods their scratch folders (fix: "
                   "free space there or set TMPDIR to a directory with space)\nNothing was run "
                   "or written.\n",
                   tmp.c_str(), format_bytes(double(fs.f_bavail) * double(fs.f_frsize)).c_str());
      return 2;
    }
  }
  // Rank 0 runs tasks in a second thread beside its dispatcher; only the dispatcher calls MPI.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rc = 2;
  try {
    rc = run_experiment(o);
  } catch (const std::exception& e) {
    // Past validation only a broken environment lands here (disk full, I/O error): say so and
    // take the other ranks down rather than leaving them waiting.
    std::fprintf(stderr, "drbench: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  barrier_quietly();
  MPI_Finalize();
  return rc;
}

// --probe-external: every method configured by its config entry (an external command) fitted
// once on a tiny generated dataset (3 Gaussian classes x 10 points, 6 test points, in as many
// dimensions as its largest dim needs) with its grid's first setting, as a task would run it.
int probe_configured(const Experiment& ex) {
  int failed = 0, probed = 0;
  for (const MethodSpec& ms : ex.methods) {
    const MethodInfo& info = Registry::instance().get(ms.method);
    if (info.configured_from.empty()) continue;
    ++probed;
    std::uint64_t largest = 0;
    for (std::size_t di = 0; di < ex.datasets.size(); ++di)
      for (std::uint64_t d : task_dims(ex, di, std::size_t(&ms - ex.methods.data())))
        largest = std::max(largest, d);
    const arma::uword dim = std::max<arma::uword>(1, largest);
    const arma::uword d = std::max<arma::uword>(5, dim + 1), per = 10, C = 3;
    Rng rng(hash_seed(ex.seed, "probe|" + ms.label));
    arma::mat X = rng.randn(d, C * per), Xnew = rng.randn(d, 2 * C);
    arma::uvec y(C * per);
    for (arma::uword i = 0; i < y.n_elem; ++i) {
      y(i) = i % C;
      X(y(i), i) += 4.0;  // separated classes
      if (i < Xnew.n_cols) Xnew(i % C, i) += 4.0;
    }
    const ParamSet setting = expand_grid(ms).front();
    const auto t0 = std::chrono::steady_clock::now();
    // The probe is a task: max_task_seconds bounds it (a hanging command is reported, not
    // waited for), as the command's own timeout does.
    set_task_deadline(ex.max_task_seconds > 0 ? deadline_after(t0, ex.max_task_seconds)
                                              : std::chrono::steady_clock::time_point::max());
    try {
      Trace trace;
      FitInput in{X, info.supervised ? &y : nullptr, C, dim, rng, &trace};
      in.dataset = "probe";
      if (info.out_of_sample) in.Xnew = &Xnew;
      auto m = info.fit(setting, in);
      const arma::mat E = m->embedding();
      if (E.n_rows != dim || E.n_cols != X.n_cols) throw Error("embedding has the wrong shape");
      if (info.out_of_sample) {
        const arma::mat T = m->transform(Xnew);
        if (T.n_rows != dim || T.n_cols != Xnew.n_cols) throw Error("test map has the wrong shape");
      }
      std::printf("probe %s: ok (%zu x %zu -> %zu-D, %.1f s)\n", ms.label.c_str(),
                  std::size_t(X.n_cols), std::size_t(d), std::size_t(dim),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    } catch (const std::exception& e) {
      ++failed;
      std::fprintf(stderr, "probe %s: FAILED: %s%s\n", ms.label.c_str(), e.what(),
                   dynamic_cast<const TimeLimitExceeded*>(&e) ? " (max_task_seconds)" : "");
    }
    set_task_deadline(std::chrono::steady_clock::time_point::max());
  }
  if (probed == 0) std::printf("probe: no external methods in this config\n");
  return failed;
}

// The memory of a node shared by `ranks_on_node` ranks: one rank's share and the nodes' budgets
// (--memory-per-rank, --node-memory, else this node's memory) for validate and plan.
struct MemoryOptions {
  MemoryLimit share;
  NodeMemory node;
};
MemoryOptions memory_option(const Args& a, int ranks_on_node) {
  MemoryLimit node_memory;
  const MemoryLimit per_rank = memory_flags(a, node_memory);
  const double measured = per_rank.bytes > 0 || node_memory.bytes > 0 ? 0 : node_memory_bytes();
  return {rank_share(node_memory, per_rank, ranks_on_node, measured),
          {node_budget(node_memory, per_rank, ranks_on_node, measured), ranks_on_node}};
}

std::uint64_t whole_number(const std::string& opt, const std::string& v);

// --ranks-per-node N of validate and plan: whole number >= 1, or `fallback`.
int ranks_per_node(const Args& a, int fallback) {
  if (!a.flag("--ranks-per-node")) return fallback;
  const std::uint64_t v = whole_number("--ranks-per-node", a.value("--ranks-per-node"));
  if (v < 1 || v > (1u << 20))
    throw Error("--ranks-per-node " + a.value("--ranks-per-node") +
                ": from 1 to 1048576 ranks (fix: e.g. --ranks-per-node 32)");
  return static_cast<int>(v);
}

// Tasks placed by memory: which run with other ranks of their node held back, and how many.
void print_placement(const MemoryPeak& peak, const NodeMemory& node) {
  if (peak.big.empty()) return;
  std::printf(
      "placed by memory: %zu task(s) above one rank's share run first, each on one rank while "
      "other ranks of its node take no task and lend it their cores (node %s, %d ranks):\n",
      peak.big_tasks, format_bytes(node.budget).c_str(), node.ranks);
  const std::size_t shown = std::min<std::size_t>(peak.big.size(), 10);
  for (std::size_t i = 0; i < shown; ++i)
    std::printf("  %s: %s beyond what every rank holds, %d rank(s) held back\n",
                peak.big[i].task.c_str(), format_bytes(peak.big[i].bytes).c_str(),
                peak.big[i].slots - 1);
  if (peak.big.size() > shown)
    std::printf("  ... and %zu more (dataset, split, setting, dim) combinations\n",
                peak.big.size() - shown);
}

void print_memory(const MemoryPeak& peak, const MemoryLimit& limit) {
  // Where preprocessing's raw block outweighs the method, the task's peak is the block's.
  const bool block = peak.preprocess_bytes > peak.method_bytes;
  const double task = peak.resident_bytes + std::max(peak.method_bytes, peak.preprocess_bytes);
  // Where reading a dataset in full outweighs every task, the rank's peak is the load's.
  const std::string load =
      peak.load_dominates()
          ? " while loading (" + peak.load + "), above the largest task's " + format_bytes(task)
          : "";
  std::printf(
      "peak memory per rank: about %s%s (%s + %s held by every rank; largest task: %s%s%s); "
      "limit %s (%s)\n",
      format_bytes(peak.bytes).c_str(), load.c_str(),
      format_bytes(block ? peak.preprocess_bytes : peak.method_bytes).c_str(),
      format_bytes(peak.resident_bytes).c_str(), peak.task.c_str(),
      block ? ", whose preprocessing block exceeds its method's estimate of " : "",
      block ? format_bytes(peak.method_bytes).c_str() : "", format_bytes(limit.bytes).c_str(),
      limit.source.c_str());
}

// Remarks of the methods on settings that are valid but likely unwise for this data.
void print_advice(const Experiment& ex, const std::vector<DataShape>& shapes) {
  for (const std::string& remark : setting_advice(ex, shapes))
    std::fprintf(stderr, "[drbench] note: %s\n", remark.c_str());
  if (const std::string remark = selection_advice(ex); !remark.empty())
    std::fprintf(stderr, "[drbench] note: %s\n", remark.c_str());
}

int cmd_validate(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2,
                      {"--profile", "--memory-per-rank", "--node-memory", "--ranks-per-node"},
                      {"--quick", "--probe-external"});
  const MemoryOptions mem = memory_option(a, ranks_per_node(a, 1));
  const MemoryLimit& limit = mem.share;
  const Experiment ex = load_experiment(a.pos[0], profile_of(a), overrides_of(a, "validate"));
  MemoryPeak peak;
  std::vector<DataShape> full;
  const auto shapes = check_data_and_memory(ex, limit, peak, nullptr, {mem.node}, &full);
  print_advice(ex, shapes);
  const auto tasks = expand_tasks(ex, shapes, full);
  if (a.flag("--probe-external") && probe_configured(ex) > 0) {
    std::fprintf(stderr,
                 "%s: an external method failed its probe (see above); nothing was run (fix: "
                 "correct the command, or raise its timeout or max_task_seconds if it is slow)\n",
                 a.pos[0].c_str());
    return 2;
  }
  const std::size_t planned = planned_tasks(ex, tasks);
  std::printf("%s: valid; %zu tasks%s; results -> %s\n", a.pos[0].c_str(), tasks.size(),
              planned == tasks.size() ? ""
                                      : (" (" + std::to_string(planned) +
                                         " of them run: the selection rule leaves the others out)")
                                            .c_str(),
              ex.output.path.c_str());
  print_memory(peak, limit);
  print_placement(peak, mem.node);
  return 0;
}

// A non-negative whole number for an option, or a usage error naming it.
std::uint64_t whole_number(const std::string& opt, const std::string& v) {
  std::size_t used = 0;
  unsigned long long n = 0;
  try {
    if (!v.empty() && v[0] != '-') n = std::stoull(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (v.empty() || used != v.size())
    throw Error(opt + " needs a whole number, got '" + v + "' (fix: e.g. " + opt + " 2)");
  return n;
}

// A table run in pieces (one profile per column, or slices of one experiment) as one table. The
// t-test reference is --ttest, else the one every file names.
Aggregate aggregate_several(const std::vector<std::string>& all_paths,
                            const AggregateOptions& opt) {
  std::vector<ResultsFile> read;
  for (const auto& p : all_paths) read.push_back(read_results(p));
  std::vector<ResultsFile> files = join_slices(std::move(read));
  if (files.size() == 1) return aggregate(files[0], opt);  // as the whole run's file
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.path);
  std::string reference = opt.reference.value_or("");
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const ResultsFile& f = files[i];
    if (!opt.reference && i == 0) reference = f.ttest_reference;
    if (!opt.reference && f.ttest_reference != reference)
      throw Error("cannot put " + paths[0] + " and " + paths[i] +
                  " in one table: their configs name different t-test references ('" + reference +
                  "' and '" + f.ttest_reference + "') (fix: --ttest LABEL, or --ttest \"\")");
  }
  // The files' own reference keeps their uncorrected tests, as aggregate() does for one file.
  AggregateOptions untested = opt;
  untested.reference = "";
  untested.correction =
      opt.correction.value_or(!opt.reference && !reference.empty() ? "none" : "holm");
  if (!opt.reference && reference.empty()) reference = kBestOfColumn;
  std::vector<Aggregate> parts;
  for (const auto& f : files) parts.push_back(aggregate(f, untested));
  return combine_aggregates(parts, paths, reference);
}

int cmd_aggregate(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2,
                      {"--format", "--ttest", "--test", "--correction", "--long", "--dataset",
                       "--dim", "--k", "--metric", "--pool-datasets", "--pool-labels"},
                      {"--no-store", "--all-settings", "--ranks", "--details"});
  if (a.pos.empty()) return usage_error("aggregate needs a RESULTS.h5");
  const std::string fmt = a.value("--format", "md");
  if (fmt != "md" && fmt != "csv" && fmt != "tex")
    return usage_error("--format must be md, csv or tex (got '" + fmt + "')");
  AggregateOptions opt;
  if (a.flag("--ttest"))
    opt.reference = a.value("--ttest") == "best" ? kBestOfColumn : a.value("--ttest");
  if (a.flag("--test")) opt.test = a.value("--test");
  if (a.flag("--correction")) opt.correction = a.value("--correction");
  if (opt.test != "ttest" && opt.test != "wilcoxon")
    return usage_error("--test must be ttest or wilcoxon (got '" + opt.test + "')");
  if (opt.correction && *opt.correction != "none" && *opt.correction != "holm")
    return usage_error("--correction must be holm or none (got '" + *opt.correction + "')");
  if (a.flag("--metric")) {
    opt.metric = a.value("--metric");
    if (opt.metric != "knn_error" && !find_quality_measure(opt.metric)) {
      std::string names = "knn_error";
      for (const auto& m : quality_measures()) names += std::string(", ") + m.name;
      return usage_error("--metric " + opt.metric + ": no such measure (fix: one of " + names +
                         ")");
    }
    if (opt.metric == "knn_error") opt.metric.clear();
  }
  for (const auto& [o, v] : a.opts) {
    if (o == "--pool-datasets")
      for (auto& r : parse_pool_rules(v, o)) opt.pool_datasets.push_back(r);
    if (o == "--pool-labels")
      for (auto& r : parse_pool_rules(v, o)) opt.pool_labels.push_back(r);
  }
  AggregateFilter filter;
  if (a.flag("--dataset")) filter.dataset = a.value("--dataset");
  if (a.flag("--dim")) filter.dim = whole_number("--dim", a.value("--dim"));
  if (a.flag("--k")) filter.k = static_cast<int>(whole_number("--k", a.value("--k")));
  const std::string long_path = a.value("--long");
  if (a.flag("--long") && (long_path.empty() || std::filesystem::is_directory(long_path)))
    return usage_error("--long needs a CSV file name (fix: --long results/x.csv)");
  const Aggregate full =
      a.pos.size() == 1 ? aggregate(read_results(a.pos[0]), opt) : aggregate_several(a.pos, opt);
  // A rule that pools nothing is a typo, not a no-op.
  auto require_matched = [&](const std::vector<PoolRule>& rules, const std::string& option,
                             const std::vector<std::string>& names, const std::string& what) {
    for (const auto& r : rules)
      if (std::find(names.begin(), names.end(), r.name) == names.end()) {
        std::string all;
        for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
        throw Error(option + " '" + r.pattern + "=" + r.name + "': the pattern matches no " + what +
                    " (" + what + "s: " + all + ") (fix: a pattern such as 'oil_*')");
      }
  };
  require_matched(opt.pool_datasets, "--pool-datasets", full.datasets, "dataset");
  require_matched(opt.pool_labels, "--pool-labels", full.labels, "method label");
  const Aggregate agg = filter_aggregate(full, filter);
  // Pooled tables belong to no one file: each file keeps the tables of its own cells.
  // Tables of a quality metric are printed only: /tables keeps the kNN-error tables, and so are
  // tables that pool datasets or labels.
  const bool pooling = !opt.pool_datasets.empty() || !opt.pool_labels.empty();
  // An incomplete file (a finished --only slice, a stopped run) gets its tables printed, marked
  // incomplete, and not stored: stored tables are those of the whole experiment.
  if (!a.flag("--no-store") && a.pos.size() == 1 && opt.metric.empty() && !pooling) {
    if (full.incomplete.empty())
      write_tables(a.pos[0], full);
    else
      std::fprintf(stderr, "drbench: tables not stored in %s (%s); they are once every task ran\n",
                   a.pos[0].c_str(), full.incomplete.c_str());
  }
  if (!full.incomplete.empty() && (fmt == "csv" || a.flag("--long") || a.flag("--all-settings")))
    std::fprintf(stderr, "drbench: warning: %s\n", full.incomplete.c_str());
  if (a.flag("--long")) {
    const std::string tmp = long_path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << to_long_csv(agg, a.flag("--all-settings"), a.flag("--details"));
      if (!out.flush())
        throw Error(long_path +
                    ": cannot write (fix: check that the directory exists and is "
                    "writable)");
    }
    if (std::rename(tmp.c_str(), long_path.c_str()) != 0)
      throw Error(long_path + ": cannot write (rename from " + tmp + " failed)");
    return 0;
  }
  if (a.flag("--all-settings")) {
    std::cout << to_long_csv(agg, true, a.flag("--details"));
    return 0;
  }
  if (a.flag("--ranks")) {
    const RankTable t = rank_methods(agg, agg.alpha);
    std::cout << (fmt == "csv" ? rank_csv(t, agg.alpha) : rank_markdown(t, agg.alpha));
    return 0;
  }
  std::cout << render_tables(agg, fmt);
  return 0;
}

// plot and report are drawn by the Python package beside the sources (matplotlib does it better
// than anything we would write in C++): hand every argument over to `python3 -m drbench.<module>`.
int cmd_python(const char* module, int argc, char** argv) {
  const std::string dir = std::string(source_dir()) + "/python";
  if (!std::filesystem::exists(dir + "/drbench/" + module + ".py"))
    throw Error(dir + "/drbench/" + module + ".py not found: drbench " + argv[1] +
                " runs the Python package of the checkout it was built from; rebuild drbench "
                "from a checkout that has python/drbench");
  const char* env = std::getenv("DRBENCH_PYTHON");
  const std::string python = env && *env ? env : "/usr/bin/python3";
  if (access(python.c_str(), X_OK) != 0)
    throw Error(
        std::string("drbench ") + argv[1] + " needs " + python +
        " with h5py, pandas and matplotlib (Debian: apt-get install python3 python3-h5py "
        "python3-pandas python3-matplotlib, or bash scripts/install-deps.sh --python; or set "
        "DRBENCH_PYTHON)");
  const char* old = std::getenv("PYTHONPATH");
  const std::string path = dir + (old && *old ? ":" + std::string(old) : "");
  setenv("PYTHONPATH", path.c_str(), 1);
  // Tables an unfinished file lacks are computed by this very program (the only owner of tables).
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) setenv("DRBENCH_PROGRAM", self.c_str(), 1);
  const std::string mod = std::string("drbench.") + module;
  std::vector<char*> args{const_cast<char*>(python.c_str()), const_cast<char*>("-m"),
                          const_cast<char*>(mod.c_str())};
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(python.c_str(), args.data());
  throw Error("cannot start " + python + ": " + std::strerror(errno));
}

// A finite, non-negative number of seconds for a plan option (its value when given, else
// `fallback`), or an Error naming the option and the fix.
double plan_seconds(const Args& a, const std::string& opt, double fallback) {
  if (!a.flag(opt)) return fallback;
  const std::string v = a.value(opt);
  char* end = nullptr;
  errno = 0;
  const double s = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(s) || s < 0)
    throw Error(opt + " needs a number of seconds, 0 or more, got '" + v + "' (fix: e.g. " + opt +
                " 0.5)");
  return s;
}

// The plan's rank counts: whole numbers from 1 to kMaxPlanRanks (the replay keeps a timeline per
// rank; no machine has more ranks than that, and more would only exhaust memory).
std::vector<int> plan_ranks(const std::string& text) {
  constexpr std::uint64_t kMaxPlanRanks = 1u << 20;
  std::vector<int> ranks;
  for (const std::string& r : split_list(text)) {
    const std::uint64_t v = whole_number("--ranks", r);
    if (v < 1 || v > kMaxPlanRanks)
      throw Error("--ranks " + r + ": a rank count must be from 1 to " +
                  std::to_string(kMaxPlanRanks) + " (fix: e.g. --ranks 64,256,1024)");
    ranks.push_back(static_cast<int>(v));
  }
  return ranks;
}

// One stage's replay as run_experiment runs it: the tasks placed by memory (those taking more than
// one slot on some node, `bytes` beyond `resident`) in a round of their own first, then the rest.
struct StagePlan {
  PlanResult res;
  PlacedRound placed;
  std::size_t n_placed = 0;
};
StagePlan plan_stage(const Experiment& ex, const std::vector<Task>& tasks,
                     const std::vector<std::uint64_t>& order, const std::vector<double>& seconds,
                     const PlanParams& ps, const std::vector<double>& bytes, double resident,
                     const std::vector<NodeMemory>& nodes) {
  StagePlan sp;
  std::vector<std::uint64_t> rest;
  std::vector<std::vector<int>> slots;
  std::vector<double> big_seconds;
  for (std::uint64_t id : order) {
    std::vector<int> s;
    bool one = true;
    for (const NodeMemory& n : nodes) {
      s.push_back(bytes.empty() ? 1 : slots_on_node(bytes[id], resident, n));
      one = one && s.back() == 1;
    }
    if (one) {
      rest.push_back(id);
      continue;
    }
    slots.push_back(std::move(s));
    big_seconds.push_back(seconds[id]);
  }
  // In dispatch order, longest first, as the run hands them out.
  const DispatchOrder d = dispatch_order(ex, tasks, rest, seconds, ps.ranks);
  sp.res = simulate_schedule(d.ids, seconds, ps, d.group);
  sp.n_placed = slots.size();
  if (slots.empty()) return sp;
  std::vector<std::size_t> by_time(slots.size());
  for (std::size_t i = 0; i < by_time.size(); ++i) by_time[i] = i;
  std::stable_sort(by_time.begin(), by_time.end(),
                   [&](std::size_t x, std::size_t y) { return big_seconds[x] > big_seconds[y]; });
  std::vector<std::vector<int>> s2;
  std::vector<double> t2;
  for (std::size_t i : by_time) s2.push_back(slots[i]), t2.push_back(big_seconds[i]);
  sp.placed = simulate_placed(s2, t2, nodes);
  sp.res.wall_seconds += sp.placed.wall_seconds;
  for (double t : t2) sp.res.work_seconds += t;
  return sp;
}

// Every stage of the plan on p.ranks ranks (stage one pays the start-up), with the tasks placed by
// memory and, for their cost, the wall time had every rank been able to take them.
struct RankPlan {
  PlanResult res;
  PlacedRound placed;
  std::size_t n_placed = 0;
  double unplaced_wall = 0;
};
RankPlan plan_rank_count(const Experiment& ex, const std::vector<Task>& tasks,
                         const std::vector<std::vector<std::uint64_t>>& stages,
                         const std::vector<double>& seconds, const PlanParams& p,
                         const std::vector<double>& bytes, double resident,
                         const std::vector<NodeMemory>& nodes) {
  RankPlan rp;
  PlanResult& res = rp.res;
  PlacedRound& placed = rp.placed;
  std::size_t& n_placed = rp.n_placed;
  double& unplaced_wall = rp.unplaced_wall;
  for (const auto& order : stages) {
    PlanParams ps = p;
    if (!res.busy.empty()) ps.start_seconds = ps.check_seconds = 0;  // once, before stage one
    const StagePlan sp = plan_stage(ex, tasks, order, seconds, ps, bytes, resident, nodes);
    const PlanResult& s = sp.res;
    n_placed += sp.n_placed;
    placed.wall_seconds += sp.placed.wall_seconds;
    placed.held_seconds += sp.placed.held_seconds;
    placed.idle_seconds += sp.placed.idle_seconds;
    if (sp.n_placed > 0) {  // the cost: the same tasks handed out as if each fitted any rank
      const DispatchOrder d = dispatch_order(ex, tasks, order, seconds, p.ranks);
      unplaced_wall += simulate_schedule(d.ids, seconds, ps, d.group).wall_seconds;
    } else {
      unplaced_wall += s.wall_seconds;
    }
    if (res.busy.empty()) {
      res = s;
      continue;
    }
    res.wall_seconds += s.wall_seconds;
    res.work_seconds += s.work_seconds;
    res.messages += s.messages;
    for (std::size_t k = 0; k < res.busy.size(); ++k) {
      res.busy[k] += s.busy[k];
      res.tasks[k] += s.tasks[k];
    }
  }
  return rp;
}

// The options of `plan`, checked before anything is printed, so a bad value never follows half a
// plan. `status` is non-zero (a usage error already reported) when they cannot be used.
struct PlanOptions {
  std::vector<int> ranks;
  std::vector<std::string> costs;
  bool with_costs = false, remaining = false;
  double start_given = kPlanStartSeconds, check_given = 0;
  PlanParams p;
  int status = 0;
};
PlanOptions plan_options(const Args& a) {
  PlanOptions o;
  o.ranks = plan_ranks(a.value("--ranks"));
  o.p.latency_seconds = plan_seconds(a, "--latency", o.p.latency_seconds);
  o.p.commit_seconds = plan_seconds(a, "--commit", o.p.commit_seconds);
  o.start_given = plan_seconds(a, "--start", kPlanStartSeconds);
  o.check_given = plan_seconds(a, "--check", 0);
  if (o.ranks.empty()) {
    o.status = usage_error("plan needs --ranks R (e.g. --ranks 64,256,1024)");
    return o;
  }
  o.costs = split_list(a.value("--costs"));
  o.with_costs = a.flag("--costs");
  if (o.with_costs &&
      (o.costs.empty() || std::find(o.costs.begin(), o.costs.end(), "") != o.costs.end())) {
    o.status =
        usage_error("--costs needs a results file (fix: --costs results/x.h5[,results/y.h5])");
    return o;
  }
  o.remaining = a.flag("--remaining");
  if (o.remaining && !o.with_costs)
    o.status = usage_error(
        "--remaining plans what a resume would still run, so it needs the run's results file "
        "(fix: --costs results/x.h5; of a live run, a copy of it and its .journal)");
  return o;
}

// Every task's time: with --costs, its own recorded time where the files have it, else the cost
// model's prediction; without, the method's relative cost estimate.
struct TaskTimes {
  std::vector<double> seconds;
  std::size_t measured = 0;
  CostModel model;
  std::map<std::string, TaskResult> done;  // this experiment's results, failed ones too
};
TaskTimes task_times(const Experiment& ex, const std::vector<Task>& tasks,
                     const std::vector<CostFeatures>& features, const PlanOptions& o) {
  TaskTimes tt;
  tt.seconds.resize(tasks.size());
  if (!o.with_costs) {
    for (const auto& t : tasks) tt.seconds[t.id] = t.cost;
    return tt;
  }
  // Several files (comma-separated) pool their samples: runs of one config at different sizes
  // (a table's columns) are what lets the model learn how time grows with n.
  CostEvidence ev = read_cost_evidence(o.costs, ex, tasks, features);
  tt.done = std::move(ev.results);
  tt.model = CostModel::fit(ev.samples);
  for (const auto& t : tasks) {
    auto it = tt.done.find(t.key);
    const bool own = it != tt.done.end() && it->second.ok;  // this very task's recorded time
    tt.seconds[t.id] =
        own ? (++tt.measured, it->second.total_seconds()) : tt.model.predict(features[t.id]);
  }
  return tt;
}

// --remaining: each stage keeps only the tasks without a result, as a resume would run them.
struct RemainingWork {
  std::size_t left = 0, all = 0;
  double done_seconds = 0;
};
RemainingWork drop_done(std::vector<std::vector<std::uint64_t>>& stages, const ResultOf& result_of,
                        bool remaining) {
  RemainingWork w;
  for (auto& order : stages) {
    w.all += order.size();
    if (!remaining) continue;
    std::vector<std::uint64_t> pending;
    for (std::uint64_t id : order) {
      const TaskResult* r = result_of(id);
      if (r)
        w.done_seconds += r->total_seconds();
      else
        pending.push_back(id);
    }
    order.swap(pending);
    w.left += order.size();
  }
  return w;
}

void print_plan_sources(const Args& a, const Experiment& ex, const RunStages& st,
                        std::size_t n_tasks, const TaskTimes& tt, const PlanOptions& o,
                        const RemainingWork& w) {
  std::printf("%s: %zu tasks\n", a.pos[0].c_str(), n_tasks);
  const bool survivors = o.remaining && st.first_done;
  if (halving_on(ex))
    std::printf(
        "successive halving: %zu first-stage tasks, then %zu (the %d %s settings per cell on "
        "the other repeats)\n",
        st.stages[0].size(), st.stages.back().size(), ex.evaluation.halving_keep,
        survivors ? "best" : "costliest");
  if (o.with_costs)
    std::printf("task times from %s: %zu measured, the rest predicted by\n%s",
                a.value("--costs").c_str(), tt.measured, tt.model.describe().c_str());
  else
    std::printf("no --costs: times are the methods' relative cost estimates, not seconds\n");
  if (o.remaining)
    std::printf(
        "remaining: %zu of %zu planned tasks have no result yet (%zu done, %.4g s of "
        "work); %s; the replay below is what a resume runs\n",
        w.left, w.all, w.all - w.left, w.done_seconds,
        !halving_on(ex) ? "no successive halving"
        : survivors     ? "the first stage is complete, so the second is its survivors"
                        : "the second stage counted as its costliest settings per cell");
}

// One line of the plan's table: the replay on r ranks, its placement by memory, and per rank
// when there are few.
void print_rank_plan(int r, const RankPlan& rp, const std::vector<NodeMemory>& nodes, int per_node,
                     const char* unit) {
  PlanResult res = rp.res;
  res.efficiency = res.wall_seconds > 0 ? res.work_seconds / (r * res.wall_seconds) : 1.0;
  std::vector<double> busy = res.busy;
  std::sort(busy.begin(), busy.end());
  std::printf("%8d %12.4g %9.1f%% %10zu %12.4g %12.4g %12.4g\n", r, res.wall_seconds,
              100 * res.efficiency, res.messages, busy.front(), busy[busy.size() / 2], busy.back());
  if (rp.n_placed > 0)
    std::printf(
        "         placed by memory: %zu task(s) first, in %.4g %s on %zu node(s) of up to %d "
        "ranks; ranks held back %.4g and idle %.4g rank-%s; %.4g %s more wall than if every "
        "rank could take them\n",
        rp.n_placed, rp.placed.wall_seconds, unit, nodes.size(), per_node, rp.placed.held_seconds,
        rp.placed.idle_seconds, unit, res.wall_seconds - rp.unplaced_wall, unit);
  if (r <= 8)
    for (int k = 0; k < r; ++k)
      std::printf("         rank %d: %zu tasks, busy %.4g %s\n", k, res.tasks[k], res.busy[k],
                  unit);
}

int cmd_plan(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2,
                      {"--profile", "--ranks", "--costs", "--latency", "--commit", "--start",
                       "--check", "--memory-per-rank", "--node-memory", "--ranks-per-node"},
                      {"--quick", "--remaining"});
  const auto overrides = overrides_of(a, "plan");
  PlanOptions o = plan_options(a);
  if (o.status != 0) return o.status;
  PlanParams& p = o.p;
  // The same up-front check rank 0 makes before any rank gets work, timed: its duration is part
  // of the planned wall time (on the cluster's file system it may differ: --check overrides).
  // Without --memory-per-rank, as if the largest rank count filled this machine's cores.
  const long cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  const int per_node = ranks_per_node(
      a,
      static_cast<int>(std::min<long>(cores, *std::max_element(o.ranks.begin(), o.ranks.end()))));
  const MemoryOptions mem = memory_option(a, per_node);
  const MemoryLimit& limit = mem.share;
  const auto check_t0 = std::chrono::steady_clock::now();
  const Experiment ex = load_experiment(a.pos[0], profile_of(a), overrides);
  MemoryPeak peak;
  std::vector<DataShape> full;
  const auto shapes = check_data_and_memory(ex, limit, peak, nullptr, {mem.node}, &full);
  print_advice(ex, shapes);
  const double check_measured =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - check_t0).count();
  const auto tasks = expand_tasks(ex, shapes, full);
  const auto features = task_features(ex, tasks, shapes);
  const TaskTimes tt = task_times(ex, tasks, features, o);
  const std::vector<double>& seconds = tt.seconds;
  const ResultOf result_of = [&](std::uint64_t id) -> const TaskResult* {
    auto it = tt.done.find(tasks.at(id).key);
    return it == tt.done.end() ? nullptr : &it->second;
  };
  // The run's own stages (successive halving, validation's test-point tasks); a later stage is
  // the survivors a resume would run only when --remaining finds the first one complete.
  const ResultOf no_results = [](std::uint64_t) -> const TaskResult* { return nullptr; };
  RunStages st = run_stages(ex, tasks, seconds, o.remaining ? result_of : no_results);
  const RunStages sizes = st;  // before --remaining drops what is done
  const RemainingWork w = drop_done(st.stages, result_of, o.remaining);
  const bool all_fitted = std::all_of(features.begin(), features.end(), [&](const CostFeatures& x) {
    return tt.model.fitted(x.method);
  });
  const bool in_seconds =
      o.with_costs && (tt.model.calibrated() || all_fitted || tt.measured == tasks.size());
  const char* unit = in_seconds ? "s" : "cost units";
  print_plan_sources(a, ex, sizes, tasks.size(), tt, o, w);
  // Start-up is in seconds: it joins the replay only when the task times are seconds too.
  p.start_seconds = o.start_given;
  p.check_seconds = a.flag("--check") ? o.check_given : check_measured;
  std::printf("start-up %.3g s: process start %.3g s (%s), rank 0's data check %.3g s (%s)%s\n",
              p.start_seconds + p.check_seconds, p.start_seconds,
              a.flag("--start") ? "--start" : "measured on a 2-core machine; --start S",
              p.check_seconds, a.flag("--check") ? "--check" : "timed just now; --check S",
              in_seconds ? "" : ", left out of the cost-unit replay");
  if (!in_seconds) p.start_seconds = p.check_seconds = 0;
  if (o.remaining && w.left == 0) {
    std::printf("nothing remains: a resume would only stamp the file finished\n");
    return 0;
  }
  double total = 0, longest = 0;
  for (const auto& order : st.stages)
    for (std::uint64_t id : order) {
      total += seconds[id];
      longest = std::max(longest, seconds[id]);
    }
  std::printf("work %.4g %s, longest task %.4g %s\n", total, unit, longest, unit);
  print_memory(peak, limit);
  print_placement(peak, mem.node);
  const std::vector<double> bytes =
      peak.big.empty() ? std::vector<double>{} : task_memory(ex, tasks, shapes, full);
  std::printf("\n");
  std::printf("%8s %12s %10s %10s %12s %12s %12s\n", "ranks", "wall", "efficiency", "messages",
              "load min", "load median", "load max");
  for (int r : o.ranks) {
    p.ranks = r;
    const std::vector<NodeMemory> nodes = planned_nodes(r, per_node, mem.node.budget);
    const RankPlan rp =
        plan_rank_count(ex, tasks, st.stages, seconds, p, bytes, peak.resident_bytes, nodes);
    print_rank_plan(r, rp, nodes, per_node, unit);
  }
  return 0;
}

void print_method(const MethodInfo& m) {
  std::printf("%s  [%s]%s%s%s\n    %s\n", m.name.c_str(), m.family.c_str(),
              m.supervised ? " supervised" : "",
              m.out_of_sample ? " out-of-sample" : " transductive-only",
              m.iterative ? " iterative" : "", m.summary.c_str());
  if (!m.reference.empty()) std::printf("    reference: %s\n", m.reference.c_str());
  for (const auto& p : m.params)
    std::printf("    %-16s %-6s default %-10s range %-22s %s\n", p.name.c_str(),
                type_name(p.type).c_str(), to_string(p.default_value).c_str(),
                p.range_text().c_str(), p.doc.c_str());
}

// The registry as markdown: the table of methods (README.md, docs/methods.md) and, after a
// `<!-- parameters -->` line, which methods declare each parameter name (docs/parameters.md's
// methods column). scripts/gen_docs.py splices both into the docs; a test keeps them fresh.
void print_markdown(const Registry& reg) {
  auto cell = [](std::string t) {
    for (std::size_t i = 0; (i = t.find('|', i)) != std::string::npos; i += 2) t.insert(i, "\\");
    return t;
  };
  std::map<std::string, std::vector<std::string>> by_family;
  std::map<std::string, std::set<std::string>> users;
  for (const auto& m : reg.all()) {
    if (!m.configured_from.empty()) continue;
    by_family[m.family].push_back(m.name);
    for (const auto& p : m.params) users[p.name].insert(m.name);
  }
  std::cout << "| family | method | new points | labels | summary |\n|---|---|---|---|---|\n";
  for (const auto& [family, names] : by_family)
    for (const auto& n : names) {
      const MethodInfo& m = *reg.find(n);
      std::cout << "| " << family << " | `" << n << "` | "
                << (m.out_of_sample ? "mapped" : "transductive") << " | "
                << (m.supervised ? "supervised" : "-") << " | " << cell(m.summary) << " |\n";
    }
  std::cout << "<!-- parameters -->\n";
  for (const auto& [name, methods] : users) {
    std::cout << name << "\t";
    const char* sep = "";
    for (const auto& m : methods) std::cout << std::exchange(sep, ", ") << m;
    std::cout << "\n";
  }
}

int cmd_methods(int argc, char** argv) {
  const auto& reg = Registry::instance();
  if (argc == 3 && std::string(argv[2]) == "--markdown") {
    print_markdown(reg);
    return 0;
  }
  if (argc >= 3 && std::string(argv[2]) == "--migrate") {
    Args a = parse_args(argc, argv, 3, {"--from-version"}, {});
    if (!a.pos.empty()) return usage_error("methods --migrate reads its settings on stdin");
    const int from =
        static_cast<int>(whole_number("--from-version", a.value("--from-version", "1")));
    if (from < 1 || from > kSettingsVersion)
      return usage_error("--from-version " + std::to_string(from) +
                         ": settings versions are 1 to " + std::to_string(kSettingsVersion));
    std::string line;
    for (int n = 1; std::getline(std::cin, line); ++n) {
      const std::size_t tab = line.find('\t');
      const MethodInfo* m = tab == std::string::npos ? nullptr : reg.find(line.substr(0, tab));
      if (!m)
        throw Error("stdin line " + std::to_string(n) + ": '" + line +
                    "' is not METHOD<tab>SETTING with a registered method (fix: drbench methods "
                    "lists them)");
      std::cout << m->migrate_setting(line.substr(tab + 1), from) << "\n";
    }
    return 0;
  }
  if (argc >= 3) {
    const MethodInfo* m = reg.find(argv[2]);
    if (!m) {
      std::string known;
      for (const auto& n : reg.names()) known += (known.empty() ? "" : ", ") + n;
      throw Error(std::string("unknown method '") + argv[2] + "' (fix: one of " + known + ")");
    }
    print_method(*m);
    return 0;
  }
  for (const auto& m : reg.all()) print_method(m);
  return 0;
}

int cmd_info(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, {}, {"--settings", "--settings-version", "--progress"});
  if (a.flag("--settings-version")) {
    if (!a.pos.empty() || a.flag("--settings") || a.flag("--progress"))
      return usage_error("--settings-version takes no results file and no other option");
    std::cout << kSettingsVersion << "\n";
    return 0;
  }
  if (a.pos.empty()) return usage_error("info needs a RESULTS.h5 (fix: drbench info results/x.h5)");
  if (a.flag("--progress")) {
    if (a.flag("--settings")) return usage_error("--progress and --settings do not go together");
    std::cout << "file\ttasks\texpected\tfinished\tjournal\tjournal_tasks\tleft\n";
    for (const auto& p : a.pos) std::cout << progress_record(p) << "\n";
    return 0;
  }
  if (a.flag("--settings")) {
    // The one migration of renamed parameters (MethodInfo::migrate_setting, in read_results),
    // for readers in other languages.
    std::cout << "file\tsettings_version\tid\tsetting\tkey\n";
    for (const auto& p : a.pos) {
      const ResultsFile f = read_results(p);
      for (const auto& row : f.tasks)
        std::cout << p << "\t" << f.settings_version << "\t" << row.result.task_id << "\t"
                  << row.setting << "\t" << row.result.key << "\n";
    }
    return 0;
  }
  for (const auto& p : a.pos) std::cout << describe_results(p) << (a.pos.size() > 1 ? "\n" : "");
  return 0;
}

// The Levina-Bickel estimate (k = 6..12, the 2009 review's) of every training partition a
// config's tasks are fitted on, preprocessed as its tasks see them, and per dataset the rounded
// mean: the `dims` the review's protocol would set. One process, the plan's own partitions, so
// the numbers do not depend on ranks.
int cmd_intrinsic_dim(const Args& a) {
  const Experiment ex = load_experiment(a.value("--intrinsic-dim"), profile_of(a), {});
  TaskRunner runner(ex, data_search_path(ex.data_path));
  std::set<std::string> seen;
  std::map<std::size_t, std::vector<double>> per_dataset;
  std::printf("dataset\tsplit\trepeat\tn\td\tmle\n");
  for (const Task& t : expand_tasks(ex)) {
    const std::string group = prepared_key(ex, t);
    if (t.fold >= 0 || !seen.insert(group).second) continue;
    const auto prep = runner.prepared(t);
    const arma::mat X = prep->Xfit.cols(prep->train_pos);
    const std::string& name = ex.datasets.at(t.dataset).name;
    std::printf("%s\t%s\t%d\t%llu\t%llu\t", name.c_str(),
                split_label(ex.splits, t.split_value).c_str(), t.repeat,
                static_cast<unsigned long long>(X.n_cols),
                static_cast<unsigned long long>(X.n_rows));
    if (X.n_cols <= 12) {
      std::printf("n/a (needs more than 12 training points)\n");
      continue;
    }
    const double m = mle_intrinsic_dimension(X, 6, 12);
    per_dataset[t.dataset].push_back(m);
    std::printf("%.3f\n", m);
  }
  std::printf("\ndataset\tpartitions\tmean\tmin\tmax\tdims\n");
  for (const auto& [i, v] : per_dataset) {
    const arma::vec e(v);
    std::printf("%s\t%zu\t%.3f\t%.3f\t%.3f\t%lld\n", ex.datasets.at(i).name.c_str(), v.size(),
                arma::mean(e), e.min(), e.max(),
                static_cast<long long>(std::max(1.0, std::round(arma::mean(e)))));
  }
  return 0;
}

int cmd_datasets(int argc, char** argv) {
  // Downloading is Python's urllib (python/drbench/fetch.py): "fetch" becomes the module's argv[1].
  if (argc > 2 && std::string(argv[2]) == "fetch") return cmd_python("fetch", argc - 1, argv + 1);
  Args a = parse_args(argc, argv, 2, {"--data-path", "--intrinsic-dim", "--profile"}, {});
  if (a.flag("--intrinsic-dim")) {
    if (a.flag("--data-path"))
      return usage_error("--intrinsic-dim reads the data path from its config; drop --data-path");
    return cmd_intrinsic_dim(a);
  }
  if (a.flag("--data-path") && !std::filesystem::is_directory(a.value("--data-path")))
    return usage_error("--data-path " + a.value("--data-path") +
                       ": no such directory (fix: give the folder that holds the datasets, e.g. "
                       "--data-path ../shared/datasets)");
  const auto path = data_search_path(a.value("--data-path"));
  std::printf("data path (searched in order):\n");
  for (const auto& p : path) std::printf("  %s\n", p.c_str());
  std::printf("\ndatasets found:\n");
  for (const auto& e : list_data_path(path))
    std::printf("  %-14s %s  %s\n", e.name.c_str(), e.file.c_str(), e.note.c_str());
  std::printf("\ngenerators (source: generator):\n");
  for (const auto& g : generators()) {
    std::printf("  %-14s %s\n", g.name.c_str(), g.summary.c_str());
    for (const auto& p : g.params)
      std::printf("    %-12s %-6s default %-8s range %s\n", p.name.c_str(),
                  type_name(p.type).c_str(), to_string(p.default_value).c_str(),
                  p.range_text().c_str());
  }
  return 0;
}

}  // namespace

// Below this address-space limit (ulimit -v, prlimit --as) drbench cannot start: OpenBLAS's
// threads map their buffers at load time and retry a failed map forever, and MPI_Init maps more
// (measured on 2 cores: 200 MiB spun until killed, 400 MiB failed inside MPI_Init, 1 GiB ran).
constexpr double kAddressSpaceFloor = double(1ull << 30);

// Refuses a tiny address space at once, before anything waits on those threads. _exit: the
// library's exit handlers would join a thread that never returns.
static void refuse_tiny_address_space(const std::string& cmd) {
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY ||
      double(as.rlim_cur) >= kAddressSpaceFloor ||
      (cmd != "run" && cmd != "validate" && cmd != "plan"))
    return;
  std::fprintf(stderr,
               "drbench: the address-space limit of this process (ulimit -v, prlimit --as) is "
               "%s, below the %s drbench needs before any task (memory model: MPI and OpenBLAS "
               "map their buffers at start; each task's memory comes on top, and the limit is "
               "the node's memory budget) (fix: raise the limit to at least %s, or remove it "
               "with ulimit -v unlimited)\nNothing was run or written.\n",
               format_bytes(double(as.rlim_cur)).c_str(), format_bytes(kAddressSpaceFloor).c_str(),
               format_bytes(kAddressSpaceFloor).c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

int main(int argc, char** argv) {
  if (argc >= 2) refuse_tiny_address_space(argv[1]);
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  try {
    if (cmd == "--version" || cmd == "version") {
      set_blas_threads(1);
      std::printf("drbench %s\nBLAS/LAPACK: %s\n", drbench::version(),
                  drbench::blas_description().c_str());
      return 0;
    }
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (cmd == "run") return cmd_run(argc, argv);
    // Commands other than run are single-process; BLAS stays single-threaded for predictability.
    set_blas_threads(1);
    if (cmd == "validate") return cmd_validate(argc, argv);
    if (cmd == "aggregate") return cmd_aggregate(argc, argv);
    if (cmd == "plan") return cmd_plan(argc, argv);
    if (cmd == "methods") return cmd_methods(argc, argv);
    if (cmd == "plot") return cmd_python("plot", argc, argv);
    if (cmd == "report") return cmd_python("report", argc, argv);
    if (cmd == "datasets") return cmd_datasets(argc, argv);
    if (cmd == "info") return cmd_info(argc, argv);
    return usage_error("unknown command '" + cmd + "'");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "drbench: %s\n", e.what());
    return 2;
  }
}
