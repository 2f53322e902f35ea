// NumPy .npy and .npz, parsed here rather than through a library: .npy is a short text header
// (a Python dict literal: descr, fortran_order, shape) and the raw elements; .npz is a zip archive
// of .npy files, stored (np.savez) or deflated (np.savez_compressed), whose entries are inflated
// with zlib, which drbench already links for the IDX reader. Debian's libzip/minizip would add a
// dependency for the ~80 lines the central directory, the zip64 sizes numpy writes and raw
// deflate take.
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/labels.hpp"
#include "framework/data/load.hpp"

namespace drbench {
namespace {

const std::string kNpyFix = "rewrite it with numpy.save / numpy.savez";
const std::string kNpzFix = "rewrite it with numpy.savez or numpy.savez_compressed";

// One array as numbers (any integer, float or bool dtype) or strings (numpy 'U' and 'S').
struct NpArray {
  std::vector<std::uint64_t> shape;
  bool fortran = false;
  RawLabels values;  // numbers in .num, strings in .name
  // The element count; false when the shape overflows 64 bits (a damaged header).
  bool count(std::uint64_t& c) const {
    c = 1;
    for (auto s : shape)
      if (__builtin_mul_overflow(c, s, &c)) return false;
    return true;
  }
  std::uint64_t count() const {
    std::uint64_t c = 0;
    return count(c) ? c : 0;
  }
};

std::string header_value(const std::string& h, const std::string& key) {
  const auto k = h.find("'" + key + "'");
  if (k == std::string::npos) return "";
  auto v = h.find(':', k);
  if (v == std::string::npos) return "";
  ++v;
  while (v < h.size() && h[v] == ' ') ++v;
  if (v >= h.size()) return "";
  if (h[v] == '(') return h.substr(v + 1, h.find(')', v) - v - 1);
  if (h[v] == '\'') return h.substr(v + 1, h.find('\'', v + 1) - v - 1);
  if (h[v] == '[') return "[";  // a structured dtype
  return h.substr(v, h.find_first_of(",}", v) - v);
}

template <typename T>
double as_double(const unsigned char* p, bool swap) {
  unsigned char b[sizeof(T)];
  for (std::size_t k = 0; k < sizeof(T); ++k) b[k] = p[swap ? sizeof(T) - 1 - k : k];
  T v;
  std::memcpy(&v, b, sizeof(T));
  return static_cast<double>(v);
}

using Decoder = double (*)(const unsigned char*, bool);

Decoder decoder_for(char kind, std::size_t size) {
  if (kind == 'f' && size == 8) return as_double<double>;
  if (kind == 'f' && size == 4) return as_double<float>;
  if (kind == 'i' && size == 8) return as_double<std::int64_t>;
  if (kind == 'i' && size == 4) return as_double<std::int32_t>;
  if (kind == 'i' && size == 2) return as_double<std::int16_t>;
  if (kind == 'i' && size == 1) return as_double<std::int8_t>;
  if (kind == 'u' && size == 8) return as_double<std::uint64_t>;
  if (kind == 'u' && size == 4) return as_double<std::uint32_t>;
  if (kind == 'u' && size == 2) return as_double<std::uint16_t>;
  if ((kind == 'u' || kind == 'b') && size == 1) return as_double<std::uint8_t>;
  return nullptr;
}

// `bytes` is the whole .npy; `what` names it in messages ("f.npz: entry 'X.npy'").
NpArray parse_npy(const std::string& bytes, const std::string& what) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    throw DataError(what + ": not a NumPy .npy array (no \\x93NUMPY magic; fix: " + kNpyFix + ")");
  const int major = static_cast<unsigned char>(bytes[6]);
  std::size_t hlen = 0, start = 0;
  if (major == 1) {
    hlen = std::size_t(static_cast<unsigned char>(bytes[8])) |
           (std::size_t(static_cast<unsigned char>(bytes[9])) << 8);
    start = 10;
  } else {
    if (bytes.size() < 12) throw DataError(what + ": truncated .npy header (fix: " + kNpyFix + ")");
    for (int k = 3; k >= 0; --k) hlen = (hlen << 8) | static_cast<unsigned char>(bytes[8 + k]);
    start = 12;
  }
  if (start + hlen > bytes.size())
    throw DataError(what + ": truncated .npy header (fix: " + kNpyFix + ")");
  const std::string h = bytes.substr(start, hlen);
  const std::string descr = header_value(h, "descr");
  NpArray a;
  a.fortran = header_value(h, "fortran_order") == "True";
  const std::string sh = header_value(h, "shape");
  for (std::size_t p = 0; p < sh.size();) {
    const auto e = sh.find(',', p);
    const std::string f = sh.substr(p, e == std::string::npos ? std::string::npos : e - p);
    const auto b = f.find_first_of("0123456789");
    if (b != std::string::npos) {
      std::uint64_t v = 0;
      const auto r = std::from_chars(f.data() + b, f.data() + f.size(), v);
      if (r.ec != std::errc())
        throw DataError(what + ": its header's shape '" + sh + "' is damaged (fix: " + kNpyFix +
                        ")");
      a.shape.push_back(v);
    }
    if (e == std::string::npos) break;
    p = e + 1;
  }
  if (descr.size() < 3 || descr == "[")
    throw DataError(what + ": dtype '" + descr +
                    "' is not supported (structured or object arrays; fix: store a plain numeric "
                    "array, e.g. X.astype('float64'), and labels as integers or str)");
  const bool swap = descr[0] == '>';
  const char kind = descr[1];
  std::size_t size = 0;  // stays 0 for a size that is not a number ('<M8[ns]' reads as 8)
  std::from_chars(descr.data() + 2, descr.data() + descr.size(), size);
  const std::size_t item = kind == 'U' ? 4 * size : size;
  const Decoder dec = decoder_for(kind, size);
  if (!dec && ((kind != 'U' && kind != 'S') || size == 0 || size > 4096))
    throw DataError(what + ": dtype '" + descr +
                    "' is not supported (fix: store float64/float32, a signed or unsigned integer, "
                    "bool, or str labels, e.g. X.astype('float64'))");
  std::uint64_t count = 0;
  if (!a.count(count))
    throw DataError(what + ": its header claims an impossible shape (damaged; fix: " + kNpyFix +
                    ")");
  const std::size_t data = start + hlen;
  if (item != 0 && (bytes.size() - data) / item < count)
    throw DataError(what + ": holds " + std::to_string((bytes.size() - data) / item) + " of the " +
                    std::to_string(count) +
                    " elements its header promises (file truncated; fix: " + kNpyFix + ")");
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data() + data);
  if (dec) {
    a.values.num.resize(count);
    for (std::uint64_t i = 0; i < count; ++i) a.values.num[i] = dec(raw + i * item, swap);
    return a;
  }
  a.values.text = true;
  a.values.name.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string s;
    for (std::size_t k = 0; k < size; ++k) {
      // 'U' is UTF-32; labels are names, so code points are written back as UTF-8.
      std::uint32_t c = kind == 'S' ? raw[i * item + k] : 0;
      if (kind == 'U') std::memcpy(&c, raw + i * item + 4 * k, 4);
      if (c == 0) break;
      if (c < 0x80) {
        s += char(c);
      } else if (c < 0x800) {
        s += char(0xC0 | (c >> 6));
        s += char(0x80 | (c & 0x3F));
      } else if (c < 0x10000) {
        s += char(0xE0 | (c >> 12));
        s += char(0x80 | ((c >> 6) & 0x3F));
        s += char(0x80 | (c & 0x3F));
      } else {
        s += char(0xF0 | (c >> 18));
        s += char(0x80 | ((c >> 12) & 0x3F));
        s += char(0x80 | ((c >> 6) & 0x3F));
        s += char(0x80 | (c & 0x3F));
      }
    }
    a.values.name[i] = s;
  }
  return a;
}

std::string read_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw DataError(file + ": cannot open (fix: check the path and its permissions)");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::uint64_t le(const std::string& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(b.at(at + k));
  return v;
}

// The entries of a zip archive from its central directory: name -> its bytes, stored or inflated.
std::map<std::string, std::string> unzip(const std::string& z, const std::string& file) {
  const std::string bad =
      file + ": not a complete zip archive (truncated or not an .npz; fix: " + kNpzFix + ")";
  std::size_t eocd = std::string::npos;
  for (std::size_t p = z.size() >= 22 ? z.size() - 22 : std::string::npos;
       p != std::string::npos && p + 65557 >= z.size(); --p) {
    if (z.compare(p, 4, "PK\x05\x06") == 0) {
      eocd = p;
      break;
    }
    if (p == 0) break;
  }
  if (eocd == std::string::npos) throw DataError(bad);
  std::map<std::string, std::string> out;
  try {
    const std::size_t entries = le(z, eocd + 10, 2);
    std::size_t p = le(z, eocd + 16, 4);
    for (std::size_t e = 0; e < entries; ++e) {
      if (z.compare(p, 4, "PK\x01\x02") != 0) throw DataError(bad);
      const int method = static_cast<int>(le(z, p + 10, 2));
      const std::uint32_t crc = static_cast<std::uint32_t>(le(z, p + 16, 4));
      std::uint64_t csize = le(z, p + 20, 4), usize = le(z, p + 24, 4);
      const std::size_t nlen = le(z, p + 28, 2), xlen = le(z, p + 30, 2), clen = le(z, p + 32, 2);
      std::uint64_t off = le(z, p + 42, 4);
      const std::string name = z.substr(p + 46, nlen);
      // zip64: the 32-bit fields that are 0xFFFFFFFF follow in this order in extra field 1.
      for (std::size_t x = p + 46 + nlen; x + 4 <= p + 46 + nlen + xlen;) {
        const std::size_t tag = le(z, x, 2), len = le(z, x + 2, 2);
        std::size_t q = x + 4;
        if (tag == 1) {
          if (usize == 0xFFFFFFFF) usize = le(z, q, 8), q += 8;
          if (csize == 0xFFFFFFFF) csize = le(z, q, 8), q += 8;
          if (off == 0xFFFFFFFF) off = le(z, q, 8);
        }
        x += 4 + len;
      }
      p += 46 + nlen + xlen + clen;
      if (z.compare(off, 4, "PK\x03\x04") != 0) throw DataError(bad);
      const std::size_t data = off + 30 + le(z, off + 26, 2) + le(z, off + 28, 2);
      // Deflate shrinks at most 1032:1, so a larger claim is a damaged directory, refused before
      // it is allocated.
      if (data + csize > z.size() || (method == 8 && usize > csize * 1032 + 1024))
        throw DataError(bad);
      std::string bytes;
      if (method == 0) {
        bytes = z.substr(data, csize);
      } else if (method == 8) {
        bytes.resize(usize);
        z_stream s{};
        if (inflateInit2(&s, -MAX_WBITS) != Z_OK) throw DataError(bad);
        s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(z.data() + data));
        s.avail_in = static_cast<uInt>(csize);
        s.next_out = reinterpret_cast<Bytef*>(bytes.data());
        s.avail_out = static_cast<uInt>(usize);
        const int rc = inflate(&s, Z_FINISH);
        inflateEnd(&s);
        if (rc != Z_STREAM_END || s.total_out != usize) throw DataError(bad);
      } else {
        throw DataError(file + ": entry '" + name + "' uses zip compression method " +
                        std::to_string(method) +
                        ", which drbench does not read (fix: write it with numpy.savez or "
                        "numpy.savez_compressed, which store or deflate)");
      }
      if (crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())) !=
          crc)
        throw DataError(file + ": entry '" + name +
                        "' fails its CRC check (file damaged; fix: " + kNpzFix + ")");
      out[name] = std::move(bytes);
    }
  } catch (const std::out_of_range&) {
    throw DataError(bad);
  }
  return out;
}

// Rows = points: a C-order (n, d) array is Armadillo's d x n as it lies; (n, h, w) images are
// flattened row by row; a Fortran-order (n, d) array is transposed.
arma::mat points_of(const NpArray& a, const std::string& what) {
  if (a.values.text)
    throw DataError(what + ": holds strings (fix: the data matrix must be numeric)");
  if (a.shape.size() < 2)
    throw DataError(what + ": has " + std::to_string(a.shape.size()) +
                    " dimension(s); expected an n x d array, one point per row (fix: "
                    "X.reshape(-1, 1) for one feature, or X.reshape(len(X), -1) for images)");
  const arma::uword n = a.shape[0], d = a.count() / std::max<std::uint64_t>(n, 1);
  if (a.fortran && a.shape.size() > 2)
    throw DataError(what + ": a Fortran-order array of rank " + std::to_string(a.shape.size()) +
                    " (fix: save numpy.ascontiguousarray(X))");
  if (a.fortran) return arma::mat(a.values.num.data(), n, d).t();
  return arma::mat(a.values.num.data(), d, n);
}

RawLabels labels_of(const NpArray& a, const std::string& what) {
  if (a.shape.size() > 2 || (a.shape.size() == 2 && a.shape[1] != 1 && a.shape[0] != 1))
    throw DataError(what + ": labels must be a vector, found shape (" +
                    std::to_string(a.shape.empty() ? 0 : a.shape[0]) + ", ...) (fix: y.ravel())");
  return a.values;
}

}  // namespace

Dataset read_npy_dataset(const std::string& file, const DataVars& names) {
  Dataset ds;
  ds.source = file;
  const std::string bytes = read_file(file);
  const bool npz = bytes.compare(0, 2, "PK") == 0;
  if (!npz) {
    ds.X = points_of(parse_npy(bytes, file), file);
    if (names.labels_path.empty())
      throw DataError(file +
                      ": a .npy holds one array, the points, and no labels (fix: "
                      "labels_path: a text file with one label per line, or save X and y "
                      "together with numpy.savez)");
  } else {
    const auto entries = unzip(bytes, file);
    auto entry = [&](const std::string& var, const char* key) -> const std::string& {
      const auto it = entries.find(var + ".npy");
      if (it != entries.end()) return it->second;
      std::string have;
      for (const auto& kv : entries) have += (have.empty() ? "" : ", ") + kv.first;
      throw DataError(file + ": no array '" + var + "' (it holds " + have + ") (fix: variables: {" +
                      key + ": NAME} naming one of them)");
    };
    ds.X = points_of(parse_npy(entry(names.x, "X"), file + ": array '" + names.x + "'"),
                     file + ": array '" + names.x + "'");
    if (names.labels_path.empty()) {
      const std::string what = file + ": array '" + names.y + "'";
      set_labels(ds, labels_of(parse_npy(entry(names.y, "y"), what), what), what,
                 "variables: {y: NAME} names the labels array");
    }
  }
  ds.n_load_peak = 3 * ds.n();  // the file's bytes, their values as doubles, the matrix
  if (!names.labels_path.empty())
    set_labels(ds, read_labels_file(names.labels_path), names.labels_path,
               "labels_path: a file with one label per line, in the order of the points");
  return ds;
}

}  // namespace drbench
