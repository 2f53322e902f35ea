// IDX files (MNIST, Fashion-MNIST): big-endian header (0, 0, element type, rank, then one 32-bit
// size per axis) followed by the elements. Read through zlib so the .gz files Debian's
// dataset-fashion-mnist ships work as well as uncompressed ones (gzread passes plain files
// through).
//
// Memory: the images are decoded chunk by chunk (256 KiB of raw bytes) straight into the dataset's
// matrix, which is allocated once for every part (train + t10k), so loading holds the points as
// doubles and one chunk. A caller that subsamples (classes, max_points) chooses from the labels
// first, and only the kept images are decoded. The previous reader held the raw bytes, a
// std::vector<double> of them and the matrix copied from it (47 + 376 + 376 MB for Fashion-MNIST's
// training half). A header is trusted with an allocation only after a first pass has found every
// element it promises in the file, so a damaged header that promises terabytes fails at the end of
// the file (fuzz/fuzz_idx) instead of allocating them; that pass costs one more decompression
// (0.25 s for the 47 MB of Fashion-MNIST's training images).
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/load.hpp"

namespace drbench {
namespace {

// A multiple of every element size, so no element straddles two chunks.
constexpr std::size_t kChunkBytes = std::size_t(1) << 18;

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
  // zlib's reason for the last failed read ("incorrect data check" for a CRC mismatch), or ""
  // when the file simply ended.
  std::string error() const {
    int code = Z_OK;
    const char* what = gzerror(f_, &code);
    return code == Z_OK || code == Z_STREAM_END || !what ? "" : what;
  }
  // After the last element: one more read reaches the gzip trailer, whose CRC-32 and length
  // zlib checks only there; "" when it verifies (or the file is not compressed).
  std::string trailer_error() {
    unsigned char extra = 0;
    return gzread(f_, &extra, 1) < 0 ? error() : "";
  }

 private:
  gzFile f_;
};

std::uint32_t big_endian(const unsigned char* b) {
  return (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) |
         std::uint32_t(b[3]);
}

template <typename T>
void decode(const unsigned char* raw, std::size_t n, double* out) {
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char b[sizeof(T)];
    for (std::size_t k = 0; k < sizeof(T); ++k) b[k] = raw[i * sizeof(T) + sizeof(T) - 1 - k];
    T v;
    std::memcpy(&v, b, sizeof(T));  // IDX is big-endian; we assume a little-endian host (x86, ARM)
    out[i] = static_cast<double>(v);
  }
}

// One IDX file, opened and its header read (refusing what is not IDX); its elements are then read
// once, by verify(), decode_into() or read_all().
class IdxFile {
 public:
  explicit IdxFile(const std::string& path) : path_(path) {
    if (!std::filesystem::is_regular_file(path))
      throw DataError(path +
                      ": no such IDX file (fix: check the path; Fashion-MNIST: apt-get install "
                      "dataset-fashion-mnist puts it in /usr/share/datasets/fashion-mnist)");
    f_ = std::make_unique<GzFile>(path);
    unsigned char head[4];
    if (!f_->ok() || !f_->read(head, 4)) {
      const std::string gz = f_->ok() ? f_->error() : "";
      throw DataError(path +
                      (gz.empty() ? ": cannot read the IDX header (file empty or damaged"
                                  : ": the gzip data is damaged (zlib: " + gz + ")") +
                      "; fix: re-download the file)");
    }
    if (head[0] != 0 || head[1] != 0 || head[3] == 0)
      throw DataError(path +
                      ": not an IDX file (magic bytes wrong; fix: give the "
                      "*-images-idx3-ubyte file, optionally .gz)");
    type_ = head[2];
    const unsigned rank = head[3];
    switch (type_) {
      case 0x08:
      case 0x09:
        size_ = 1;
        break;
      case 0x0B:
        size_ = 2;
        break;
      case 0x0C:
      case 0x0D:
        size_ = 4;
        break;
      case 0x0E:
        size_ = 8;
        break;
      default:
        throw DataError(
            path + ": unknown IDX element type 0x" + std::to_string(type_) +
            " (valid: 0x08 ubyte, 0x09 byte, 0x0B short, 0x0C int, 0x0D float, 0x0E double; fix: "
            "re-download the file)");
    }
    for (unsigned r = 0; r < rank; ++r) {
      unsigned char b[4];
      if (!f_->read(b, 4))
        throw DataError(path + ": IDX header truncated (fix: re-download the file)");
      dims_.push_back(big_endian(b));
      if (dims_.back() > 0 && total_ > (std::size_t(1) << 40) / dims_.back())
        throw DataError(path + ": IDX header promises more than 2^40 elements (file damaged; " +
                        "fix: re-download the file)");
      total_ *= dims_.back();
    }
  }

  const std::vector<std::uint32_t>& dims() const { return dims_; }
  std::size_t total() const { return total_; }  // elements the header promises

  // Reads through every element the header promises without keeping them.
  void verify() {
    each_chunk([](const unsigned char*, std::size_t, std::size_t) {});
  }
  // Decodes every element, a chunk at a time: f(values, n, index of the first).
  template <class F>
  void decode_each(F&& f) {
    std::vector<double> values;
    each_chunk([&](const unsigned char* raw, std::size_t n, std::size_t at) {
      values.resize(n);
      decode_chunk(raw, n, values.data());
      f(values.data(), n, at);
    });
  }
  // Every element, in a vector grown as they arrive (for the small labels file: a damaged header
  // cannot make it allocate more than the file holds).
  std::vector<double> read_all() {
    std::vector<double> out;
    each_chunk([&](const unsigned char* raw, std::size_t n, std::size_t at) {
      out.resize(at + n);
      decode_chunk(raw, n, out.data() + at);
    });
    return out;
  }

 private:
  template <class F>
  void each_chunk(F&& f) {
    std::vector<unsigned char> raw(std::min(kChunkBytes, total_ * size_));
    const std::size_t per_chunk = kChunkBytes / size_;
    for (std::size_t at = 0; at < total_; at += per_chunk) {
      const std::size_t n = std::min(per_chunk, total_ - at);
      if (!f_->read(raw.data(), n * size_)) {
        const std::string gz = f_->error();
        throw DataError(path_ +
                        (gz.empty() ? ": IDX data truncated: header promises " +
                                          std::to_string(total_) + " elements"
                                    : ": the gzip data is damaged (zlib: " + gz + ")") +
                        " (fix: re-download the file)");
      }
      f(raw.data(), n, at);
    }
    if (const std::string gz = f_->trailer_error(); !gz.empty())
      throw DataError(path_ + ": the gzip data is damaged (zlib: " + gz +
                      ") (fix: re-download the file)");
  }

  void decode_chunk(const unsigned char* raw, std::size_t n, double* out) const {
    switch (type_) {
      case 0x08:
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<double>(raw[i]);
        break;
      case 0x09:
        decode<std::int8_t>(raw, n, out);
        break;
      case 0x0B:
        decode<std::int16_t>(raw, n, out);
        break;
      case 0x0C:
        decode<std::int32_t>(raw, n, out);
        break;
      case 0x0D:
        decode<float>(raw, n, out);
        break;
      case 0x0E:
        decode<double>(raw, n, out);
        break;
    }
  }

  std::string path_;
  std::unique_ptr<GzFile> f_;
  unsigned type_ = 0;
  std::size_t size_ = 1, total_ = 1;
  std::vector<std::uint32_t> dims_;
};

}  // namespace

std::string idx_labels_file(const std::string& images) {
  const std::filesystem::path p(images);
  std::string name = p.filename().string();
  const auto pos = name.find("images-idx3");
  if (pos == std::string::npos) return "";
  name.replace(pos, 11, "labels-idx1");
  return (p.parent_path() / name).string();
}

namespace {

// A part's header, element count and labels, checked before anything is allocated for its images.
struct IdxChecked {
  std::vector<std::uint32_t> dims;
  std::size_t n = 0, d = 0;
  arma::uvec y;
  std::size_t n_classes = 0;
};

IdxChecked check_idx_part(const IdxPart& part) {
  IdxChecked c;
  std::size_t total = 0;
  {
    IdxFile x(part.images);
    x.verify();
    c.dims = x.dims();
    total = x.total();
  }
  // One number a sample is a labels file; read as 1-pixel images its labels become the feature.
  if (c.dims.size() < 2)
    throw DataError(part.images + ": a rank-" + std::to_string(c.dims.size()) +
                    " IDX file (one number per sample, as a labels file holds) given as "
                    "images (fix: images are the *-images-idx3-ubyte file, labels the "
                    "*-labels-idx1-ubyte file)");
  IdxFile yf(part.labels);
  const std::vector<double> y = yf.read_all();
  const auto& ydims = yf.dims();
  if (c.dims.empty() || c.dims[0] == 0)
    throw DataError(part.images + ": IDX images file holds no samples (fix: re-download the file)");
  if (ydims.size() != 1 || ydims[0] != c.dims[0])
    throw DataError(part.labels + ": " + (ydims.empty() ? "0" : std::to_string(ydims[0])) +
                    " labels for " + std::to_string(c.dims[0]) + " images in " + part.images +
                    " (fix: pair train-images with train-labels, t10k-images with t10k-labels)");
  c.n = c.dims[0];
  c.d = total / c.n;
  c.y.set_size(c.n);
  double ymax = 0;
  for (std::size_t j = 0; j < c.n; ++j) {
    if (y[j] < 0 || y[j] != std::floor(y[j]))
      throw DataError(
          part.labels + ": label " + std::to_string(j) +
          " is not a class number 0..C-1 (fix: give the matching *-labels-idx1-ubyte file)");
    c.y(j) = static_cast<arma::uword>(y[j]);
    ymax = std::max(ymax, y[j]);
  }
  c.n_classes = static_cast<std::size_t>(ymax) + 1;
  return c;
}

constexpr arma::uword kDropped = arma::uword(-1);

// Where each point goes: its column among the kept, or kDropped.
std::vector<arma::uword> kept_columns(const arma::uvec& keep, std::size_t n_all) {
  std::vector<arma::uword> column(n_all, kDropped);
  for (arma::uword i = 0; i < keep.n_elem; ++i) {
    if (keep(i) >= n_all || (i > 0 && keep(i) <= keep(i - 1)))
      throw Error("internal: read_idx_parts' selection is not ascending indices of its points");
    column[keep(i)] = i;
  }
  return column;
}

// Each image's pixels row by row become one column of X, the parts' columns one after another.
void decode_kept(const std::vector<IdxPart>& parts, const std::vector<IdxChecked>& checked,
                 const std::vector<arma::uword>& column, arma::mat& X) {
  const std::size_t d = checked[0].d;
  for (std::size_t k = 0, first = 0; k < parts.size(); first += checked[k].n, ++k) {
    IdxFile x(parts[k].images);
    // The file was read once already; one that changed since must not write past its columns.
    if (x.dims() != checked[k].dims)
      throw DataError(parts[k].images +
                      ": IDX header changed while the file was read (fix: load it again once "
                      "nothing writes to it)");
    x.decode_each([&](const double* v, std::size_t n, std::size_t at) {
      // Elements at..at+n of this part: whole or partial images, copied where they are kept.
      for (std::size_t e = 0; e < n;) {
        const std::size_t point = (at + e) / d, row = (at + e) % d;
        const std::size_t len = std::min(n - e, d - row);
        const arma::uword col = column[first + point];
        if (col != kDropped) std::copy(v + e, v + e + len, X.colptr(col) + row);
        e += len;
      }
    });
  }
}

}  // namespace

Dataset read_idx_parts(const std::vector<IdxPart>& parts, const IdxSelect& select) {
  if (parts.empty()) throw Error("internal: read_idx_parts without a part");
  // First every part's header, elements and labels, so that nothing is allocated for the images
  // before every size is known to be true.
  std::vector<IdxChecked> checked;
  std::size_t n_all = 0;
  for (const IdxPart& part : parts) {
    checked.push_back(check_idx_part(part));
    n_all += checked.back().n;
  }
  for (std::size_t k = 1; k < parts.size(); ++k)
    if (checked[k].d != checked[0].d)
      throw DataError(parts[0].name + " and " + parts[k].name + " images differ in size (" +
                      std::to_string(checked[0].d) + " and " + std::to_string(checked[k].d) +
                      " pixels)");
  // Every point's label and part, then the points to keep, before any image is decoded.
  arma::uvec y(n_all);
  arma::ivec part_of(n_all);
  std::size_t n_classes = 0;
  for (std::size_t k = 0, at = 0; k < parts.size(); at += checked[k].n, ++k) {
    y.subvec(at, at + checked[k].n - 1) = checked[k].y;
    part_of.subvec(at, at + checked[k].n - 1).fill(static_cast<arma::sword>(k));
    n_classes = std::max(n_classes, checked[k].n_classes);
  }
  arma::uvec keep;
  if (select) {
    keep = select(y, n_classes);
  } else {
    keep.set_size(n_all);
    std::iota(keep.begin(), keep.end(), arma::uword(0));
  }
  const std::vector<arma::uword> column = kept_columns(keep, n_all);
  Dataset ds;
  ds.source = parts[0].images;
  ds.n_read = n_all;
  ds.n_classes = n_classes;
  ds.y = y(keep);
  if (parts.size() > 1) ds.split = part_of(keep);
  ds.X.set_size(checked[0].d, keep.n_elem);
  decode_kept(parts, checked, column, ds.X);
  return ds;
}

Dataset read_idx_dataset(const std::string& images, const std::string& labels) {
  return read_idx_parts({IdxPart{"", images, labels}});
}

}  // namespace drbench
