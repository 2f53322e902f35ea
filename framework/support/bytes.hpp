#pragma once
// Little-endian byte encoding with explicit widths, so journals and MPI messages written on one
// machine read back on any other, and a checksum for the journal's records.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drbench {

class ByteWriter {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f64(double v);
  void str(std::string_view s);             // u64 length, then the bytes
  void f64s(const std::vector<double>& v);  // u64 count, then the values
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what ByteWriter wrote; every read is bounds-checked and throws Error("<what>: ...") on
// truncated or malformed input instead of reading past the end.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, std::string what) : in_(bytes), what_(std::move(what)) {}
  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  double f64();
  std::string str();
  std::vector<double> f64s();
  // A count of items of `item_size` bytes each, checked against what is left (no huge allocations
  // from a corrupt length).
  std::uint64_t count(std::size_t item_size);
  std::size_t left() const { return in_.size() - pos_; }

 private:
  void need(std::size_t n);
  std::string_view in_;
  std::size_t pos_ = 0;
  std::string what_;
};

// CRC-32 (IEEE 802.3, as zlib.crc32 in Python computes it).
std::uint32_t crc32(std::string_view bytes);

// `s` as valid UTF-8: every byte that does not belong to a well-formed UTF-8 sequence (and NUL,
// which would end a C string) is written as the four characters \xNN. Text from outside (an
// external command's stderr) may be anything; results files promise UTF-8 to every reader.
std::string valid_utf8(std::string_view s);

// Where to cut `s` to keep at most its last `max_bytes` bytes without splitting a character:
// the first offset at or after s.size() - max_bytes that is not a UTF-8 continuation byte.
std::size_t utf8_tail_start(std::string_view s, std::size_t max_bytes);

}  // namespace drbench
