#include <catch2/catch.hpp>
#include <string>

#include "framework/support/bytes.hpp"

using namespace drbench;

namespace {

// Decodes `s` strictly (RFC 3629); false on any ill-formed sequence. Written independently of
// valid_utf8 (a bit-pattern decoder with explicit code-point limits).
bool strict_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80             ? 0
            : (c & 0xe0) == 0xc0 ? 1
            : (c & 0xf0) == 0xe0 ? 2
            : (c & 0xf8) == 0xf0 ? 3
                                 : -1;
    if (n < 0 || i + n >= s.size() + (n == 0)) return false;
    std::uint32_t cp = n == 0 ? c : c & (0x3f >> n);
    for (int k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xc0) != 0x80) return false;
      cp = cp << 6 | (b & 0x3f);
    }
    const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

}  // namespace

TEST_CASE("valid_utf8 keeps UTF-8 text and escapes every other byte", "[utf8]") {
  const std::string euro = "\xe2\x82\xac", emoji = "\xf0\x9f\x98\x80";
  CHECK(valid_utf8("plain text") == "plain text");
  CHECK(valid_utf8("a" + euro + emoji + "\xc3\xa9") == "a" + euro + emoji + "\xc3\xa9");
  CHECK(valid_utf8("oops \xf8\xff\xfe!") == "oops \\xf8\\xff\\xfe!");
  CHECK(valid_utf8(std::string("a\0b", 3)) == "a\\x00b");           // NUL would end a C string
  CHECK(valid_utf8("\xc0\xaf") == "\\xc0\\xaf");                    // overlong '/'
  CHECK(valid_utf8("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // a surrogate
  CHECK(valid_utf8("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  CHECK(valid_utf8("x\xe2\x82") == "x\\xe2\\x82");                  // a character cut short
  // Every byte string of length 1..3 over a spread of bytes comes out strictly valid.
  const unsigned char bytes[] = {0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0,
                                 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x90, 0x8f};
  for (unsigned char a : bytes)
    for (unsigned char b : bytes)
      for (unsigned char c : bytes) {
        const std::string s{char(a), char(b), char(c)};
        INFO(int(a) << " " << int(b) << " " << int(c));
        REQUIRE(strict_utf8(valid_utf8(s)));
        if (strict_utf8(s) && s.find('\0') == std::string::npos) REQUIRE(valid_utf8(s) == s);
      }
}

TEST_CASE("utf8_tail_start cuts on a character boundary", "[utf8]") {
  std::string euros;
  for (int i = 0; i < 1000; ++i) euros += "\xe2\x82\xac";
  for (std::size_t max : {1u, 2u, 3u, 4u, 2000u, 2999u, 3000u, 5000u}) {
    const std::string tail = euros.substr(utf8_tail_start(euros, max));
    INFO(max);
    CHECK(tail.size() <= max);
    CHECK(tail.size() + 3 > std::min<std::size_t>(max, euros.size()));
    CHECK(strict_utf8(tail));
  }
  CHECK(utf8_tail_start("abc", 10) == 0);
}
