// Time order in datasets: HDF5 `sequence`/`order` columns, `sequences: classes`, `classes`.
#include <hdf5.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/load.hpp"
#include "framework/data/split.hpp"
#include "tests/unit/h5_helpers.hpp"

namespace fs = std::filesystem;
using namespace drbench;

using testing::write_dataset;

TEST_CASE("HDF5 sequence and order columns put each sequence in time order", "[data_sequence]") {
  const fs::path dir = fs::temp_directory_path() / ("drbench_seq_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string file = (dir / "seq.h5").string();
  // 6 points (1-D feature = its own id), two sequences stored shuffled in time.
  const std::vector<double> X = {0, 1, 2, 3, 4, 5};
  const std::vector<std::int32_t> y = {0, 0, 1, 1, 0, 1}, seq = {1, 0, 1, 0, 0, 1},
                                  order = {2, 1, 0, 0, 2, 1};
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(f, "X", H5T_NATIVE_DOUBLE, {6, 1}, X.data());
  write_dataset(f, "y", H5T_NATIVE_INT32, {6}, y.data());
  write_dataset(f, "sequence", H5T_NATIVE_INT32, {6}, seq.data());
  write_dataset(f, "order", H5T_NATIVE_INT32, {6}, order.data());
  H5Fclose(f);
  const Dataset ds = read_hdf5_dataset(file);
  // Sequence 0: points 3 (t=0), 1 (t=1), 4 (t=2); sequence 1: 2 (t=0), 5 (t=1), 0 (t=2).
  CHECK(arma::approx_equal(arma::vec(ds.X.row(0).t()), arma::vec{3, 1, 4, 2, 5, 0}, "absdiff", 0));
  CHECK(arma::all(ds.sequence == arma::uvec{0, 0, 0, 1, 1, 1}));
  CHECK(arma::all(ds.y == arma::uvec{1, 0, 0, 1, 1, 0}));
  fs::remove_all(dir);
}

TEST_CASE("classes keeps and relabels a subset; sequences: classes orders by file order",
          "[data_sequence]") {
  DatasetSpec spec;
  spec.name = "iris";
  spec.source = "bundled";
  spec.classes = {2, 0};
  spec.sequences = "classes";
  const Dataset ds = load_dataset(spec, {}, 1);
  CHECK(ds.n() == 100);
  CHECK(ds.n_classes == 2);
  CHECK(arma::accu(ds.y == 0) == 50);  // old class 2
  CHECK(arma::all(ds.sequence == ds.y));
  // Sorted partitions keep time order inside a sequence.
  SplitsSpec sp;
  sp.kind = SplitsSpec::Kind::PerClass;
  sp.values = {10};
  const Partition p = make_partition(ds, sp, 10, 3);
  CHECK(p.train.is_sorted());
  spec.classes = {7};
  CHECK_THROWS_AS(load_dataset(spec, {}, 1), DataError);
}
