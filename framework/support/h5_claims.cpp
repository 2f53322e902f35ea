#include "framework/support/h5_claims.hpp"

#include <unistd.h>

#include <cstdio>

namespace drbench {

namespace {

constexpr long double kDeflateMaxRatio = 1032;

// A damaged file's claim can exceed 2^64 (dims multiply), where converting to an integer is
// undefined (fuzz/fuzz_hdf5 under UBSan); such claims are printed in floating point.
std::string bytes(long double b) {
  if (b < 1.8e19L) return std::to_string(static_cast<unsigned long long>(b));
  char text[32];
  std::snprintf(text, sizeof text, "%.3Le", b);
  return text;
}

long double memory_bytes() {
  return static_cast<long double>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<long double>(sysconf(_SC_PAGE_SIZE));
}

long double element_size(hid_t type) {
  const std::size_t s = type >= 0 ? H5Tget_size(type) : 0;
  return static_cast<long double>(s == 0 ? 1 : s);
}

// True when every filter keeps the data's size (checksum, shuffle); false when one compresses.
bool size_preserving(hid_t dset) {
  const hid_t plist = H5Dget_create_plist(dset);
  if (plist < 0) return true;
  bool keeps = true;
  const int n = H5Pget_nfilters(plist);
  for (int i = 0; i < n; ++i) {
    unsigned flags = 0;
    std::size_t nvalues = 0;
    unsigned config = 0;
    const H5Z_filter_t f =
        H5Pget_filter2(plist, unsigned(i), &flags, &nvalues, nullptr, 0, nullptr, &config);
    if (f != H5Z_FILTER_FLETCHER32 && f != H5Z_FILTER_SHUFFLE) keeps = false;
  }
  H5Pclose(plist);
  return keeps;
}

}  // namespace

std::string h5_dataset_claim_problem(hid_t dset, long double values, std::uintmax_t file_bytes) {
  const hid_t type = H5Dget_type(dset);
  const long double claimed = values * element_size(type);
  if (type >= 0) H5Tclose(type);
  const long double file = static_cast<long double>(file_bytes);
  const long double stored = static_cast<long double>(H5Dget_storage_size(dset));
  if (claimed <= 0) return "";
  if (stored > file) return "claims " + bytes(stored) + " stored bytes in a file of " + bytes(file);
  if (size_preserving(dset)) {
    if (stored < claimed)
      return "claims " + bytes(claimed) + " bytes of values, but the file stores " + bytes(stored) +
             " of them";
  } else if (claimed > kDeflateMaxRatio * file) {
    return "claims " + bytes(claimed) + " bytes of values, more than any compression of a " +
           bytes(file) + "-byte file can hold";
  }
  if (values * sizeof(double) > memory_bytes())
    return "claims " + bytes(values) + " values, more than this machine's memory holds";
  return "";
}

std::string h5_attribute_claim_problem(hid_t attr, long double values, std::uintmax_t file_bytes) {
  const hid_t type = H5Aget_type(attr);
  const long double claimed = values * element_size(type);
  if (type >= 0) H5Tclose(type);
  if (claimed > static_cast<long double>(file_bytes))
    return "claims " + bytes(claimed) + " bytes of values in a file of " +
           bytes(static_cast<long double>(file_bytes));
  return "";
}

}  // namespace drbench
