// IDX files (MNIST, Fashion-MNIST): big-endian header (0, 0, element type, rank, then one 32-bit
// size per axis) followed by the elements. Read through zlib so the .gz files Debian's
// dataset-fashion-mnist ships work as well as uncompressed ones (gzread passes plain files
// through).
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/load.hpp"

namespace drbench {
namespace {

struct IdxArray {
  std::vector<std::uint32_t> dims;
  std::vector<double> data;
};

class GzFile {
 public:
  explicit GzFile(const std::string& path) : f_(gzopen(path.c_str(), "rb")) {}
  ~GzFile() {
    if (f_) gzclose(f_);
  }
  GzFile(const GzFile&) = delete;
  GzFile& operator=(const GzFile&) = delete;
  bool ok() const { return f_ != nullptr; }
  bool read(void* buf, std::size_t n) {
    auto* p = static_cast<unsigned char*>(buf);
    while (n > 0) {
      const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
      const int got = gzread(f_, p, chunk);
      if (got <= 0) return false;
      p += got;
      n -= static_cast<std::size_t>(got);
    }
    return true;
  }

 private:
  gzFile f_;
};

std::uint32_t big_endian(const unsigned char* b) {
  return (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) |
         std::uint32_t(b[3]);
}

template <typename T>
void decode(const std::vector<unsigned char>& raw, std::vector<double>& out) {
  const std::size_t n = raw.size() / sizeof(T);
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char b[sizeof(T)];
    for (std::size_t k = 0; k < sizeof(T); ++k) b[k] = raw[i * sizeof(T) + sizeof(T) - 1 - k];
    T v;
    std::memcpy(&v, b, sizeof(T));  // IDX is big-endian; we assume a little-endian host (x86, ARM)
    out[i] = static_cast<double>(v);
  }
}

IdxArray read_idx(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw DataError(path +
                    ": no such IDX file (fix: check the path; Fashion-MNIST: apt-get install "
                    "dataset-fashion-mnist puts it in /usr/share/datasets/fashion-mnist)");
  GzFile f(path);
  unsigned char head[4];
  if (!f.ok() || !f.read(head, 4))
    throw DataError(
        path + ": cannot read the IDX header (file empty or damaged; fix: re-download the file)");
  if (head[0] != 0 || head[1] != 0 || head[3] == 0)
    throw DataError(path +
                    ": not an IDX file (magic bytes wrong; fix: give the "
                    "*-images-idx3-ubyte file, optionally .gz)");
  const unsigned type = head[2], rank = head[3];
  std::size_t size = 0;
  switch (type) {
    case 0x08:
    case 0x09:
      size = 1;
      break;
    case 0x0B:
      size = 2;
      break;
    case 0x0C:
    case 0x0D:
      size = 4;
      break;
    case 0x0E:
      size = 8;
      break;
    default:
      throw DataError(
          path + ": unknown IDX element type 0x" + std::to_string(type) +
          " (valid: 0x08 ubyte, 0x09 byte, 0x0B short, 0x0C int, 0x0D float, 0x0E double; fix: "
          "re-download the file)");
  }
  IdxArray a;
  std::size_t total = 1;
  for (unsigned r = 0; r < rank; ++r) {
    unsigned char b[4];
    if (!f.read(b, 4)) throw DataError(path + ": IDX header truncated (fix: re-download the file)");
    a.dims.push_back(big_endian(b));
    if (a.dims.back() > 0 && total > (std::size_t(1) << 40) / a.dims.back())
      throw DataError(path + ": IDX header promises more than 2^40 elements (file damaged; fix: " +
                      "re-download the file)");
    total *= a.dims.back();
  }
  // Grown as the bytes arrive, so a damaged header that promises terabytes fails at the end of
  // the file instead of allocating them first.
  std::vector<unsigned char> raw;
  const std::size_t want = total * size;
  while (raw.size() < want) {
    const std::size_t at = raw.size();
    raw.resize(std::min(want, at + (std::size_t(1) << 24)));
    if (!f.read(raw.data() + at, raw.size() - at))
      throw DataError(path + ": IDX data truncated: header promises " + std::to_string(total) +
                      " elements (fix: re-download the file)");
  }
  switch (type) {
    case 0x08:
      a.data.assign(raw.begin(), raw.end());
      break;
    case 0x09:
      decode<std::int8_t>(raw, a.data);
      break;
    case 0x0B:
      decode<std::int16_t>(raw, a.data);
      break;
    case 0x0C:
      decode<std::int32_t>(raw, a.data);
      break;
    case 0x0D:
      decode<float>(raw, a.data);
      break;
    case 0x0E:
      decode<double>(raw, a.data);
      break;
  }
  return a;
}

}  // namespace

std::string idx_labels_file(const std::string& images) {
  const std::filesystem::path p(images);
  std::string name = p.filename().string();
  const auto pos = name.find("images-idx3");
  if (pos == std::string::npos) return "";
  name.replace(pos, 11, "labels-idx1");
  return (p.parent_path() / name).string();
}

Dataset read_idx_dataset(const std::string& images, const std::string& labels) {
  const IdxArray x = read_idx(images);
  const IdxArray y = read_idx(labels);
  if (x.dims.empty() || x.dims[0] == 0)
    throw DataError(images + ": IDX images file holds no samples (fix: re-download the file)");
  if (y.dims.size() != 1 || y.dims[0] != x.dims[0])
    throw DataError(labels + ": " + (y.dims.empty() ? "0" : std::to_string(y.dims[0])) +
                    " labels for " + std::to_string(x.dims[0]) + " images in " + images +
                    " (fix: pair train-images with train-labels, t10k-images with t10k-labels)");
  const std::size_t n = x.dims[0], d = x.data.size() / n;
  Dataset ds;
  ds.source = images;
  ds.X = arma::mat(x.data.data(), d, n);  // each image's pixels row by row become one column
  ds.y.set_size(n);
  double ymax = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (y.data[j] < 0 || y.data[j] != std::floor(y.data[j]))
      throw DataError(
          labels + ": label " + std::to_string(j) +
          " is not a class number 0..C-1 (fix: give the matching *-labels-idx1-ubyte file)");
    ds.y(j) = static_cast<arma::uword>(y.data[j]);
    ymax = std::max(ymax, y.data[j]);
  }
  ds.n_classes = static_cast<std::size_t>(ymax) + 1;
  return ds;
}

}  // namespace drbench
