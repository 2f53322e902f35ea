#include "framework/data/labels.hpp"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>

#include "framework/core/error.hpp"
#include "framework/support/memory_size.hpp"

namespace drbench {
namespace {

bool parse_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  const char* b = s.data() + (s[0] == '+' ? 1 : 0);
  const auto r = std::from_chars(b, s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n\"");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n\"") - b + 1);
}

}  // namespace

void set_labels(Dataset& ds, const RawLabels& labels, const std::string& what,
                const std::string& fix_source) {
  const arma::uword n = ds.n();
  if (labels.size() != n) {
    if (labels.size() == ds.d() && n != ds.d())
      throw DataError(what + ": has " + std::to_string(labels.size()) +
                      " labels, one per column of the matrix, which has " + std::to_string(n) +
                      " rows (fix: the matrix must hold one point per row; transpose it, e.g. "
                      "X.T in numpy, or scipy.io.mmwrite(f, m.T) for a genes x cells matrix)");
    throw DataError(what + ": has " + std::to_string(labels.size()) + " labels for " +
                    std::to_string(n) + " points (fix: one label per point; " + fix_source + ")");
  }
  ds.y.set_size(n);
  if (labels.text) {
    std::map<std::string, arma::uword> code;
    for (const auto& l : labels.name) code.emplace(l, 0);
    arma::uword c = 0;
    for (auto& kv : code) kv.second = c++;
    for (arma::uword j = 0; j < n; ++j) ds.y(j) = code.at(labels.name[j]);
    ds.n_classes = code.size();
    return;
  }
  std::map<double, arma::uword> code;
  for (arma::uword j = 0; j < n; ++j) {
    const double v = labels.num[j];
    if (!std::isfinite(v) || v != std::floor(v))
      throw DataError(what + ": label " + std::to_string(j) + " is " +
                      (std::isnan(v) ? std::string("NaN") : std::to_string(v)) +
                      ", not an integer (fix: labels must be integers or names, one per point, "
                      "none missing; " +
                      fix_source + ")");
    code.emplace(v, 0);
  }
  arma::uword c = 0;
  for (auto& kv : code) kv.second = c++;
  for (arma::uword j = 0; j < n; ++j) ds.y(j) = code.at(labels.num[j]);
  ds.n_classes = code.size();
}

RawLabels read_labels_file(const std::string& file) {
  if (!std::filesystem::is_regular_file(file))
    throw DataError(file +
                    ": labels file not found (fix: labels_path: a text file with one label "
                    "per line, relative to the data path or absolute)");
  gzFile f = gzopen(file.c_str(), "rb");
  if (!f) throw DataError(file + ": cannot open the labels file (fix: check its permissions)");
  RawLabels out;
  std::vector<std::string> lines;
  std::string cur;
  char buf[4096];
  while (gzgets(f, buf, sizeof buf)) {
    cur += buf;
    if (cur.back() != '\n') continue;
    const std::string t = trim(cur);
    cur.clear();
    if (!t.empty() && t[0] != '#') lines.push_back(t);
  }
  int err = Z_OK;
  gzerror(f, &err);
  gzclose(f);
  if (err != Z_OK && err != Z_STREAM_END)
    throw DataError(file + ": the labels file is damaged or truncated (fix: rewrite it)");
  if (const std::string t = trim(cur); !t.empty() && t[0] != '#') lines.push_back(t);
  out.num.resize(lines.size());
  bool numeric = true;
  for (std::size_t i = 0; i < lines.size() && numeric; ++i)
    numeric = parse_number(lines[i], out.num[i]);
  if (!numeric) {
    out.text = true;
    out.num.clear();
    out.name = std::move(lines);
  }
  return out;
}

void check_densify(double n, double d, const std::string& what) {
  const double bytes = 8.0 * n * d, have = node_memory_bytes();
  if (have > 0 && bytes > have)
    throw DataError(what + ": is " + std::to_string(std::uint64_t(n)) + " x " +
                    std::to_string(std::uint64_t(d)) +
                    "; drbench's methods take dense input, "
                    "and densified it would need " +
                    format_bytes(bytes) + ", more than this " + "node's " + format_bytes(have) +
                    " (fix: select features first, e.g. highly "
                    "variable genes, or use an embedding such as matrix: obsm/X_pca)");
}

arma::sp_mat compressed_to_sparse(arma::uword outer, arma::uword inner,
                                  const std::vector<double>& indptr,
                                  const std::vector<double>& indices,
                                  const std::vector<double>& data, const std::string& damaged) {
  if (indptr.size() != outer + 1 || indices.size() != data.size() || indptr[0] != 0 ||
      indptr[outer] != double(data.size()))
    throw DataError(damaged);
  arma::uvec colptr(outer + 1), rowind(data.size());
  arma::vec values(data.size());
  colptr(0) = 0;
  std::vector<std::pair<arma::uword, double>> slice;
  for (arma::uword o = 0; o < outer; ++o) {
    if (!(indptr[o + 1] >= indptr[o])) throw DataError(damaged);
    const auto b = static_cast<std::size_t>(indptr[o]), e = static_cast<std::size_t>(indptr[o + 1]);
    colptr(o + 1) = e;
    slice.clear();
    for (std::size_t k = b; k < e; ++k) {
      if (!(indices[k] >= 0 && indices[k] < double(inner)) || indices[k] != std::floor(indices[k]))
        throw DataError(damaged);
      slice.emplace_back(static_cast<arma::uword>(indices[k]), data[k]);
    }
    std::sort(slice.begin(), slice.end(),
              [](const auto& a, const auto& c) { return a.first < c.first; });
    for (std::size_t k = 0; k < slice.size(); ++k) {
      if (k > 0 && slice[k].first == slice[k - 1].first)
        throw DataError(damaged +
                        "; an index repeats within one row or column (fix: "
                        "m.sum_duplicates() in scipy before writing)");
      rowind(b + k) = slice[k].first;
      values(b + k) = slice[k].second;
    }
  }
  // The constructor drops stored zeros, so nnz counts only true nonzeros.
  return arma::sp_mat(rowind, colptr, values, inner, outer);
}

}  // namespace drbench
