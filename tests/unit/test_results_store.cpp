#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "framework/core/error.hpp"
#include "framework/results/reader.hpp"
#include "framework/results/store.hpp"
#include "framework/support/bytes.hpp"
#include "framework/support/h5.hpp"
#include "test_results_fixture.hpp"

using namespace drbench;
using namespace drbench::testing;
namespace fs = std::filesystem;

namespace {

RunInfo run_info() {
  return toy_run_info("0.1.0", "2026-11-21T20:00:00Z", "openblas", "testhost", 4);
}

// A journal record as the store frames one: its length and CRC-32, then the type byte and body.
std::string journal_record(char type, const std::string& body) {
  std::string payload = std::string(1, type) + body;
  ByteWriter w;
  w.u32(static_cast<std::uint32_t>(payload.size()));
  w.u32(crc32(payload));
  return w.take() + payload;
}

}  // namespace

TEST_CASE("ResultsStore resumes finished tasks from the HDF5 file", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("out/nested/toy.h5"));
  auto tasks = toy_tasks(ex);
  {
    ResultsStore store(ex, tasks, run_info(), false);
    CHECK(fs::is_directory(dir.file("out/nested")));  // parent dirs created
    CHECK(store.n_done() == 0);
    for (std::size_t i : {0, 3, 7}) store.add(toy_result(tasks[i], 0.1 * i, 0.2));
    store.write_hdf5();
    CHECK(fs::exists(ex.output.path));
    CHECK(fs::exists(ex.output.path + ".journal"));  // run not complete: journal stays, emptied
    CHECK(!fs::exists(ex.output.path + ".tmp"));
  }
  ResultsStore again(ex, tasks, run_info(), false);
  CHECK(again.n_done() == 3);
  CHECK(again.done(0));
  CHECK(again.done(3));
  CHECK(again.done(7));
  CHECK(!again.done(1));
  CHECK(again.results().at(7).knn_error[0] == Approx(0.7));
}

TEST_CASE("ResultsStore recovers results from the journal alone (as after kill -9)", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  {
    ResultsStore store(ex, tasks, run_info(), false);
    store.set_snapshot_interval(1e9);
    for (std::size_t i = 0; i < 4; ++i) store.add(toy_result(tasks[i], 0.5, 0.25));
    store.commit();
    store.add(toy_result(tasks[4], 0.5, 0.25));  // never committed: lost, as it was never reported
  }  // destroyed without write_hdf5: only the journal has them
  CHECK(!fs::exists(ex.output.path));
  ResultsStore again(ex, tasks, run_info(), false);
  CHECK(again.n_done() == 4);
  CHECK(!again.done(4));
  again.write_hdf5();
  CHECK(read_results(ex.output.path).tasks.size() == 4);
}

TEST_CASE("ResultsStore ignores a truncated or corrupt last journal record", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  std::string journal = ex.output.path + ".journal";
  {
    ResultsStore store(ex, tasks, run_info(), false);
    store.set_snapshot_interval(1e9);
    for (std::size_t i = 0; i < 3; ++i) store.add(toy_result(tasks[i], 0.5, 0.25));
    store.commit();
  }
  auto size = fs::file_size(journal);
  SECTION("cut in the middle of the last record") {
    fs::resize_file(journal, size - 5);
  }
  SECTION("last record's bytes damaged") {
    std::fstream f(journal, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 3));
    f.put('\x55');
  }
  SECTION("half a record header at the end") {
    fs::resize_file(journal, size - (size - 8) / 4);  // somewhere inside the last record
    std::ofstream(journal, std::ios::app | std::ios::binary).write("\x10\x00", 2);
  }
  {
    ResultsStore store(ex, tasks, run_info(), false);
    CHECK(store.n_done() == 2);
    CHECK(store.done(0));
    CHECK(store.done(1));
    CHECK(!store.done(2));
    // The torn tail is cut off, so a record appended now is readable after it.
    store.set_snapshot_interval(1e9);
    store.add(toy_result(tasks[5], 0.5, 0.25));
    store.commit();
  }
  ResultsStore again(ex, tasks, run_info(), false);
  CHECK(again.n_done() == 3);
  CHECK(again.done(5));
}

TEST_CASE("ResultsStore removes the journal when every task is written", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  {
    ResultsStore store(ex, tasks, run_info(), false);
    for (const auto& t : tasks) store.add(toy_result(t, 0.5, 0.25));
    store.write_hdf5();
  }
  CHECK(!fs::exists(ex.output.path + ".journal"));
  ResultsFile f = read_results(ex.output.path);
  CHECK(f.tasks.size() == tasks.size());
  CHECK(!f.finished.empty());
  CHECK(f.n_tasks == tasks.size());
  {
    // Rerunning a finished experiment only opens the file: no journal appears.
    ResultsStore again(ex, tasks, run_info(), false);
    CHECK(again.n_done() == tasks.size());
  }
  CHECK(!fs::exists(ex.output.path + ".journal"));
}

TEST_CASE("ResultsStore refuses a changed config and starts over with force_new", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  write_snapshot_and_journal(ex, tasks, run_info());
  Experiment changed = ex;
  changed.text += "repeats_note: 1\n";  // a real change (a comment alone is not one)
  SECTION("the HDF5 file names the problem and the fix") {
    try {
      ResultsStore store(changed, tasks, run_info(), false);
      FAIL("a changed config was accepted");
    } catch (const Error& e) {
      std::string msg = e.what();
      CHECK_THAT(msg, Catch::Contains(ex.output.path));
      CHECK_THAT(msg, Catch::Contains("config changed"));
      CHECK_THAT(msg, Catch::Contains("--force-new"));
    }
  }
  SECTION("a journal without a file is checked too") {
    fs::remove(ex.output.path);
    CHECK_THROWS_WITH(
        ResultsStore(changed, tasks, run_info(), false),
        Catch::Contains(ex.output.path + ".journal") && Catch::Contains("--force-new"));
  }
  SECTION("force_new moves the old results aside") {
    ResultsStore store(changed, tasks, run_info(), true);
    CHECK(store.n_done() == 0);
    CHECK(fs::exists(ex.output.path + ".bak"));
    CHECK(fs::exists(ex.output.path + ".journal.bak"));
    CHECK(read_results(ex.output.path + ".bak").tasks.size() == 1);
    store.add(toy_result(tasks[2], 0.5, 0.25));
    store.write_hdf5();
    CHECK(read_results(ex.output.path).config == changed.text);
  }
}

TEST_CASE("ResultsStore rejects results that are not tasks of this experiment", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  ResultsStore store(ex, tasks, run_info(), false);
  TaskResult r = toy_result(tasks[1], 0.5, 0.25);
  r.task_id = tasks.size();
  CHECK_THROWS_AS(store.add(r), Error);
  r = toy_result(tasks[1], 0.5, 0.25);
  r.key = tasks[2].key;
  CHECK_THROWS_WITH(store.add(r), Catch::Contains("key"));
  CHECK(store.n_done() == 0);
}

TEST_CASE("Results file round trip: tasks table, embeddings, traces", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  TaskResult ok = toy_result(tasks[4], 0.125, 0.375);
  ok.embedding_train = arma::reshape(arma::regspace<arma::vec>(1, 6), 2, 3);  // dim 2, 3 points
  ok.embedding_test = arma::mat(2, 5, arma::fill::value(0.5));
  ok.trace.optimizer = "scg";
  ok.trace.log(0, 3.0, 1.0, 0.0);
  ok.trace.log(1, 2.0, 0.5, 0.25);
  ok.trace.note("jitter", "1e-6");
  TaskResult failed = toy_result(tasks[1], 0, 0, false);
  {
    ResultsStore store(ex, tasks, run_info(), false);
    store.add(ok);
    store.add(failed);
    store.write_hdf5();
  }
  ResultsFile f = read_results(ex.output.path, true);
  CHECK(f.name == "toy");
  CHECK(f.config == ex.text);
  CHECK(f.config_hash.size() == 16);
  CHECK(f.host == "testhost");
  CHECK(f.ranks == 4);
  CHECK(f.finished.empty());
  CHECK(f.ttest_reference == "KDA");
  CHECK(f.labels == std::vector<std::string>{"PCA", "KDA"});
  CHECK(f.datasets == std::vector<std::string>{"usps", "wine"});
  CHECK(f.k == std::vector<int>{1, 3});
  CHECK(f.knn_metric == "euclidean");
  CHECK(f.quality_names == std::vector<std::string>{"trustworthiness@10"});
  CHECK(f.quality_measure == std::vector<std::string>{"trustworthiness"});
  CHECK(f.quality_k == std::vector<int>{10});
  REQUIRE(f.tasks.size() == 2);
  const TaskRow& a = f.tasks[0];  // sorted by id: task 1 first
  CHECK(a.result.task_id == 1);
  CHECK(!a.result.ok);
  CHECK(a.result.error == failed.error);
  CHECK(a.result.knn_error.empty());
  const TaskRow& b = f.tasks[1];
  CHECK(b.result.task_id == 4);
  CHECK(b.result.key == tasks[4].key);
  CHECK(b.dataset == "usps");
  CHECK(b.split_kind == "per_class");
  CHECK(b.split_value == tasks[4].split_value);
  CHECK(b.repeat == tasks[4].repeat);
  CHECK(b.method == ex.methods[tasks[4].method].method);
  CHECK(b.label == ex.methods[tasks[4].method].label);
  CHECK(b.setting == tasks[4].setting.canonical());
  CHECK(b.dim == 2);
  CHECK(b.seed == tasks[4].seed);
  CHECK(b.split_seed == tasks[4].split_seed);
  CHECK(b.result.knn_error == std::vector<double>{0.125, 0.375});
  CHECK(b.result.quality == std::vector<double>{0.9});
  CHECK(b.result.quality_se == std::vector<double>{0.015625});
  CHECK(b.result.quality_queries == 80);
  CHECK(b.result.fit_seconds == ok.fit_seconds);
  CHECK(b.result.transform_seconds == ok.transform_seconds);
  CHECK(b.result.eval_seconds == ok.eval_seconds);
  CHECK(b.result.n_train == 20);
  CHECK(b.result.n_test == 80);
  CHECK(b.result.input_dim == 256);
  CHECK(b.result.rank == ok.rank);
  CHECK(arma::approx_equal(b.result.embedding_train, ok.embedding_train, "absdiff", 0.0));
  CHECK(arma::approx_equal(b.result.embedding_test, ok.embedding_test, "absdiff", 0.0));
  REQUIRE(b.result.trace.rows.size() == 2);
  CHECK(b.result.trace.rows[1].objective == 2.0);
  CHECK(b.result.trace.optimizer == "scg");
  CHECK(b.result.trace.notes == ok.trace.notes);

  // On disk the embedding is (n points, dim), one point per row, as h5py will show it.
  h5::File file = h5::open_file(ex.output.path, false);
  h5::Matrix m = h5::read_matrix(file, file.h, "embeddings/4/train");
  CHECK(m.rows == 3);
  CHECK(m.cols == 2);
  CHECK(m.data == std::vector<double>{1, 2, 3, 4, 5, 6});  // point j = (2j+1, 2j+2)
  h5::Matrix knn = h5::read_matrix(file, file.h, "tasks/knn_error");
  CHECK(knn.rows == 2);
  CHECK(std::isnan(knn.data[0]));  // failed row padded with NaN
}

TEST_CASE("Opening something that is not a results file fails with its name", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  std::ofstream(ex.output.path) << "not hdf5";
  CHECK_THROWS_WITH(ResultsStore(ex, tasks, run_info(), false),
                    Catch::Contains(ex.output.path) && Catch::Contains("not an HDF5 file"));
  CHECK_THROWS_WITH(read_results(dir.file("missing.h5")), Catch::Contains("missing.h5"));
}

TEST_CASE("ResultsStore handles a fresh force_new and an empty experiment", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  {
    ResultsStore store(ex, tasks, run_info(), true);  // nothing to move aside
    CHECK(!fs::exists(ex.output.path + ".bak"));
    store.write_hdf5();
  }
  ResultsFile f = read_results(ex.output.path);
  CHECK(f.tasks.empty());
  CHECK(f.finished.empty());
  std::vector<Task> none;
  ResultsStore empty(ex, none, run_info(), true);
  empty.write_hdf5();
  CHECK(read_results(ex.output.path).n_tasks == 0);
  CHECK(!fs::exists(ex.output.path + ".journal"));  // complete at once
}

TEST_CASE("A journal record with an intact checksum but unknown format is an error", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  ByteWriter text;
  text.str(ex.text);
  std::string result = toy_result(tasks[0], 0.1, 0.2).serialize();
  result[0] = 9;  // a future format version
  std::ofstream(ex.output.path + ".journal", std::ios::binary)
      << "DRBJNL01" << journal_record('C', text.bytes()) << journal_record('R', result);
  CHECK_THROWS_WITH(
      ResultsStore(ex, tasks, run_info(), false),
      Catch::Contains(ex.output.path + ".journal") && Catch::Contains("format version"));
}

TEST_CASE("ResultsStore refuses a second writer of the same file while the first is open",
          "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("locked.h5"));
  auto tasks = toy_tasks(ex);
  {
    ResultsStore first(ex, tasks, run_info(), false);
    try {
      ResultsStore second(ex, tasks, run_info(), false);
      FAIL("a second store on the same file was allowed");
    } catch (const Error& e) {
      CHECK_THAT(e.what(), Catch::Contains("another drbench run"));
      CHECK_THAT(e.what(), Catch::Contains("--output"));
    }
  }
  ResultsStore again(ex, tasks, run_info(), false);  // the lock went with the first store
  CHECK(again.n_done() == 0);
}

TEST_CASE("A journal from before graph versions is version 1, and no task joins it", "[results]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  auto tasks = toy_tasks(ex);
  const std::string journal = ex.output.path + ".journal";
  {
    ResultsStore store(ex, tasks, run_info(), false);
    store.set_snapshot_interval(1e9);
    store.add(toy_result(tasks[0], 0.1, 0.2));
    store.commit();
  }
  CHECK(read_journal(journal).graph_version == kGraphVersion);
  CHECK(read_journal(journal, false).records == 1);
  // The same journal as a build before the version wrote it: the config record without it.
  ByteWriter text;
  text.str(ex.text);
  std::ofstream(journal, std::ios::binary | std::ios::trunc)
      << "DRBJNL01" << journal_record('C', text.bytes())
      << journal_record('R', toy_result(tasks[0], 0.1, 0.2).serialize());
  const JournalContents old = read_journal(journal);
  CHECK(old.graph_version == 1);
  CHECK(old.results.size() == 1);
  {
    ResultsStore store(ex, tasks, run_info(), false);
    CHECK(store.n_done() == 1);
    const std::string why = store.mixing_refusal();
    CHECK_THAT(why, Catch::Contains(journal + ": its 1 finished task(s) were computed with "
                                              "neighbour graph version 1") &&
                        Catch::Contains("fix: rerun with --force-new"));
    CHECK_THROWS_WITH(store.add(toy_result(tasks[1], 0.1, 0.2)),
                      Catch::Contains("never mixes the two"));
    store.write_hdf5();  // what it holds is written as it was: version 1
  }
  CHECK(read_results(ex.output.path).graph_version == 1);
  ResultsStore fresh(ex, tasks, run_info(), true);
  CHECK(fresh.mixing_refusal().empty());
}
