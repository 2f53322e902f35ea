#include "framework/support/bytes.hpp"

#include <array>
#include <cstring>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

// The sizeof(T) bytes of v, least significant first.
template <class T>
void put_little_endian(std::string& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

// The unsigned integer of sizeof(T) bytes at in[pos], least significant first; pos moves past it.
template <class T>
T get_little_endian(std::string_view in, std::size_t& pos) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    v |= T(static_cast<unsigned char>(in[pos++])) << (8 * i);
  return v;
}

}  // namespace

void ByteWriter::u32(std::uint32_t v) {
  put_little_endian(out_, v);
}

void ByteWriter::u64(std::uint64_t v) {
  put_little_endian(out_, v);
}

void ByteWriter::f64(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  u64(bits);
}

void ByteWriter::str(std::string_view s) {
  u64(s.size());
  out_.append(s.data(), s.size());
}

void ByteWriter::f64s(const std::vector<double>& v) {
  u64(v.size());
  for (double x : v) f64(x);
}

void ByteReader::need(std::size_t n) {
  if (left() < n)
    throw Error(what_ + ": truncated data (needed " + std::to_string(n) + " more bytes at offset " +
                std::to_string(pos_) + ", " + std::to_string(left()) + " left)");
}

std::uint8_t ByteReader::u8() {
  need(1);
  return static_cast<std::uint8_t>(in_[pos_++]);
}

std::uint32_t ByteReader::u32() {
  need(4);
  return get_little_endian<std::uint32_t>(in_, pos_);
}

std::uint64_t ByteReader::u64() {
  need(8);
  return get_little_endian<std::uint64_t>(in_, pos_);
}

double ByteReader::f64() {
  std::uint64_t bits = u64();
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::uint64_t ByteReader::count(std::size_t item_size) {
  std::uint64_t n = u64();
  if (item_size > 0 && n > left() / item_size)
    throw Error(what_ + ": corrupt length " + std::to_string(n) + " at offset " +
                std::to_string(pos_ - 8) + " (only " + std::to_string(left()) + " bytes left)");
  return n;
}

std::string ByteReader::str() {
  std::uint64_t n = count(1);
  std::string s(in_.substr(pos_, n));
  pos_ += n;
  return s;
}

std::vector<double> ByteReader::f64s() {
  std::uint64_t n = count(8);
  std::vector<double> v(n);
  for (auto& x : v) x = f64();
  return v;
}

std::uint32_t crc32(std::string_view bytes) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xffffffffu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xffu] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), or 0 when the byte there does not start one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = at(i);
  if (c >= 0x01 && c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the allowed range of the second byte
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
  else
    return 0;
  if (s.size() - i < n || at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xbf) return 0;
  return n;
}

}  // namespace

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (const std::size_t n = utf8_sequence(s, i)) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    static const char hex[] = "0123456789abcdef";
    const auto b = static_cast<unsigned char>(s[i++]);
    out += "\\x";
    out += hex[b >> 4];
    out += hex[b & 0xf];
  }
  return out;
}

std::size_t utf8_tail_start(std::string_view s, std::size_t max_bytes) {
  std::size_t i = s.size() > max_bytes ? s.size() - max_bytes : 0;
  // At most three continuation bytes follow a lead byte; past that the bytes are not UTF-8 and
  // valid_utf8 escapes them anyway.
  for (int k = 0; k < 3 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xc0) == 0x80; ++k)
    ++i;
  return i;
}

}  // namespace drbench
