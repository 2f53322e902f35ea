#include "framework/support/h5.hpp"

#include <algorithm>
#include <filesystem>

#include "framework/core/error.hpp"
#include "framework/support/bytes.hpp"
#include "framework/support/h5_claims.hpp"
#include "framework/support/heap_check.hpp"

namespace drbench::h5 {

namespace {

[[noreturn]] void fail(const File& f, const std::string& what) {
  throw Error(f.where + ": " + what);
}

Handle check(const File& f, hid_t id, herr_t (*close)(hid_t), const std::string& what) {
  if (id < 0) fail(f, what);
  return Handle(id, close);
}

void check(const File& f, herr_t rc, const std::string& what) {
  if (rc < 0) fail(f, what);
}

Handle utf8_type() {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

Handle simple_space(const File& f, int rank, const hsize_t* dims) {
  return check(f, H5Screate_simple(rank, dims, nullptr), H5Sclose, "cannot create a dataspace");
}

void reclaim(hid_t type, hid_t space, void* buf) {
#if H5_VERSION_GE(1, 12, 0)
  H5Treclaim(type, space, H5P_DEFAULT, buf);
#else
  H5Dvlen_reclaim(type, space, H5P_DEFAULT, buf);
#endif
}

// Chunked layout with HDF5's Fletcher-32 checksum filter: every read verifies the chunk, so a
// damaged file fails to read instead of giving wrong numbers. Empty datasets have no chunks.
Handle checked_layout(const File& f, int rank, const hsize_t* dims) {
  Handle dcpl = check(f, H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "cannot create properties");
  hsize_t chunk[2] = {1, 1};
  for (int i = 0; i < rank; ++i)
    if (dims[i] == 0) return dcpl;
  const hsize_t row = rank == 2 ? dims[1] : 1;
  chunk[0] = std::min<hsize_t>(dims[0], std::max<hsize_t>(1, 65536 / row));
  if (rank == 2) chunk[1] = dims[1];
  check(f, H5Pset_chunk(dcpl, rank, chunk), "cannot set the chunk layout");
  check(f, H5Pset_fletcher32(dcpl), "cannot enable the Fletcher-32 checksum");
  return dcpl;
}

template <class T>
void write_column(const File& f, hid_t g, const std::string& name, hid_t file_type, hid_t mem_type,
                  const std::vector<T>& v) {
  hsize_t n = v.size();
  Handle space = simple_space(f, 1, &n);
  // HDF5 filters cannot apply to variable-length strings; those carry a CRC-32 attribute instead.
  const bool vlen = H5Tis_variable_str(file_type) > 0;
  Handle dcpl = vlen ? Handle(H5Pcreate(H5P_DATASET_CREATE), H5Pclose) : checked_layout(f, 1, &n);
  Handle d = check(f, H5Dcreate2(g, name.c_str(), file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                   H5Dclose, "cannot create dataset '" + name + "'");
  if (n > 0)
    check(f, H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()),
          "cannot write dataset '" + name + "'");
}

// CRC-32 of the strings, each preceded by its length (so ["ab", ""] and ["a", "b"] differ).
std::int64_t strings_crc(const std::vector<std::string>& v) {
  std::string all;
  for (const auto& s : v) all += std::to_string(s.size()) + ":" + s;
  return crc32(all);
}

std::string damaged(const std::string& name) {
  return "cannot read dataset '" + name +
         "': the file is damaged (its Fletcher-32 checksum or structure does not verify), so none "
         "of its numbers can be trusted (fix: restore the file from a copy, or rerun the "
         "experiment with --force-new)";
}

Handle open_dataset(const File& f, hid_t g, const std::string& name) {
  return check(f, H5Dopen2(g, name.c_str(), H5P_DEFAULT), H5Dclose,
               "missing dataset '" + name + "' (not a drbench results file, or damaged)");
}

// Read files only: a damaged one can claim any shape, so the claim is checked against the file
// before anything is allocated for it.
void check_claim(const File& f, hid_t obj, bool attr, hssize_t n, const std::string& name) {
  if (f.bytes == 0) return;
  const std::string problem =
      attr ? h5_attribute_claim_problem(obj, static_cast<long double>(n), f.bytes)
           : h5_dataset_claim_problem(obj, static_cast<long double>(n), f.bytes);
  if (!problem.empty())
    fail(f, (attr ? "attribute '" : "dataset '") + name + "' " + problem +
                ": the file is damaged (fix: restore the file from a copy, or rerun the "
                "experiment with --force-new)");
}

hssize_t n_points(const File& f, hid_t d, const std::string& name) {
  Handle space(H5Dget_space(d), H5Sclose);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) fail(f, "cannot read the size of '" + name + "'");
  check_claim(f, d, false, n, name);
  return n;
}

template <class T>
std::vector<T> read_column(const File& f, hid_t g, const std::string& name, hid_t mem_type) {
  Handle d = open_dataset(f, g, name);
  std::vector<T> v(n_points(f, d, name));
  if (!v.empty())
    check(f, H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), damaged(name));
  return v;
}

Handle open_attr(const File& f, hid_t obj, const std::string& name) {
  return check(f, H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose,
               "missing attribute '" + name + "'");
}

Handle create_attr(const File& f, hid_t obj, const std::string& name, hid_t type, hid_t space) {
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  return check(f, H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
               "cannot create attribute '" + name + "'");
}

std::vector<std::string> read_vlen_strings(const File& f, hid_t obj, bool attr,
                                           const std::string& name) {
  Handle type = utf8_type();
  Handle ds = attr ? open_attr(f, obj, name) : open_dataset(f, obj, name);
  Handle space(attr ? H5Aget_space(ds) : H5Dget_space(ds), H5Sclose);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) fail(f, "cannot read the size of '" + name + "'");
  check_claim(f, ds, attr, n, name);
  std::vector<char*> ptrs(n, nullptr);
  if (n == 0) return {};
  herr_t rc = attr ? H5Aread(ds, type, ptrs.data())
                   : H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data());
  if (rc < 0)
    fail(f, attr ? "cannot read strings from '" + name + "' (expected variable-length UTF-8)"
                 : damaged(name));
  std::vector<std::string> out;
  out.reserve(n);
  for (char* p : ptrs) out.emplace_back(p ? p : "");
  reclaim(type, space, ptrs.data());
  return out;
}

// No HDF5 file locks: one process writes, always to a new file that is renamed into place, so
// locks protect nothing here, and they fail outright on NFS/Lustre mounts without flock.
Handle access_props() {
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
#if H5_VERSION_GE(1, 10, 7)
  H5Pset_file_locking(fapl, false, true);
#endif
  return fapl;
}

}  // namespace

File create_file(const std::string& path) {
  File f{Handle(), path};
  f.h = check(f, H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access_props()), H5Fclose,
              "cannot create the HDF5 file (check that the directory is writable)");
  return f;
}

bool is_hdf5(const std::string& path) {
  Quiet q;
  return std::filesystem::exists(path) && H5Fis_hdf5(path.c_str()) > 0;
}

File open_file(const std::string& path, bool writable) {
  File f{Handle(), path};
  if (!std::filesystem::exists(path))
    fail(f, "no such file (fix: check the path; drbench run writes results/<config>.h5)");
  if (std::filesystem::is_directory(path))
    fail(f, "is a directory (fix: name the results file inside it)");
  if (!is_hdf5(path))
    fail(f,
         "not an HDF5 file (fix: give a results file that drbench run wrote; a truncated or "
         "overwritten file cannot be read)");
  check_global_heaps(path);
  std::error_code ec;
  f.bytes = writable ? 0 : std::filesystem::file_size(path, ec);
  if (ec) f.bytes = 0;
  f.h = check(f, H5Fopen(path.c_str(), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, access_props()),
              H5Fclose,
              "cannot open the HDF5 file: it is damaged or truncated (fix: restore it from a "
              "copy, or rerun the experiment)");
  return f;
}

Handle create_group(const File& f, hid_t parent, const std::string& name) {
  return check(f, H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
               "cannot create group '" + name + "'");
}

Handle open_group(const File& f, hid_t parent, const std::string& name) {
  return check(f, H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose,
               "missing group '" + name + "'");
}

bool exists(hid_t parent, const std::string& path) {
  std::string prefix;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    prefix = path.substr(0, slash);
    if (H5Lexists(parent, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

std::vector<std::string> children(const File& f, hid_t group) {
  H5G_info_t info;
  check(f, H5Gget_info(group, &info), "cannot list a group");
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    ssize_t len =
        H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (len < 0) fail(f, "cannot list a group");
    std::string name(len, '\0');
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), len + 1,
                       H5P_DEFAULT);
    names.push_back(name);
  }
  return names;
}

void attr_string(const File& f, hid_t obj, const std::string& name, const std::string& text) {
  const std::string value = valid_utf8(text);  // the type says UTF-8: make it so
  Handle type = utf8_type();
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a = create_attr(f, obj, name, type, space);
  const char* p = value.c_str();
  check(f, H5Awrite(a, type, &p), "cannot write attribute '" + name + "'");
}

void attr_strings(const File& f, hid_t obj, const std::string& name,
                  const std::vector<std::string>& texts) {
  std::vector<std::string> values;
  for (const auto& t : texts) values.push_back(valid_utf8(t));
  Handle type = utf8_type();
  hsize_t n = values.size();
  Handle space = simple_space(f, 1, &n);
  Handle a = create_attr(f, obj, name, type, space);
  std::vector<const char*> ptrs;
  for (const auto& s : values) ptrs.push_back(s.c_str());
  if (n > 0) check(f, H5Awrite(a, type, ptrs.data()), "cannot write attribute '" + name + "'");
}

void attr_int(const File& f, hid_t obj, const std::string& name, std::int64_t value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a = create_attr(f, obj, name, H5T_STD_I64LE, space);
  check(f, H5Awrite(a, H5T_NATIVE_INT64, &value), "cannot write attribute '" + name + "'");
}

void attr_ints(const File& f, hid_t obj, const std::string& name,
               const std::vector<std::int64_t>& values) {
  hsize_t n = values.size();
  Handle space = simple_space(f, 1, &n);
  Handle a = create_attr(f, obj, name, H5T_STD_I64LE, space);
  if (n > 0)
    check(f, H5Awrite(a, H5T_NATIVE_INT64, values.data()), "cannot write attribute '" + name + "'");
}

bool has_attr(hid_t obj, const std::string& name) {
  return H5Aexists(obj, name.c_str()) > 0;
}

std::string read_attr_string(const File& f, hid_t obj, const std::string& name) {
  auto v = read_vlen_strings(f, obj, true, name);
  if (v.size() != 1) fail(f, "attribute '" + name + "' is not a single string");
  return v[0];
}

std::vector<std::string> read_attr_strings(const File& f, hid_t obj, const std::string& name) {
  return read_vlen_strings(f, obj, true, name);
}

std::vector<std::int64_t> read_attr_ints(const File& f, hid_t obj, const std::string& name) {
  Handle a = open_attr(f, obj, name);
  Handle space(H5Aget_space(a), H5Sclose);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) fail(f, "cannot read attribute '" + name + "'");
  check_claim(f, a, true, n, name);
  std::vector<std::int64_t> v(n);
  if (n > 0)
    check(f, H5Aread(a, H5T_NATIVE_INT64, v.data()), "cannot read attribute '" + name + "'");
  return v;
}

std::int64_t read_attr_int(const File& f, hid_t obj, const std::string& name) {
  auto v = read_attr_ints(f, obj, name);
  if (v.size() != 1) fail(f, "attribute '" + name + "' is not a single integer");
  return v[0];
}

void write_f64(const File& f, hid_t g, const std::string& name, const std::vector<double>& v) {
  write_column(f, g, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v);
}
void write_u64(const File& f, hid_t g, const std::string& name,
               const std::vector<std::uint64_t>& v) {
  write_column(f, g, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, v);
}
void write_i32(const File& f, hid_t g, const std::string& name,
               const std::vector<std::int32_t>& v) {
  write_column(f, g, name, H5T_STD_I32LE, H5T_NATIVE_INT32, v);
}
void write_i8(const File& f, hid_t g, const std::string& name, const std::vector<std::int8_t>& v) {
  write_column(f, g, name, H5T_STD_I8LE, H5T_NATIVE_INT8, v);
}

void write_strings(const File& f, hid_t g, const std::string& name,
                   const std::vector<std::string>& texts) {
  // Stored text is UTF-8 whatever a method or an external command said; the CRC covers what is
  // stored, so a reader verifies the escaped text.
  std::vector<std::string> v;
  v.reserve(texts.size());
  for (const auto& t : texts) v.push_back(valid_utf8(t));
  Handle type = utf8_type();
  std::vector<const char*> ptrs;
  for (const auto& s : v) ptrs.push_back(s.c_str());
  write_column(f, g, name, type, type, ptrs);
  Handle d = open_dataset(f, g, name);
  attr_int(f, d, "crc32", strings_crc(v));
}

void write_string(const File& f, hid_t g, const std::string& name, const std::string& text) {
  const std::string v = valid_utf8(text);
  Handle type = utf8_type();
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle d =
      check(f, H5Dcreate2(g, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
            H5Dclose, "cannot create dataset '" + name + "'");
  const char* p = v.c_str();
  check(f, H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &p),
        "cannot write dataset '" + name + "'");
}

std::vector<double> read_f64(const File& f, hid_t g, const std::string& name) {
  return read_column<double>(f, g, name, H5T_NATIVE_DOUBLE);
}
std::vector<std::int64_t> read_i64(const File& f, hid_t g, const std::string& name) {
  return read_column<std::int64_t>(f, g, name, H5T_NATIVE_INT64);
}
std::vector<std::uint64_t> read_u64(const File& f, hid_t g, const std::string& name) {
  return read_column<std::uint64_t>(f, g, name, H5T_NATIVE_UINT64);
}
std::vector<std::string> read_strings(const File& f, hid_t g, const std::string& name) {
  auto v = read_vlen_strings(f, g, false, name);
  Handle d = open_dataset(f, g, name);
  if (has_attr(d, "crc32") && read_attr_int(f, d, "crc32") != strings_crc(v))
    fail(f, damaged(name));
  return v;
}
std::string read_string(const File& f, hid_t g, const std::string& name) {
  auto v = read_vlen_strings(f, g, false, name);
  if (v.size() != 1) fail(f, "dataset '" + name + "' is not a single string");
  return v[0];
}

Handle write_matrix(const File& f, hid_t g, const std::string& name, std::uint64_t rows,
                    std::uint64_t cols, const double* data) {
  hsize_t dims[2] = {rows, cols};
  Handle space = simple_space(f, 2, dims);
  Handle dcpl = checked_layout(f, 2, dims);
  Handle d =
      check(f, H5Dcreate2(g, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
            H5Dclose, "cannot create dataset '" + name + "'");
  if (rows * cols > 0)
    check(f, H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
          "cannot write dataset '" + name + "'");
  return d;
}

Matrix read_matrix(const File& f, hid_t g, const std::string& name) {
  Handle d = open_dataset(f, g, name);
  Handle space(H5Dget_space(d), H5Sclose);
  if (H5Sget_simple_extent_ndims(space) != 2) fail(f, "dataset '" + name + "' is not 2-D");
  hsize_t dims[2];
  H5Sget_simple_extent_dims(space, dims, nullptr);
  check_claim(f, d, false, static_cast<hssize_t>(H5Sget_simple_extent_npoints(space)), name);
  Matrix m{dims[0], dims[1], std::vector<double>(dims[0] * dims[1])};
  if (!m.data.empty())
    check(f, H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.data.data()),
          damaged(name));
  return m;
}

}  // namespace drbench::h5
