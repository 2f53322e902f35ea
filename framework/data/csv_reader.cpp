// Comma-separated (or tab/semicolon) text, plain or gzip-compressed: one point per line, features
// then the label. A first line that is not all numbers is taken as a header. Integer labels are
// kept as they are (validation then insists on 0..C-1); text labels ("setosa") are numbered in
// sorted order.
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/data/load.hpp"

namespace drbench {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\"");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\"");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> fields(const std::string& line) {
  char sep = ',';
  if (line.find(',') == std::string::npos) sep = line.find(';') != std::string::npos ? ';' : '\t';
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto pos = line.find(sep, start);
    out.push_back(trim(line.substr(start, pos - start)));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return out;
}

bool parse_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  const char* b = s.data() + (s[0] == '+' ? 1 : 0);
  const auto r = std::from_chars(b, s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

Dataset read_csv_dataset(const std::string& file) {
  if (std::filesystem::is_directory(file))
    throw DataError(file + ": is a directory, not a CSV file (fix: give the .csv file in it)");
  // gzread passes an uncompressed file through, so .csv and .csv.gz take the same path.
  gzFile gz = gzopen(file.c_str(), "rb");
  if (!gz) throw DataError(file + ": cannot open CSV file (fix: check the path)");
  std::string text;
  char buf[1 << 16];
  int got = 0;
  while ((got = gzread(gz, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(got));
  int err = Z_OK;
  const char* why = gzerror(gz, &err);
  const std::string reason = why ? why : "";
  gzclose(gz);
  if (got < 0 || (err != Z_OK && err != Z_STREAM_END))
    throw DataError(file + ": compressed CSV damaged or truncated (" + reason +
                    ") (fix: compress it again with gzip, or give the plain .csv)");
  std::istringstream in(text);
  std::vector<double> values;
  std::vector<std::string> labels;
  std::size_t cols = 0, rows = 0;
  std::string line;
  int lineno = 0;
  bool first = true;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto f = fields(t);
    std::vector<double> row(f.size() - 1);
    bool all_numeric = true;
    for (std::size_t i = 0; i + 1 < f.size(); ++i)
      all_numeric = all_numeric && parse_double(f[i], row[i]);
    if (first) {
      first = false;
      if (!all_numeric) continue;  // header line
    }
    if (f.size() < 2)
      throw DataError(file + ":" + std::to_string(lineno) +
                      ": a row needs at least one feature and a label (fix: last column = label)");
    if (cols == 0) cols = f.size();
    if (f.size() != cols)
      throw DataError(file + ":" + std::to_string(lineno) + ": " + std::to_string(f.size()) +
                      " fields where earlier rows have " + std::to_string(cols) +
                      " (fix: every row needs the same features, then the label)");
    if (!all_numeric) {
      for (std::size_t i = 0; i + 1 < f.size(); ++i)
        if (!parse_double(f[i], row[i]))
          throw DataError(file + ":" + std::to_string(lineno) + ": feature " + std::to_string(i) +
                          " '" + f[i] +
                          "' is not a number (fix: only the last column may be text)");
    }
    values.insert(values.end(), row.begin(), row.end());
    labels.push_back(f.back());
    ++rows;
  }
  if (rows == 0) throw DataError(file + ": no data rows (fix: one point per line, label last)");

  Dataset ds;
  ds.source = file;
  ds.X = arma::mat(values.data(), cols - 1, rows);  // row-major rows == columns of X
  ds.y.set_size(rows);
  bool integer_labels = true;
  for (const auto& l : labels) {
    double v;
    // Below 2^53, so the conversion to an integer is exact and defined.
    integer_labels = integer_labels && parse_double(l, v) && v >= 0 && v == std::floor(v) &&
                     v < 9007199254740992.0;
  }
  if (integer_labels) {
    for (std::size_t j = 0; j < rows; ++j)
      ds.y(j) = static_cast<arma::uword>(std::stod(labels[j]));  // checked above
    ds.n_classes = ds.y.max() + 1;
  } else {
    std::map<std::string, arma::uword> code;
    for (const auto& l : labels) code.emplace(l, 0);
    arma::uword c = 0;
    for (auto& [name, id] : code) id = c++;
    for (std::size_t j = 0; j < rows; ++j) ds.y(j) = code.at(labels[j]);
    ds.n_classes = code.size();
  }
  return ds;
}

}  // namespace drbench
