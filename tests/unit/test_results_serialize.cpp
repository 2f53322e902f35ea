#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "framework/core/error.hpp"
#include "framework/results/task_result.hpp"
#include "framework/support/bytes.hpp"

using namespace drbench;

namespace {

TaskResult full_result() {
  TaskResult r;
  r.task_id = 123456789012ULL;
  r.key = "usps|per_class=10|r3|GPLRF|gamma=0.5,kernel=rbf|d9 \xc3\xa9";  // UTF-8 survives
  r.ok = false;
  r.error = std::string("line one\nline two with a \0 byte", 31);
  r.fit_seconds = 1.5;
  r.transform_seconds = -0.0;
  r.eval_seconds = std::numeric_limits<double>::infinity();
  r.task_seconds = 4.25;
  r.knn_error = {0.125, std::numeric_limits<double>::quiet_NaN(), 1e-300};
  r.quality = {0.75, 0.5};
  r.quality_se = {0.0, 0.125};
  r.quality_queries = 1234;
  r.rnx_curve_k = {1, 3, 40};
  r.rnx_curve = {0.5, 0.25, 0.125};
  r.n_train = 100;
  r.n_test = 1 << 20;
  r.input_dim = 7;
  r.rank = -3;
  r.embedding_train = arma::reshape(arma::regspace<arma::vec>(1, 12), 3, 4);
  r.embedding_test = arma::mat(3, 2, arma::fill::value(-2.5));
  r.trace.optimizer = "scg";
  r.trace.log(0, 10.0, 3.0, 0.0);
  r.trace.log(1, 9.5, 1.25, 0.01);
  r.trace.note("jitter", "1e-6");
  r.trace.note("stop", "gradient tolerance");
  r.fit_end = {1, 9.5, 1.25, "x_and_f_tolerance"};
  r.peak_rss_bytes = 123456789;
  r.threads = 3;
  return r;
}

}  // namespace

TEST_CASE("TaskResult serialize/deserialize round trip keeps every field", "[results]") {
  TaskResult a = full_result();
  std::string bytes = a.serialize();
  TaskResult b = TaskResult::deserialize(bytes);
  CHECK(b.task_id == a.task_id);
  CHECK(b.key == a.key);
  CHECK(b.ok == a.ok);
  CHECK(b.error == a.error);
  CHECK(b.error.size() == 31);
  CHECK(b.fit_seconds == a.fit_seconds);
  CHECK(std::signbit(b.transform_seconds));
  CHECK(std::isinf(b.eval_seconds));
  CHECK(b.task_seconds == 4.25);
  REQUIRE(b.knn_error.size() == 3);
  CHECK(b.knn_error[0] == 0.125);
  CHECK(std::isnan(b.knn_error[1]));
  CHECK(b.knn_error[2] == 1e-300);
  CHECK(b.quality == a.quality);
  CHECK(b.quality_se == a.quality_se);
  CHECK(b.quality_queries == 1234);
  CHECK(b.rnx_curve_k == a.rnx_curve_k);
  CHECK(b.rnx_curve == a.rnx_curve);
  CHECK(b.n_train == a.n_train);
  CHECK(b.n_test == a.n_test);
  CHECK(b.input_dim == a.input_dim);
  CHECK(b.rank == -3);
  REQUIRE(b.embedding_train.n_rows == 3);
  REQUIRE(b.embedding_train.n_cols == 4);
  CHECK(arma::approx_equal(b.embedding_train, a.embedding_train, "absdiff", 0.0));
  CHECK(arma::approx_equal(b.embedding_test, a.embedding_test, "absdiff", 0.0));
  CHECK(b.trace.optimizer == "scg");
  REQUIRE(b.trace.rows.size() == 2);
  CHECK(b.trace.rows[1].iteration == 1);
  CHECK(b.trace.rows[1].objective == 9.5);
  CHECK(b.trace.rows[1].grad_norm == 1.25);
  CHECK(b.trace.rows[1].seconds == 0.01);
  CHECK(b.trace.notes == a.trace.notes);
  CHECK(b.fit_end.iterations == 1);
  CHECK(b.fit_end.objective == 9.5);
  CHECK(b.fit_end.grad_norm == 1.25);
  CHECK(b.fit_end.stop_reason == "x_and_f_tolerance");
  CHECK(b.peak_rss_bytes == 123456789);
  CHECK(b.threads == 3);
  // A format-7 record (before threads were recorded) reads as 0, not recorded.
  std::string seven = bytes.substr(0, bytes.size() - 4);
  seven[0] = 7;
  CHECK(TaskResult::deserialize(seven).threads == 0);
  CHECK(TaskResult::deserialize(seven).peak_rss_bytes == 123456789);
  // Deterministic encoding: the same result gives the same bytes.
  CHECK(b.serialize() == bytes);
}

TEST_CASE("TaskResult reads records of format 2 (journals written before task_seconds)",
          "[results]") {
  // A format-2 record is a format-5 record without the trace's end, the point indices and labels
  // before it and task_seconds before them, and with version byte 2.
  TaskResult r = full_result();
  r.index_train.reset();
  r.index_test.reset();
  r.label_train.reset();
  r.label_test.reset();
  r.fit_end.stop_reason.clear();
  r.quality_se.clear();
  r.quality_queries = 0;
  r.rnx_curve_k.clear();
  r.rnx_curve.clear();
  r.peak_rss_bytes = 0;
  std::string bytes = r.serialize();
  // Format 8's threads, format 7's peak memory, format 6's quality fields (three empty vectors
  // and a count), the trace's end (iterations, two reals, an empty string's length), four empty
  // vectors (a count each), seconds.
  bytes = bytes.substr(0, bytes.size() - 4 - 8 - 4 * 8 - 4 * 8 - 4 * 8 - 8);
  bytes[0] = 2;
  const TaskResult old = TaskResult::deserialize(bytes);
  CHECK(old.task_seconds == 0.0);
  CHECK(old.fit_seconds == 1.5);
  CHECK(old.trace.notes.size() == 2);
  // Without its own record of the trace's end, the record's trace supplies it.
  CHECK(old.fit_end.iterations == 1);
  CHECK(old.fit_end.objective == 9.5);
  CHECK(old.fit_end.stop_reason.empty());  // full_result's trace has no stop_reason note
  CHECK(old.total_seconds() == old.fit_seconds + old.transform_seconds + old.eval_seconds);
}

TEST_CASE("TaskResult encoding is little-endian with a version byte", "[results]") {
  TaskResult r;
  r.task_id = 0x0102030405060708ULL;
  std::string bytes = r.serialize();
  REQUIRE(bytes.size() > 9);
  // format 8: task_seconds (3), point indices and labels (4), trace end (5), quality errors (6),
  // peak memory (7), threads (8)
  CHECK(bytes[0] == 8);
  CHECK(bytes[1] == 0x08);
  CHECK(bytes[8] == 0x01);
  TaskResult empty = TaskResult::deserialize(bytes);
  CHECK(empty.embedding_train.is_empty());
  CHECK(empty.trace.rows.empty());
}

TEST_CASE("TaskResult deserialize rejects truncated and corrupt bytes", "[results]") {
  std::string bytes = full_result().serialize();
  for (std::size_t cut :
       {std::size_t(0), std::size_t(1), std::size_t(20), bytes.size() / 2, bytes.size() - 1})
    CHECK_THROWS_AS(TaskResult::deserialize(bytes.substr(0, cut)), Error);
  CHECK_THROWS_WITH(TaskResult::deserialize(bytes + "x"), Catch::Contains("trailing"));
  std::string bad_version = bytes;
  bad_version[0] = 9;
  CHECK_THROWS_WITH(TaskResult::deserialize(bad_version), Catch::Contains("format version"));
  // A huge string length must fail cleanly, not allocate.
  std::string bad_len = bytes;
  bad_len[16] = '\x7f';
  CHECK_THROWS_AS(TaskResult::deserialize(bad_len), Error);
}

TEST_CASE("crc32 matches zlib", "[results]") {
  // python3 -c "import zlib; print(hex(zlib.crc32(b'123456789')), hex(zlib.crc32(b'')))"
  CHECK(crc32("123456789") == 0xcbf43926u);
  CHECK(crc32("") == 0u);
  // python3 -c "import zlib; print(hex(zlib.crc32(b'drbench journal')))" -> 0xb0ba5b16
  CHECK(crc32("drbench journal") == 0xb0ba5b16u);
}
