#include "methods/external/exchange.hpp"

#include <filesystem>

#include "framework/core/error.hpp"
#include "framework/support/h5.hpp"

namespace drbench::external {

namespace {

void attr_real(const h5::File& f, hid_t obj, const std::string& name, double v) {
  h5::Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  h5::Handle a(H5Acreate2(obj, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose);
  if (a.get() < 0 || H5Awrite(a, H5T_NATIVE_DOUBLE, &v) < 0)
    throw Error(f.where + ": cannot write attribute '" + name + "'");
}

std::string shape_text(std::uint64_t r, std::uint64_t c) {
  return std::to_string(r) + " x " + std::to_string(c);
}

}  // namespace

void write_input(const std::string& file, const Input& in) {
  h5::Quiet quiet;
  h5::File f = h5::create_file(file);
  const arma::mat& X = *in.Xtrain;
  h5::write_matrix(f, f.h, "X_train", X.n_cols, X.n_rows, X.memptr());
  if (in.ytrain) {
    std::vector<std::int32_t> y(in.ytrain->n_elem);
    for (arma::uword i = 0; i < y.size(); ++i) y[i] = static_cast<std::int32_t>((*in.ytrain)(i));
    h5::write_i32(f, f.h, "y_train", y);
  }
  if (in.Xtest)
    h5::write_matrix(f, f.h, "X_test", in.Xtest->n_cols, in.Xtest->n_rows, in.Xtest->memptr());
  h5::attr_string(f, f.h, "format", kFormat);
  h5::attr_int(f, f.h, "seed", in.seed);
  h5::attr_int(f, f.h, "dim", static_cast<std::int64_t>(in.dim));
  h5::attr_int(f, f.h, "n_classes", static_cast<std::int64_t>(in.n_classes));
  h5::attr_int(f, f.h, "threads", in.threads);
  h5::attr_string(f, f.h, "label", in.label);
  h5::attr_string(f, f.h, "dataset", in.dataset);
  h5::Handle g = h5::create_group(f, f.h, "params");
  std::vector<std::string> names, types;
  for (const auto& [name, v] : in.params.values()) {
    names.push_back(name);
    if (const auto* b = std::get_if<bool>(&v)) {
      types.push_back("bool");
      h5::attr_int(f, g, name, *b ? 1 : 0);
    } else if (const auto* i = std::get_if<std::int64_t>(&v)) {
      types.push_back("int");
      h5::attr_int(f, g, name, *i);
    } else if (const auto* r = std::get_if<double>(&v)) {
      types.push_back("real");
      attr_real(f, g, name, *r);
    } else {
      types.push_back("choice");
      h5::attr_string(f, g, name, std::get<std::string>(v));
    }
  }
  h5::attr_strings(f, f.h, "param_names", names);
  h5::attr_strings(f, f.h, "param_types", types);
  g.reset();
  if (f.h.close() < 0) throw Error(file + ": could not be written completely (disk full?)");
}

namespace {
// A reader's error without its fix, which is for drbench's own results files; kCommandFix is the
// one for the command that wrote this file.
std::string without_fix(std::string why) {
  const auto fix = why.rfind(" (fix: ");
  if (fix != std::string::npos) why.erase(fix);
  return why;
}
const char* const kCommandFix =
    " (fix: the command must write Z_train (and Z_test) as float64 datasets of one row per point "
    "and one column per dim; check what it writes to its last argument)";
}  // namespace

Output read_output(const std::string& file, arma::uword n, arma::uword m, arma::uword dim,
                   bool want_test) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw MethodError("the command wrote no output file (expected " + file +
                      ", the last argument it was given)");
  // Opening a FIFO (or a device) would wait for a writer forever, past every time limit.
  if (!std::filesystem::is_regular_file(file, ec))
    throw MethodError("the output " + file +
                      " is not a regular file (a FIFO, device or directory) (fix: the command "
                      "must write an HDF5 file at the last argument it is given)");
  h5::Quiet quiet;
  if (!h5::is_hdf5(file)) throw MethodError("the output file " + file + " is not an HDF5 file");
  Output out;
  try {
    h5::File f = h5::open_file(file, false);
    auto matrix = [&](const char* name, arma::uword rows) {
      if (!h5::exists(f.h, name))
        throw MethodError(std::string("the output file has no dataset '") + name + "' (expected " +
                          shape_text(rows, dim) + ": one row per point, one column per dim)");
      h5::Matrix z;
      try {
        z = h5::read_matrix(f, f.h, name);
      } catch (const Error& e) {
        throw MethodError(std::string("dataset '") + name + "' cannot be read as a matrix (" +
                          without_fix(e.what()) + "); expected " + shape_text(rows, dim) +
                          kCommandFix);
      }
      if (z.rows != rows || z.cols != dim)
        throw MethodError(std::string("dataset '") + name + "' is " + shape_text(z.rows, z.cols) +
                          ", expected " + shape_text(rows, dim) +
                          " (one row per point, one column per dim)");
      arma::mat Z(z.data.data(), z.cols, z.rows);  // row-major rows x cols = column-major d x n
      if (!Z.is_finite())
        throw MethodError(std::string("dataset '") + name + "' contains NaN or Inf");
      return Z;
    };
    out.Ztrain = matrix("Z_train", n);
    if (want_test) out.Ztest = matrix("Z_test", m);
    if (h5::exists(f.h, "trace")) {
      h5::Handle g = h5::open_group(f, f.h, "trace");
      const std::vector<double> obj = h5::read_f64(f, g, "objective");
      auto column = [&](const char* name) {
        std::vector<double> c(obj.size(), arma::datum::nan);
        if (h5::exists(g, name)) {
          c = h5::read_f64(f, g, name);
          if (c.size() != obj.size())
            throw MethodError(std::string("trace/") + name + " has " + std::to_string(c.size()) +
                              " entries, trace/objective " + std::to_string(obj.size()));
        }
        return c;
      };
      const auto gn = column("grad_norm"), sec = column("seconds"), step = column("step");
      for (std::size_t i = 0; i < obj.size(); ++i)
        out.trace.log(int(i) + 1, obj[i], gn[i], sec[i], step[i]);
      if (h5::has_attr(f.h, "optimizer"))
        out.trace.optimizer = h5::read_attr_string(f, f.h, "optimizer");
    }
  } catch (const MethodError&) {
    throw;
  } catch (const Error& e) {
    throw MethodError("the output file cannot be read: " + without_fix(e.what()) + kCommandFix);
  }
  return out;
}

}  // namespace drbench::external
