// Results files that cannot silently lie: checksummed datasets, output paths that are directories
// refused, journal drops reported, resume across a reformatted config, embeddings that say which
// points they are, and the tidy long table.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "framework/core/error.hpp"
#include "framework/results/aggregate.hpp"
#include "framework/results/reader.hpp"
#include "framework/results/render.hpp"
#include "framework/results/store.hpp"
#include "framework/support/build_info.hpp"
#include "framework/support/h5.hpp"
#include "test_results_fixture.hpp"

using namespace drbench;
using namespace drbench::testing;
namespace fs = std::filesystem;

namespace {

RunInfo info() {
  return toy_run_info("t", "now");
}

// The toy experiment with a complete results file at <dir>/toy.h5.
Experiment write_toy(const TempDir& dir) {
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  const auto tasks = toy_tasks(ex);
  ResultsStore store(ex, tasks, info(), false);
  for (const auto& t : tasks) store.add(toy_result(t, 0.1 + 0.01 * double(t.id % 7), 0.2));
  store.write_hdf5();
  return ex;
}

// File offset and size of the first chunk of /tasks/<name>.
std::pair<haddr_t, hsize_t> first_chunk(const std::string& path, const std::string& name) {
  h5::Quiet q;
  h5::File f = h5::open_file(path, false);
  h5::Handle d(H5Dopen2(f.h, ("tasks/" + name).c_str(), H5P_DEFAULT), H5Dclose);
  REQUIRE(d.get() >= 0);
  h5::Handle dcpl(H5Dget_create_plist(d), H5Pclose);
  CHECK(H5Pget_layout(dcpl) == H5D_CHUNKED);
  bool fletcher = false;
  for (int i = 0; i < H5Pget_nfilters(dcpl); ++i) {
    unsigned flags = 0;
    size_t n = 0;
    unsigned cd[4];
    char fname[64];
    unsigned config = 0;
    if (H5Pget_filter2(dcpl, i, &flags, &n, cd, sizeof fname, fname, &config) ==
        H5Z_FILTER_FLETCHER32)
      fletcher = true;
  }
  CHECK(fletcher);
  hsize_t offset[2] = {0, 0};
  unsigned mask = 0;
  haddr_t addr = 0;
  hsize_t size = 0;
  h5::Handle space(H5Dget_space(d), H5Sclose);
  REQUIRE(H5Dget_chunk_info(d, space, 0, offset, &mask, &addr, &size) >= 0);
  return {addr, size};
}

}  // namespace

TEST_CASE("a results file with flipped bytes in its task table is refused",
          "[results][integrity]") {
  TempDir dir;
  const Experiment ex = write_toy(dir);
  REQUIRE_NOTHROW(aggregate(read_results(ex.output.path)));
  for (const char* column : {"knn_error", "split_value", "status"}) {
    DYNAMIC_SECTION(column) {
      const auto [addr, size] = first_chunk(ex.output.path, column);
      REQUIRE(size > 8);
      {
        std::fstream f(ex.output.path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(static_cast<std::streamoff>(addr + 3));
        char b[2];
        f.read(b, 2);
        b[0] ^= 0x5a;
        b[1] ^= 0x21;
        f.seekp(static_cast<std::streamoff>(addr + 3));
        f.write(b, 2);
      }
      CHECK_THROWS_WITH(read_results(ex.output.path),
                        Catch::Contains(ex.output.path) && Catch::Contains(column) &&
                            Catch::Contains("damaged") && Catch::Contains("checksum"));
    }
  }
}

// Offset of the last record of the first string heap collection ("GCOL"), found by walking its
// records the way the format lays them out (16-byte headers, data padded to 8 bytes).
std::streamoff last_heap_record(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string b{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto u64 = [&](std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t(static_cast<unsigned char>(b[at + i])) << 8 * i;
    return v;
  };
  const std::size_t at = b.find(std::string("GCOL\x01", 5));
  REQUIRE(at != std::string::npos);
  const std::size_t end = at + u64(at + 8);
  std::size_t last = 0;
  for (std::size_t p = at + 16; p + 16 <= end;) {
    last = p;
    const bool free_space = b[p] == 0 && b[p + 1] == 0;
    p += free_space ? u64(p + 8) : 16 + (u64(p + 8) + 7) / 8 * 8;
  }
  REQUIRE(last > 0);
  return static_cast<std::streamoff>(last);
}

TEST_CASE("a damaged string heap is refused instead of hanging libhdf5", "[results][integrity]") {
  TempDir dir;
  const Experiment ex = write_toy(dir);
  REQUIRE_NOTHROW(read_results(ex.output.path));
  const std::streamoff record = last_heap_record(ex.output.path);
  // A free-space record (index 0) of size 0 is what libhdf5 1.10 loops on forever; a string
  // record of 2^40 bytes would run past the collection.
  for (const auto& [index, size] :
       {std::pair<int, std::uint64_t>{0, 0}, {1, std::uint64_t{1} << 40}}) {
    DYNAMIC_SECTION("record " << index << " of " << size << " bytes") {
      {
        std::fstream f(ex.output.path, std::ios::in | std::ios::out | std::ios::binary);
        char bytes[16] = {};
        f.seekg(record);
        f.read(bytes, 16);
        bytes[0] = static_cast<char>(index);
        bytes[1] = 0;
        for (int i = 0; i < 8; ++i) bytes[8 + i] = static_cast<char>((size >> (8 * i)) & 0xff);
        f.seekp(record);
        f.write(bytes, 16);
      }
      CHECK_THROWS_WITH(read_results(ex.output.path),
                        Catch::Contains(ex.output.path) && Catch::Contains("string heap") &&
                            Catch::Contains("damaged") && Catch::Contains("fix:"));
    }
  }
  SECTION("the fuzzer's file") {
    CHECK_THROWS_WITH(
        read_results(std::string(drbench::source_dir()) + "/fuzz/known/results-hdf5-heap-hang.h5"),
        Catch::Contains("string heap"));
  }
}

TEST_CASE("an output path that is a directory is refused before anything is created",
          "[results][integrity]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.path.string());
  const auto tasks = toy_tasks(ex);
  CHECK_THROWS_WITH(ResultsStore(ex, tasks, info(), false),
                    Catch::Contains("is a directory, not a results file"));
  CHECK(!fs::exists(dir.path.string() + ".lock"));
  CHECK(!fs::exists(dir.path.string() + ".journal"));
  CHECK_THROWS_WITH(check_output_path(dir.file("sub/"), "--output"),
                    Catch::Contains("--output: '") && Catch::Contains("fix: name a file"));
  CHECK_NOTHROW(check_output_path(dir.file("sub/x.h5"), "--output"));
}

TEST_CASE("resume accepts a commented, reformatted config", "[results][integrity]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  const auto tasks = toy_tasks(ex);
  write_snapshot_and_journal(ex, tasks, info());
  Experiment edited = ex;
  edited.text =
      "# comment\nsplits:\n  repeats: 2\n  per_class: [5, 10]\nseed: 7   # x\nname: toy\n";
  ResultsStore store(edited, tasks, info(), false);
  CHECK(store.n_done() == 2);
}

TEST_CASE("dropped journal records are reported", "[results][integrity]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  const auto tasks = toy_tasks(ex);
  {
    ResultsStore store(ex, tasks, info(), false);
    store.set_snapshot_interval(1e9);
    for (int i = 0; i < 3; ++i) store.add(toy_result(tasks[i], 0.5, 0.25));
    store.commit();
  }
  // Damage the second record: it and everything after it are dropped, and that is said.
  const std::string jp = ex.output.path + ".journal";
  std::string bytes;
  {
    std::ifstream in(jp, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() * 2 / 3] ^= 0x40;
  {
    std::ofstream out(jp, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  std::stringstream captured;
  auto* old = std::cerr.rdbuf(captured.rdbuf());
  std::size_t done = 0;
  try {
    ResultsStore store(ex, tasks, info(), false);
    done = store.n_done();
  } catch (...) {
    std::cerr.rdbuf(old);
    throw;
  }
  std::cerr.rdbuf(old);
  CHECK(done < 3);
  CHECK_THAT(captured.str(),
             Catch::Contains("dropped") &&
                 Catch::Contains(std::to_string(done) + " task result(s) recovered"));
}

TEST_CASE("embeddings carry point indices and labels through the file", "[results][integrity]") {
  TempDir dir;
  Experiment ex = toy_experiment(dir.file("toy.h5"));
  ex.output.keep_embeddings = true;
  const auto tasks = toy_tasks(ex);
  TaskResult r = toy_result(tasks[0], 0.1, 0.2);
  r.embedding_train = arma::mat(2, 3, arma::fill::randu);
  r.embedding_test = arma::mat(2, 2, arma::fill::randu);
  r.index_train = {4, 7, 9};
  r.index_test = {0, 5};
  r.label_train = {1, 0, 2};
  r.label_test = {2, 2};
  // Through the journal's byte encoding too (MPI messages use it).
  const TaskResult back = TaskResult::deserialize(r.serialize());
  CHECK(arma::all(back.index_train == r.index_train));
  CHECK(arma::all(back.label_test == r.label_test));
  {
    ResultsStore store(ex, tasks, info(), false);
    store.add(r);
    store.write_hdf5();
  }
  const ResultsFile f = read_results(ex.output.path, true);
  REQUIRE(f.tasks.size() == 1);
  const TaskResult& got = f.tasks[0].result;
  CHECK(arma::all(got.index_train == r.index_train));
  CHECK(arma::all(got.index_test == r.index_test));
  CHECK(arma::all(got.label_train == r.label_train));
  CHECK(arma::all(got.label_test == r.label_test));
}

TEST_CASE("long table, all settings, filters; csv on stdout has one header",
          "[results][aggregate]") {
  TempDir dir;
  const Experiment ex = write_toy(dir);
  const Aggregate a = aggregate(read_results(ex.output.path));
  const std::string csv = render_tables(a, "csv");
  std::size_t headers = 0;
  for (std::size_t p = 0; (p = csv.find("dataset,method", p)) != std::string::npos; ++p) ++headers;
  CHECK(headers == 1);
  const std::string chosen = to_long_csv(a, false), all = to_long_csv(a, true);
  CHECK_THAT(chosen, Catch::StartsWith("dataset,method,split_kind,split_value,dim,k,mean_error_pct,"
                                       "std_error_pct,n,repeats,p_value,worse,setting,chosen,"
                                       "failed\n"));
  auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  // 2 datasets x 2 methods x 2 split values x 2 k; KDA has 2 settings.
  CHECK(lines(chosen) == 1 + 16);
  CHECK(lines(all) == 1 + 16 + 8);
  AggregateFilter f;
  f.dataset = "wine";
  f.k = 3;
  const Aggregate w = filter_aggregate(a, f);
  CHECK(w.k == std::vector<int>{3});
  CHECK(lines(to_long_csv(w, false)) == 1 + 4);
  CHECK(make_tables(w).size() == 1);
  f.dataset = "iris";
  CHECK_THROWS_WITH(filter_aggregate(a, f), Catch::Contains("usps, wine"));
  AggregateFilter d;
  d.dim = 5;
  CHECK_THROWS_WITH(filter_aggregate(a, d), Catch::Contains("--dim 5"));
}
