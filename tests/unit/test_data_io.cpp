// Readers, checksums, the data path and load_dataset.
#include <hdf5.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/load.hpp"
#include "framework/support/build_info.hpp"
#include "support/shared_data.hpp"
#include "tests/unit/h5_helpers.hpp"

namespace fs = std::filesystem;
using namespace drbench;

namespace {

// A fresh directory per test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("drbench_data_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

using testing::write_dataset;

// X given row-major n x d, as the shared files store it.
void write_h5(const std::string& path, const std::vector<double>& X, hsize_t n, hsize_t d,
              const std::vector<std::int32_t>& y, const std::vector<std::int8_t>& split = {}) {
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(f >= 0);
  write_dataset(f, "X", H5T_NATIVE_DOUBLE, {n, d}, X.data());
  write_dataset(f, "y", H5T_NATIVE_INT32, {y.size()}, y.data());
  if (!split.empty()) write_dataset(f, "split", H5T_NATIVE_INT8, {split.size()}, split.data());
  H5Fclose(f);
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

void write_bytes(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// A ubyte IDX file of n images of rows x cols pixels: its header, then `pixels` (fewer than
// n rows cols of them make a truncated file).
void write_idx_images(const std::string& path, unsigned char n, unsigned char rows,
                      unsigned char cols, const std::vector<unsigned char>& pixels) {
  std::vector<unsigned char> bytes = {0, 0, 8, 3, 0, 0, 0, n, 0, 0, 0, rows, 0, 0, 0, cols};
  bytes.insert(bytes.end(), pixels.begin(), pixels.end());
  write_bytes(path, bytes);
}

// A ubyte IDX file of labels.
void write_idx_labels(const std::string& path, const std::vector<unsigned char>& labels) {
  std::vector<unsigned char> bytes = {0, 0, 8, 1,
                                      0, 0, 0, static_cast<unsigned char>(labels.size())};
  bytes.insert(bytes.end(), labels.begin(), labels.end());
  write_bytes(path, bytes);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sha256 matches the FIPS 180-4 test vectors", "[data]") {
  CHECK(sha256_string("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_string("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_string("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string million(1000000, 'a');
  CHECK(sha256_string(million) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  TempDir tmp;
  write_text(tmp.file("a.txt"), million);
  CHECK(sha256_file(tmp.file("a.txt")) == sha256_string(million));
}

TEST_CASE("HDF5 round trip: row-major X becomes one column per point", "[data]") {
  TempDir tmp;
  const std::vector<double> X = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // 4 points x 3 features
  write_h5(tmp.file("t.h5"), X, 4, 3, {0, 1, 1, 0}, {0, 0, 1, 1});
  const Dataset ds = read_hdf5_dataset(tmp.file("t.h5"));
  REQUIRE(ds.d() == 3);
  REQUIRE(ds.n() == 4);
  CHECK(ds.X(0, 1) == 4);
  CHECK(ds.X(2, 3) == 12);
  CHECK(ds.n_classes == 2);
  CHECK(arma::all(ds.y == arma::uvec{0, 1, 1, 0}));
  CHECK(arma::all(ds.split == arma::ivec{0, 0, 1, 1}));

  SECTION("uint8 images are converted to double") {
    const std::vector<std::uint8_t> pix = {0, 255, 17, 3};
    const hid_t f = H5Fcreate(tmp.file("u.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    write_dataset(f, "X", H5T_NATIVE_UINT8, {2, 2}, pix.data());
    const std::vector<std::int32_t> y = {0, 0};
    write_dataset(f, "y", H5T_NATIVE_INT32, {2}, y.data());
    H5Fclose(f);
    const Dataset u = read_hdf5_dataset(tmp.file("u.h5"));
    CHECK(u.X(1, 0) == 255.0);
    CHECK(u.X(0, 1) == 17.0);
    CHECK(u.split.is_empty());
  }
  SECTION("an X that claims more values than the file holds is refused before allocating") {
    // A contiguous X of 10^9 x 10^4 doubles that was never written: the file stores none of its
    // 80 TB, so a reader that trusted the shape would try to allocate them.
    const hid_t f = H5Fcreate(tmp.file("huge.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const std::vector<hsize_t> dims = {1000000000ull, 10000ull};
    const hid_t space = H5Screate_simple(2, dims.data(), nullptr);
    const hid_t d =
        H5Dcreate2(f, "X", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(d >= 0);
    H5Dclose(d);
    H5Sclose(space);
    const std::vector<std::int32_t> y = {0, 1};
    write_dataset(f, "y", H5T_NATIVE_INT32, {2}, y.data());
    H5Fclose(f);
    CHECK_THAT(message_of([&] { read_hdf5_dataset(tmp.file("huge.h5")); }),
               Catch::Contains("'X' (1000000000 x 10000) claims") && Catch::Contains("huge.h5"));
    // Compressed, an X may legitimately be larger than the file, but not beyond deflate's ratio.
    const hid_t g = H5Fcreate(tmp.file("gz.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const std::vector<hsize_t> gdims = {1000000ull, 1000ull}, chunk = {1000ull, 1000ull};
    const hid_t gspace = H5Screate_simple(2, gdims.data(), nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunk.data());
    H5Pset_deflate(dcpl, 6);
    const hid_t gd = H5Dcreate2(g, "X", H5T_NATIVE_DOUBLE, gspace, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    REQUIRE(gd >= 0);
    H5Dclose(gd);
    H5Pclose(dcpl);
    H5Sclose(gspace);
    write_dataset(g, "y", H5T_NATIVE_INT32, {2}, y.data());
    H5Fclose(g);
    CHECK_THAT(message_of([&] { read_hdf5_dataset(tmp.file("gz.h5")); }),
               Catch::Contains("'X' (1000000 x 1000) claims") && Catch::Contains("compression"));
    // A compact y claiming 3 values with no bytes stored: libhdf5 1.10.8 copies them from a null
    // address (h5py segfaults on this file), so the claim is refused before the read.
    CHECK_THAT(message_of([&] {
                 read_hdf5_dataset(std::string(drbench::source_dir()) +
                                   "/fuzz/known/dataset-libhdf5-contig-segv.h5");
               }),
               Catch::Contains("'y' (3) claims"));
    // The damaged file fuzz/fuzz_hdf5 found (X claims about 19 TB in 2 kB).
    CHECK_THROWS_AS(
        read_hdf5_dataset(std::string(drbench::source_dir()) + "/fuzz/known/dataset-huge-dims.h5"),
        DataError);
  }
  SECTION("missing y and wrong label count are named") {
    write_h5(tmp.file("bad.h5"), X, 4, 3, {0, 1, 1});
    CHECK_THAT(message_of([&] { read_hdf5_dataset(tmp.file("bad.h5")); }),
               Catch::Contains("'y'") && Catch::Contains("bad.h5"));
    write_text(tmp.file("text.h5"), "not hdf5");
    CHECK_THAT(message_of([&] { read_hdf5_dataset(tmp.file("text.h5")); }),
               Catch::Contains("not a readable HDF5 file"));
  }
}

TEST_CASE("Shared usps.h5 and iris.h5 load with verified checksums", "[data]") {
  const std::string usps = testing::shared_dataset("usps.h5");
  const std::string iris = testing::shared_dataset("iris.h5");
  if (usps.empty() || iris.empty()) return;
  DatasetSpec spec;
  spec.name = "usps";
  const Dataset u = load_dataset(spec, {fs::path(usps).parent_path().string()}, 1);
  CHECK(u.n() == 9298);
  CHECK(u.d() == 256);
  CHECK(u.n_classes == 10);
  CHECK(u.sha256 == "91f2d98d3af2d58c467d694d469cff4af2197a6443b18aaee392ffd1b424ec9d");
  CHECK(arma::accu(u.split == 0) == 7291);
  CHECK(arma::accu(u.split == 1) == 2007);
  CHECK(u.X.min() >= -1.0);
  CHECK(u.X.max() <= 1.0);

  spec.name = "iris";
  const Dataset i = load_dataset(spec, data_search_path(""), 1);
  CHECK(i.n() == 150);
  CHECK(i.d() == 4);
  CHECK(i.sha256 == sha256_file(iris));
  // The bundled CSV is the same sklearn copy as the shared HDF5 file.
  DatasetSpec b;
  b.name = "iris";
  b.source = "bundled";
  const Dataset ib = load_dataset(b, {}, 1);
  CHECK(arma::approx_equal(ib.X, i.X, "absdiff", 1e-12));
  CHECK(arma::all(ib.y == i.y));
}

TEST_CASE("A checksum mismatch names the file, both digests and the fix", "[data]") {
  TempDir tmp;
  write_h5(tmp.file("toy.h5"), {0, 1, 2, 3}, 2, 2, {0, 1});
  const std::string good = sha256_file(tmp.file("toy.h5"));
  DatasetSpec spec;
  spec.name = "toy";
  write_text(tmp.file("MANIFEST.tsv"), "name\tfile\tsha256\tn\nToy\ttoy.h5\t" + good + "\t2\n");
  CHECK(load_dataset(spec, {tmp.path.string()}, 0).sha256 == good);

  const std::string wrong(64, '0');
  write_text(tmp.file("MANIFEST.tsv"), "name\tfile\tsha256\tn\nToy\ttoy.h5\t" + wrong + "\t2\n");
  const std::string msg = message_of([&] { load_dataset(spec, {tmp.path.string()}, 0); });
  CHECK_THAT(msg, Catch::Contains("toy.h5") && Catch::Contains("expected " + wrong) &&
                      Catch::Contains(good) && Catch::Contains("fix:"));
  spec.verify_checksum = false;
  CHECK(load_dataset(spec, {tmp.path.string()}, 0).sha256.empty());
}

TEST_CASE("A missing file lists every place searched", "[data]") {
  TempDir a, b;
  DatasetSpec spec;
  spec.name = "nowhere";
  spec.line = 7;
  const std::string msg = message_of([&] {
    load_dataset(spec, {a.path.string(), b.path.string()}, 0);
  });
  CHECK_THAT(msg, Catch::Contains("nowhere.h5") && Catch::Contains(a.path.string()) &&
                      Catch::Contains(b.path.string()) && Catch::Contains("line 7") &&
                      Catch::Contains("DRBENCH_DATA"));
}

TEST_CASE("Data path order: config, DRBENCH_DATA, then the shared directory; no duplicates",
          "[data]") {
  TempDir cfg, env;
  const char* old = std::getenv("DRBENCH_DATA");
  const std::string saved = old ? old : "";
  ::setenv("DRBENCH_DATA", env.path.c_str(), 1);
  const auto p = data_search_path(cfg.path.string());
  REQUIRE(p.size() >= 2);
  CHECK(p[0] == fs::weakly_canonical(cfg.path).string());
  CHECK(p[1] == fs::weakly_canonical(env.path).string());
  CHECK(data_search_path(env.path.string()).size() == p.size() - 1);  // same dir once
  CHECK(data_search_path((cfg.path / "missing").string()).size() == p.size() - 1);
  if (old)
    ::setenv("DRBENCH_DATA", saved.c_str(), 1);
  else
    ::unsetenv("DRBENCH_DATA");
}

TEST_CASE("NaN and Inf are refused with the point and feature", "[data]") {
  TempDir tmp;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  write_h5(tmp.file("nan.h5"), {0, 1, 2, 3, 4, nan}, 3, 2, {0, 1, 1});
  DatasetSpec spec;
  spec.name = "nan";
  CHECK_THAT(message_of([&] { load_dataset(spec, {tmp.path.string()}, 0); }),
             Catch::Contains("NaN") && Catch::Contains("point 2") && Catch::Contains("feature 1"));

  Dataset ds;
  ds.name = "v";
  ds.X = {{1, 2, 3}};
  ds.y = {0, 2, 2};
  ds.n_classes = 3;
  CHECK_THAT(message_of([&] { validate_dataset(ds); }), Catch::Contains("class 1"));
  ds.y = {0, 1};
  CHECK_THAT(message_of([&] { validate_dataset(ds); }), Catch::Contains("2 labels for 3 points"));
  ds.y = {0, 1, 3};
  CHECK_THAT(message_of([&] { validate_dataset(ds); }), Catch::Contains("label 3"));
  ds.X = arma::mat(1, 1, arma::fill::ones);
  ds.y = {0};
  ds.n_classes = 1;
  CHECK_THAT(message_of([&] { validate_dataset(ds); }), Catch::Contains("at least 2"));
  ds.X = {{1.0, arma::datum::inf}};
  ds.y = {0, 0};
  CHECK_THAT(message_of([&] { validate_dataset(ds); }), Catch::Contains("Inf at point 1"));
}

TEST_CASE("CSV reader: header, text or integer labels, ragged rows refused", "[data]") {
  TempDir tmp;
  write_text(tmp.file("a.csv"), "f1,f2,label\n1.5,2,cat\n# comment\n\n3,4e1,dog\n-5,6,cat\n");
  const Dataset a = read_csv_dataset(tmp.file("a.csv"));
  REQUIRE(a.n() == 3);
  REQUIRE(a.d() == 2);
  CHECK(a.X(1, 1) == 40.0);
  CHECK(a.X(0, 2) == -5.0);
  CHECK(arma::all(a.y == arma::uvec{0, 1, 0}));
  CHECK(a.n_classes == 2);

  write_text(tmp.file("b.csv"), "0.1\t0.2\t1\n0.3\t0.4\t0\n");
  const Dataset b = read_csv_dataset(tmp.file("b.csv"));
  CHECK(arma::all(b.y == arma::uvec{1, 0}));
  CHECK(b.X(1, 0) == 0.2);

  write_text(tmp.file("c.csv"), "1,2,0\n3,0\n");
  CHECK_THAT(message_of([&] { read_csv_dataset(tmp.file("c.csv")); }),
             Catch::Contains("c.csv:2") && Catch::Contains("2 fields"));
  write_text(tmp.file("d.csv"), "1,2,0\n3,x,0\n");
  CHECK_THAT(message_of([&] { read_csv_dataset(tmp.file("d.csv")); }),
             Catch::Contains("d.csv:2") && Catch::Contains("'x'"));
  // A huge label is refused before validation allocates a counter per class (was an allocation
  // of 44 TB, found by fuzz/fuzz_csv; labels from 2^53 up are read as text).
  write_text(tmp.file("e.csv"), "1,2,5555555555555\n3,4,1\n5,6,0\n");
  CHECK_THAT(message_of([&] { validate_dataset(read_csv_dataset(tmp.file("e.csv"))); }),
             Catch::Contains("labels go up to 5555555555555") && Catch::Contains("only 3 points"));
}

TEST_CASE("IDX folder: train and t10k halves as one dataset with the published split", "[data]") {
  TempDir tmp;
  // 3 training images and 2 test images of 2x2 pixels.
  write_idx_images(tmp.file("train-images-idx3-ubyte"), 3, 2, 2,
                   {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  write_idx_labels(tmp.file("train-labels-idx1-ubyte"), {2, 0, 1});
  write_idx_images(tmp.file("t10k-images-idx3-ubyte"), 2, 2, 2, {21, 22, 23, 24, 25, 26, 27, 28});
  write_idx_labels(tmp.file("t10k-labels-idx1-ubyte"), {1, 2});
  DatasetSpec spec;
  spec.name = "tiny";
  spec.source = "idx";
  spec.path = tmp.path.string();
  const Dataset ds = load_dataset(spec, {}, 0);
  REQUIRE(ds.n() == 5);
  CHECK(ds.X(0, 3) == 21.0);
  CHECK(arma::all(ds.y == arma::uvec{2, 0, 1, 1, 2}));
  CHECK(arma::all(ds.split == arma::ivec{0, 0, 0, 1, 1}));
  // Every pixel in its column, the t10k half after the training half, read once into one matrix.
  const arma::vec want =
      arma::join_cols(arma::regspace<arma::vec>(1, 12), arma::regspace<arma::vec>(21, 28));
  CHECK(arma::all(arma::vectorise(ds.X) == want));
  CHECK(ds.n_classes == 3);
  CHECK(ds.source == tmp.path.string() + " (train + t10k)");
  CHECK(ds.n_read == 5);
  CHECK(ds.n_load_peak == 5);
  // max_points: the IDX reader decodes only the images kept, each the file's own column with its
  // label and half, and holds no more than those.
  spec.max_points = 3;
  const Dataset sub = load_dataset(spec, {}, 0);
  REQUIRE(sub.n() == 3);
  CHECK(sub.n_read == 5);
  CHECK(sub.n_load_peak == 3);
  CHECK_THAT(sub.source, Catch::Contains("(train + t10k) [stratified subsample of 3 of 5 points]"));
  for (arma::uword j = 0; j < sub.n(); ++j) {
    const auto k =
        static_cast<arma::uword>(sub.X(0, j) < 20 ? sub.X(0, j) / 4 : 3 + (sub.X(0, j) - 21) / 4);
    CHECK(arma::all(sub.X.col(j) == ds.X.col(k)));
    CHECK(sub.y(j) == ds.y(k));
    CHECK(sub.split(j) == ds.split(k));
  }
  // classes: the labels renumbered as before, only those images decoded.
  spec.max_points = 0;
  spec.classes = {2, 1};
  const Dataset two = load_dataset(spec, {}, 0);
  REQUIRE(two.n() == 4);
  CHECK(arma::all(arma::vectorise(two.X) ==
                  arma::join_cols(arma::vec{1, 2, 3, 4, 9, 10, 11, 12}, arma::regspace(21, 28))));
  CHECK(arma::all(two.y == arma::uvec{0, 1, 1, 0}));
  CHECK(arma::all(two.split == arma::ivec{0, 0, 1, 1}));
  CHECK(two.n_classes == 2);
  CHECK(two.n_load_peak == 4);
  spec.classes = {7};
  CHECK_THAT(
      message_of([&] { load_dataset(spec, {}, 0); }),
      Catch::Contains("dataset 'tiny'") && Catch::Contains("classes: label 7 does not exist"));
  spec.classes.clear();
  // Halves of different image sizes are refused naming both.
  TempDir odd;
  write_idx_images(odd.file("train-images-idx3-ubyte"), 2, 2, 2, {1, 2, 3, 4, 5, 6, 7, 8});
  write_idx_labels(odd.file("train-labels-idx1-ubyte"), {0, 1});
  write_idx_images(odd.file("t10k-images-idx3-ubyte"), 2, 1, 3, {1, 2, 3, 4, 5, 6});
  write_idx_labels(odd.file("t10k-labels-idx1-ubyte"), {0, 1});
  spec.path = odd.path.string();
  CHECK_THAT(message_of([&] { load_dataset(spec, {}, 0); }),
             Catch::Contains("dataset 'tiny'") &&
                 Catch::Contains("train and t10k images differ in size (4 and 3 pixels)"));
  // Without the test half the folder is refused with what it lacks.
  TempDir half;
  write_idx_images(half.file("train-images-idx3-ubyte"), 1, 1, 1, {7});
  write_idx_labels(half.file("train-labels-idx1-ubyte"), {0});
  spec.path = half.path.string();
  CHECK_THAT(message_of([&] { load_dataset(spec, {}, 0); }),
             Catch::Contains("without t10k-images-idx3-ubyte"));
}

TEST_CASE("IDX reader: images with their labels file found by name", "[data]") {
  TempDir tmp;
  // 3 images of 2x2 ubyte pixels, 3 labels.
  write_idx_images(tmp.file("train-images-idx3-ubyte"), 3, 2, 2,
                   {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255});
  write_idx_labels(tmp.file("train-labels-idx1-ubyte"), {2, 0, 1});
  CHECK(idx_labels_file(tmp.file("train-images-idx3-ubyte")) ==
        tmp.file("train-labels-idx1-ubyte"));
  CHECK(idx_labels_file("/x/t10k-images-idx3-ubyte.gz") == "/x/t10k-labels-idx1-ubyte.gz");
  DatasetSpec spec;
  spec.name = "tiny";
  spec.source = "idx";
  spec.path = tmp.file("train-images-idx3-ubyte");
  const Dataset ds = load_dataset(spec, {}, 0);
  REQUIRE(ds.d() == 4);
  REQUIRE(ds.n() == 3);
  CHECK(ds.X(0, 0) == 1.0);
  CHECK(ds.X(3, 0) == 4.0);
  CHECK(ds.X(3, 2) == 255.0);
  CHECK(arma::all(ds.y == arma::uvec{2, 0, 1}));

  write_idx_labels(tmp.file("short-labels-idx1-ubyte"), {2, 0});
  CHECK_THAT(message_of([&] {
               read_idx_dataset(tmp.file("train-images-idx3-ubyte"),
                                tmp.file("short-labels-idx1-ubyte"));
             }),
             Catch::Contains("2 labels for 3 images"));
  write_idx_images(tmp.file("cut-images-idx3-ubyte"), 3, 2, 2, {1});
  CHECK_THAT(message_of([&] {
               read_idx_dataset(tmp.file("cut-images-idx3-ubyte"),
                                tmp.file("train-labels-idx1-ubyte"));
             }),
             Catch::Contains("truncated"));
  // A damaged header promising 6 * 10^10 doubles (500 GB) fails at the end of the file, with a
  // DataError, instead of allocating first (was std::bad_alloc, found by fuzz/fuzz_idx).
  write_bytes(tmp.file("huge-images-idx3-ubyte"),
              {0, 0, 0x0E, 3, 0, 0x0F, 0xFF, 0xFF, 0, 0, 0x0F, 0xFF, 0, 0, 0, 0x0F, 1, 2});
  CHECK_THAT(message_of([&] {
               read_idx_dataset(tmp.file("huge-images-idx3-ubyte"),
                                tmp.file("train-labels-idx1-ubyte"));
             }),
             Catch::Contains("truncated"));
  write_bytes(tmp.file("overflow-images-idx3-ubyte"),
              {0, 0, 8, 3, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
  CHECK_THAT(message_of([&] {
               read_idx_dataset(tmp.file("overflow-images-idx3-ubyte"),
                                tmp.file("train-labels-idx1-ubyte"));
             }),
             Catch::Contains("more than 2^40 elements"));
}

TEST_CASE("Bundled wine and max_points subsampling", "[data]") {
  DatasetSpec spec;
  spec.name = "wine";
  spec.source = "bundled";
  const Dataset full = load_dataset(spec, {}, 3);
  REQUIRE(full.n() == 178);
  REQUIRE(full.d() == 13);
  const arma::uvec counts = arma::hist(full.y, arma::regspace<arma::uvec>(0, 2));
  CHECK(arma::all(counts == arma::uvec{59, 71, 48}));

  spec.max_points = 89;  // half: every class keeps (about) half of its points
  const Dataset half = load_dataset(spec, {}, 3);
  REQUIRE(half.n() == 89);
  const arma::uvec hc = arma::hist(half.y, arma::regspace<arma::uvec>(0, 2));
  CHECK(
      arma::all(arma::abs(arma::conv_to<arma::vec>::from(hc) - arma::vec{29.5, 35.5, 24}) <= 0.5));
  CHECK(arma::approx_equal(load_dataset(spec, {}, 3).X, half.X, "absdiff", 0));
  CHECK(!arma::approx_equal(load_dataset(spec, {}, 4).X, half.X, "absdiff", 0));
  // The points kept are the file's columns, and what loading held is recorded for the memory
  // model: all 178 read, then the 89 kept copied out beside them.
  for (arma::uword j = 0; j < half.n(); ++j) {
    bool found = false;
    for (arma::uword k = 0; k < full.n() && !found; ++k)
      found =
          arma::approx_equal(full.X.col(k), half.X.col(j), "absdiff", 0) && full.y(k) == half.y(j);
    CHECK(found);
  }
  CHECK(full.n_read == 178);
  CHECK(full.n_load_peak == 178);
  CHECK(half.n_read == 178);
  CHECK(half.n_load_peak == 178 + 89);
  // classes and max_points choose from the labels, then one copy of the 50 kept is made.
  spec.classes = {0, 1};
  spec.max_points = 50;
  const Dataset two = load_dataset(spec, {}, 3);
  CHECK(two.n() == 50);
  CHECK(two.n_read == 178);
  CHECK(two.n_load_peak == 178 + 50);
  spec.classes.clear();

  DatasetSpec bad;
  bad.name = "nope";
  bad.source = "bundled";
  CHECK_THAT(message_of([&] { load_dataset(bad, {}, 0); }), Catch::Contains("iris and wine"));
  bad.source = "ftp";
  CHECK_THAT(message_of([&] { load_dataset(bad, {}, 0); }),
             Catch::Contains("unknown source 'ftp'"));
}

TEST_CASE("list_data_path shows shared files with their manifest entry", "[data]") {
  TempDir tmp;
  write_h5(tmp.file("toy.h5"), {0, 1, 2, 3}, 2, 2, {0, 1});
  write_text(tmp.file("MANIFEST.tsv"),
             "name\tfile\tsha256\tn\td\tclasses\ntoy\ttoy.h5\tx\t2\t2\t2\n");
  const auto entries = list_data_path({tmp.path.string()});
  REQUIRE(!entries.empty());
  CHECK(entries[0].name == "toy");
  CHECK_THAT(entries[0].note, Catch::Contains("2 x 2"));
}
