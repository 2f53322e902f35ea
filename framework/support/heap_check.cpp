#include "framework/support/heap_check.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <span>

#include "framework/core/error.hpp"

namespace drbench::h5 {

namespace {

constexpr std::uint64_t kMinCollection = 4096;  // H5HG_MINSIZE: no collection is smaller

std::uint64_t little_endian(const unsigned char* p, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

// Size of "lengths" from the superblock (8 in every file drbench writes); 0 when not found, in
// which case libhdf5 refuses the file on its own.
unsigned length_size(std::span<const unsigned char> b) {
  static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  for (std::uint64_t base = 0; base + 16 <= b.size(); base = base ? base * 2 : 512) {
    if (std::memcmp(b.data() + base, sig, 8) != 0) continue;
    const unsigned version = b[base + 8];
    const unsigned size = version < 2 ? b[base + 14] : b[base + 10];
    return size == 2 || size == 4 || size == 8 ? size : 0;
  }
  return 0;
}

[[noreturn]] void damaged(const std::string& path, std::uint64_t at, const std::string& why) {
  throw Error(path + ": the file is damaged: the string heap at byte " + std::to_string(at) + " " +
              why +
              ", so none of its strings can be trusted (fix: restore the file from a copy, or "
              "rerun the experiment with --force-new)");
}

// Mirrors the walk libhdf5 does when it loads a collection, refusing what would make that walk
// stall (a record of size 0), wrap around, or leave the collection.
void walk_collection(const std::string& path, std::span<const unsigned char> b, std::uint64_t at,
                     unsigned len) {
  // The collection's header and each record's header have the same size: 8 bytes, then a length.
  const std::uint64_t header = 8 + len;
  if (b.size() - at < header) damaged(path, at, "is cut short");
  const std::uint64_t size = little_endian(b.data() + at + 8, len);
  if (size < kMinCollection || size > b.size() - at)
    damaged(path, at, "claims " + std::to_string(size) + " bytes");
  std::uint64_t p = header;
  while (p < size) {
    if (size - p < header) break;  // a tail too small for a record is free space
    const unsigned index = unsigned(little_endian(b.data() + at + p, 2));
    const std::uint64_t bytes = little_endian(b.data() + at + p + 8, len);
    if (bytes > size) damaged(path, at, "holds a record larger than itself");
    const std::uint64_t need = index > 0 ? header + ((bytes + 7) / 8) * 8 : bytes;
    if (need == 0 || need > size - p)
      damaged(path, at,
              "holds a record of " + std::to_string(bytes) + " bytes at offset " +
                  std::to_string(p) + " that does not fit");
    p += need;
  }
}

}  // namespace

// Read-only mapping: results files of large sweeps reach gigabytes, and the scan touches each
// page once.
class Mapped {
 public:
  explicit Mapped(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(p);
        size_ = std::size_t(st.st_size);
      }
    }
    ::close(fd);
  }
  ~Mapped() {
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  std::span<const unsigned char> bytes() const { return {data_, size_}; }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

void check_global_heaps(const std::string& path) {
  const Mapped file(path);  // unreadable: the open that follows reports it
  const auto b = file.bytes();
  const unsigned len = length_size(b);
  if (len == 0) return;
  static const unsigned char sig[5] = {'G', 'C', 'O', 'L', 1};
  const unsigned char* p = b.data();
  const unsigned char* end = b.data() + b.size();
  while (p && end - p >= 8) {
    p = static_cast<const unsigned char*>(::memmem(p, std::size_t(end - p), sig, sizeof sig));
    if (!p) break;
    walk_collection(path, b, std::uint64_t(p - b.data()), len);
    ++p;
  }
}

}  // namespace drbench::h5
