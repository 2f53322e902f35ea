#include "framework/data/load.hpp"
#include "framework/support/build_info.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <optional>
#include <sstream>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/generators.hpp"
#include "framework/data/mocap.hpp"
#include "framework/support/child_rehearsal.hpp"

namespace fs = std::filesystem;

namespace drbench {
namespace {

// Where Debian's dataset-fashion-mnist package installs its IDX files.
const char* kDebianFashionMnist = "/usr/share/datasets/fashion-mnist";

std::vector<std::string> bundled_dirs() {
  std::vector<std::string> dirs = {(fs::current_path() / "datasets" / "data").string(),
                                   std::string(drbench::source_dir()) + "/datasets/data"};
  return dirs;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string f;
  while (std::getline(ss, f, '\t')) {
    if (!f.empty() && f.back() == '\r') f.pop_back();
    out.push_back(f);
  }
  return out;
}

struct ManifestRow {
  std::string name, file, sha256, n, d, classes;
};

std::vector<ManifestRow> read_manifest(const fs::path& manifest) {
  std::vector<ManifestRow> rows;
  std::ifstream in(manifest);
  if (!in) return rows;
  std::string line;
  if (!std::getline(in, line)) return rows;
  const auto header = split_tabs(line);
  auto col = [&](const std::string& key) -> int {
    const auto it = std::find(header.begin(), header.end(), key);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  const int c_file = col("file"), c_sha = col("sha256");
  if (c_file < 0 || c_sha < 0)
    throw DataError(manifest.string() +
                    ": header lacks 'file' and 'sha256' columns (fix: restore "
                    "the manifest, a tab-separated table starting name<TAB>file<TAB>sha256...)");
  const int c_name = col("name"), c_n = col("n"), c_d = col("d"), c_classes = col("classes");
  while (std::getline(in, line)) {
    const auto f = split_tabs(line);
    auto at = [&](int c) {
      return c >= 0 && c < static_cast<int>(f.size()) ? f[c] : std::string();
    };
    if (f.empty() || at(c_file).empty()) continue;
    rows.push_back({at(c_name), at(c_file), at(c_sha), at(c_n), at(c_d), at(c_classes)});
  }
  return rows;
}

// A name or path resolved against the data path; relative paths with a directory part are also
// tried against the working directory.
std::string resolve(const std::string& file, const std::vector<std::string>& search_path,
                    std::vector<std::string>& tried) {
  const fs::path p(file);
  if (p.is_absolute()) {
    tried.push_back(file);
    return fs::exists(p) ? file : "";
  }
  for (const auto& dir : search_path) {
    const fs::path cand = fs::path(dir) / p;
    tried.push_back(cand.string());
    if (fs::exists(cand)) return cand.string();
  }
  tried.push_back((fs::current_path() / p).string());
  if (fs::exists(p)) return fs::absolute(p).string();
  return "";
}

std::string not_found(const DatasetSpec& spec, const std::string& file,
                      const std::vector<std::string>& tried, const std::string& fix) {
  std::string msg = "dataset '" + spec.name + "'";
  if (spec.line > 0) msg += " (config line " + std::to_string(spec.line) + ")";
  msg += ": file '" + file + "' not found; searched:";
  for (const auto& t : tried) msg += "\n  " + t;
  if (tried.empty()) msg += " (the data path is empty)";
  return msg + "\n(fix: " + fix + ")";
}

const std::string kPathFix =
    "set data_path in the config or DRBENCH_DATA to the directory holding it, or give an "
    "absolute path";

// Seeded, stratified subsample of m of the points labelled y (0..C-1): each class keeps its share
// (largest remainders get the leftover points), at least one point per class while m allows.
// The kept indices, ascending.
arma::uvec subsample_keep(const arma::uvec& y, std::size_t C, arma::uword m, std::uint64_t seed) {
  const arma::uword n = y.n_elem;
  std::vector<std::vector<arma::uword>> members(C);
  for (arma::uword j = 0; j < n; ++j) members[y(j)].push_back(j);
  std::vector<arma::uword> quota(C);
  std::vector<std::pair<double, arma::uword>> remainder;
  arma::uword used = 0;
  for (arma::uword c = 0; c < C; ++c) {
    const double exact = double(members[c].size()) * double(m) / double(n);
    quota[c] = static_cast<arma::uword>(std::floor(exact));
    used += quota[c];
    remainder.push_back({-(exact - double(quota[c])), c});
  }
  std::sort(remainder.begin(), remainder.end());
  for (std::size_t i = 0; used < m && i < remainder.size(); ++i, ++used)
    ++quota[remainder[i].second];
  // Lift empty classes to one point, taking from the largest quotas.
  for (arma::uword c = 0; c < C; ++c)
    if (quota[c] == 0 && !members[c].empty()) {
      const auto big = std::max_element(quota.begin(), quota.end()) - quota.begin();
      if (quota[big] <= 1) break;
      --quota[big];
      quota[c] = 1;
    }
  Rng rng(hash_seed(seed, "max_points"));
  std::vector<arma::uword> keep;
  for (arma::uword c = 0; c < C; ++c) {
    const arma::uvec perm = rng.permutation(members[c].size());
    for (arma::uword i = 0; i < quota[c]; ++i) keep.push_back(members[c][perm(i)]);
  }
  std::sort(keep.begin(), keep.end());
  return arma::uvec(keep);
}

// The points `classes` and then `max_points` keep, chosen from the labels alone, so that a reader
// can decode only those (IDX) and every other source is cut once.
struct Kept {
  bool any = false;  // false: every point stays
  arma::uvec ids;    // into the source's points, ascending
  arma::uvec y;      // their labels, relabelled by classes
  std::size_t n_classes = 0;
  std::string suffix;  // for Dataset::source
};

Kept select_points(const arma::uvec& y, std::size_t n_classes, const DatasetSpec& spec,
                   std::uint64_t seed,
                   const std::function<std::string(const std::string&)>& where) {
  Kept k;
  k.ids.set_size(y.n_elem);
  std::iota(k.ids.begin(), k.ids.end(), arma::uword(0));
  k.y = y;
  k.n_classes = n_classes;
  if (!spec.classes.empty()) {
    std::vector<arma::uword> keep;
    arma::uvec relabel(n_classes, arma::fill::value(arma::uword(-1)));
    for (std::size_t c = 0; c < spec.classes.size(); ++c) {
      if (spec.classes[c] >= n_classes)
        throw DataError(where("classes: label " + std::to_string(spec.classes[c]) +
                              " does not exist (the data have labels 0.." +
                              std::to_string(n_classes - 1) + ")"));
      relabel(spec.classes[c]) = c;
    }
    for (arma::uword i = 0; i < y.n_elem; ++i)
      if (relabel(y(i)) != arma::uword(-1)) keep.push_back(i);
    const arma::uvec idx(keep);
    k.ids = k.ids(idx).eval();
    k.y = relabel(y(idx)).eval();
    k.n_classes = spec.classes.size();
    k.suffix += " [classes " + std::to_string(spec.classes.size()) + " of the file's]";
    k.any = true;
  }
  if (spec.max_points > 0 && spec.max_points < k.ids.n_elem) {
    const arma::uvec idx = subsample_keep(k.y, k.n_classes, spec.max_points, seed);
    k.suffix += " [stratified subsample of " + std::to_string(spec.max_points) + " of " +
                std::to_string(k.ids.n_elem) + " points]";
    k.ids = k.ids(idx).eval();
    k.y = k.y(idx).eval();
    k.any = true;
  }
  return k;
}

}  // namespace

std::vector<std::string> data_search_path(const std::string& config_data_path) {
  std::vector<std::string> cand;
  if (!config_data_path.empty()) cand.push_back(config_data_path);
  if (const char* env = std::getenv("DRBENCH_DATA"); env && *env) cand.push_back(env);
  cand.push_back((fs::current_path() / ".." / "shared" / "datasets").string());
  cand.push_back(std::string(drbench::source_dir()) + "/../shared/datasets");
  std::vector<std::string> out;
  std::vector<fs::path> seen;
  for (const auto& c : cand) {
    std::error_code ec;
    if (!fs::is_directory(c, ec)) continue;
    const fs::path canon = fs::weakly_canonical(c, ec);
    if (std::find(seen.begin(), seen.end(), canon) != seen.end()) continue;
    seen.push_back(canon);
    out.push_back(canon.string());
  }
  return out;
}

namespace {

fs::path manifest_of(const std::string& file) {
  return fs::path(file).parent_path() / "MANIFEST.tsv";
}

// The manifest's row for `file`, if its directory has a manifest that lists it.
std::optional<ManifestRow> manifest_row(const std::string& file) {
  const fs::path manifest = manifest_of(file);
  if (!fs::exists(manifest)) return std::nullopt;
  for (auto& row : read_manifest(manifest))
    if (row.file == fs::path(file).filename().string()) return row;
  return std::nullopt;
}

// The formats of other tools (npy/npz, mat, h5ad, mtx): the file and a labels file found like
// any dataset file, checksummed where a manifest lists them.
Dataset read_format(const DatasetSpec& spec, const std::vector<std::string>& search_path,
                    std::vector<std::string>& tried) {
  const std::string& src = spec.source;
  const std::string name =
      spec.path.empty() ? spec.name + (src == "npy" ? ".npz" : "." + src) : spec.path;
  const std::string file = resolve(name, search_path, tried);
  if (file.empty()) throw DataError(not_found(spec, name, tried, kPathFix));
  const std::string sha = spec.verify_checksum ? verify_manifest_checksum(file) : "";
  DataVars vars{spec.var_x, spec.var_y, spec.matrix, spec.labels, ""};
  if (!spec.labels_path.empty()) {
    std::vector<std::string> dirs = search_path;
    dirs.insert(dirs.begin(), fs::path(file).parent_path().string());  // beside the data first
    std::vector<std::string> tried_labels;
    vars.labels_path = resolve(spec.labels_path, dirs, tried_labels);
    if (vars.labels_path.empty())
      throw DataError(not_found(spec, spec.labels_path, tried_labels,
                                "labels_path: a text file with one label per point, beside the "
                                "data file, on the data path, or absolute"));
    if (spec.verify_checksum) verify_manifest_checksum(vars.labels_path);
  }
  Dataset ds = src == "npy"    ? read_npy_dataset(file, vars)
               : src == "mat"  ? read_mat_dataset(file, vars)
               : src == "h5ad" ? read_h5ad_dataset(file, vars)
                               : read_mtx_dataset(file, vars);
  ds.sha256 = sha;
  return ds;
}

}  // namespace

std::string verify_manifest_checksum(const std::string& file) {
  const auto row = manifest_row(file);
  if (!row) return "";
  const std::string got = sha256_file(file);
  if (got != row->sha256)
    throw DataError(file + ": sha256 mismatch against " + manifest_of(file).string() +
                    "\n  expected " + row->sha256 + "\n  got      " + got +
                    "\n(fix: the file is damaged or was replaced; restore it from the source "
                    "named in the manifest, or set verify_checksum: false for this dataset if "
                    "the change is intended)");
  return got;
}

void rehearse_hdf5_dataset(const std::string& file) {
  rehearse_in_child(
      file, "regenerate or re-export the dataset file, e.g. with h5py, and check it with h5dump",
      [&] { (void)read_hdf5_dataset(file); });
}

void rehearse_dataset_read(const DatasetSpec& spec, const std::vector<std::string>& search_path) {
  // .h5ad and .mat (v7.3 through matio's HDF5 backend) reach libhdf5 too: read once in a child.
  if (spec.source == "h5ad" || spec.source == "mat") {
    std::vector<std::string> tried;
    const std::string file =
        resolve(spec.path.empty() ? spec.name + "." + spec.source : spec.path, search_path, tried);
    if (file.empty() || (spec.verify_checksum && manifest_row(file))) return;
    rehearse_in_child(file,
                      "rewrite the file with the tool that made it (anndata, h5py, MATLAB, "
                      "scipy.io.savemat)",
                      [&] {
                        std::vector<std::string> t;
                        (void)read_format(spec, search_path, t);
                      });
    return;
  }
  if (spec.source != "file") return;
  std::vector<std::string> tried;
  const std::string file =
      resolve(spec.path.empty() ? spec.name + ".h5" : spec.path, search_path, tried);
  // A listed file is checked against its SHA-256 before libhdf5 reads a byte of it.
  if (file.empty() || (spec.verify_checksum && manifest_row(file))) return;
  rehearse_hdf5_dataset(file);
}

namespace {

using Where = std::function<std::string(const std::string&)>;

// An IDX images file, or a folder of an MNIST-style set. classes and max_points choose from the
// labels before any image is decoded, so only the kept images are ever held (70,000
// Fashion-MNIST images read, 20,000 kept: 120 MiB instead of 420); `kept` says which.
Dataset read_idx_source(const DatasetSpec& spec, const std::vector<std::string>& search_path,
                        std::uint64_t seed, const Where& where, std::vector<std::string>& tried,
                        std::optional<Kept>& kept) {
  const auto select_idx = [&](const arma::uvec& y, std::size_t n_classes) {
    kept = select_points(y, n_classes, spec, seed, where);
    return kept->ids;
  };
  if (spec.path.empty())
    throw DataError(where("source idx needs path: the images file (fix: e.g. path: " +
                          std::string(kDebianFashionMnist) + "/train-images-idx3-ubyte.gz)"));
  std::vector<std::string> dirs = search_path;
  dirs.push_back(kDebianFashionMnist);
  std::string images = resolve(spec.path, dirs, tried);
  if (images.empty() && fs::path(spec.path).extension() != ".gz")
    images = resolve(spec.path + ".gz", dirs, tried);
  if (images.empty())
    throw DataError(not_found(spec, spec.path, tried,
                              kPathFix + "; Fashion-MNIST: apt-get install dataset-fashion-mnist"));
  if (!fs::is_directory(images)) {
    const std::string labels = idx_labels_file(images);
    if (labels.empty())
      throw DataError(where("cannot tell the labels file for '" + images +
                            "' (fix: name the pair *-images-idx3-ubyte / *-labels-idx1-ubyte)"));
    return read_idx_parts({IdxPart{"", images, labels}}, select_idx);
  }
  // A folder of an MNIST-style set: both halves as one dataset whose own split is the published
  // one (0 train, 1 test), for `splits: {own: true}`.
  auto half = [&](const std::string& part) {
    for (const char* ext : {".gz", ""}) {
      const fs::path img = fs::path(images) / (part + "-images-idx3-ubyte" + ext);
      const fs::path lab = fs::path(images) / (part + "-labels-idx1-ubyte" + ext);
      if (fs::is_regular_file(img) && fs::is_regular_file(lab))
        return IdxPart{part, img.string(), lab.string()};
    }
    throw DataError(where("'" + images + "' is a folder without " + part +
                          "-images-idx3-ubyte[.gz] and its labels (fix: give the folder "
                          "holding train-* and t10k-* IDX files, or one images file)"));
  };
  // Read into one matrix: joining two afterwards held both halves and their join at once.
  Dataset ds = read_idx_parts({half("train"), half("t10k")}, select_idx);
  ds.source = images + " (train + t10k)";
  return ds;
}

Dataset read_bundled(const DatasetSpec& spec, std::vector<std::string>& tried) {
  const std::string name = spec.path.empty() ? spec.name : spec.path;
  std::string file;
  for (const auto& dir : bundled_dirs()) {
    const fs::path cand = fs::path(dir) / (name + ".csv");
    tried.push_back(cand.string());
    if (fs::exists(cand)) {
      file = cand.string();
      break;
    }
  }
  if (file.empty())
    throw DataError(not_found(spec, name + ".csv", tried,
                              "bundled datasets are iris and wine (datasets/data/ in the source "
                              "tree); use source: file for others"));
  return read_csv_dataset(file);
}

// The dataset as its source holds it (IDX: only the points `kept` chose while reading).
Dataset read_source(const DatasetSpec& spec, const std::vector<std::string>& search_path,
                    std::uint64_t seed, const Where& where, std::optional<Kept>& kept) {
  const std::string& src = spec.source;
  std::vector<std::string> tried;
  if (src == "file" || src == "csv") {
    const std::string name =
        spec.path.empty() ? spec.name + (src == "file" ? ".h5" : ".csv") : spec.path;
    const std::string file = resolve(name, search_path, tried);
    if (file.empty()) throw DataError(not_found(spec, name, tried, kPathFix));
    const std::string sha = spec.verify_checksum ? verify_manifest_checksum(file) : "";
    Dataset ds = src == "file" ? read_hdf5_dataset(file) : read_csv_dataset(file);
    ds.sha256 = sha;
    return ds;
  }
  if (src == "npy" || src == "mat" || src == "h5ad" || src == "mtx")
    return read_format(spec, search_path, tried);
  if (src == "idx") return read_idx_source(spec, search_path, seed, where, tried, kept);
  if (src == "mocap") {
    const std::string name = spec.path.empty() ? spec.name + ".tsv" : spec.path;
    const std::string list = resolve(name, search_path, tried);
    if (list.empty())
      throw DataError(not_found(spec, name, tried,
                                kPathFix + "; a mocap list names one CMU sequence per line "
                                           "(docs/config.md, source: mocap)"));
    return read_mocap_list(list);
  }
  if (src == "bundled") return read_bundled(spec, tried);
  if (src == "generator") return generate_dataset(spec.generator, spec.generator_params, seed);
  throw DataError(where("unknown source '" + src +
                        "' (fix: one of file, csv, npy, mat, h5ad, mtx, idx, bundled, "
                        "generator, mocap)"));
}

// classes and max_points applied to what was read (unless the IDX reader chose already), and
// the memory model's load transient: the source's points, and the kept copy beside them where
// the reader could not leave the others out.
void keep_chosen_points(Dataset& ds, const DatasetSpec& spec, std::uint64_t seed,
                        const Where& where, std::optional<Kept>& kept) {
  // A reader that held copies of the points at once (the NumPy, MATLAB and AnnData readers: the
  // format's own layout, then drbench's) leaves that many points' worth in n_load_peak; the
  // memory model counts the larger of it and the copies made here.
  const arma::uword reader_peak = ds.n_load_peak;
  arma::uword n_read = ds.n(), n_load_peak = ds.n();
  if (kept) {
    n_read = ds.n_read;
  } else {
    // Both choose by label: points without one are refused as such first.
    const bool choose = !spec.classes.empty() || (spec.max_points > 0 && spec.max_points < ds.n());
    if (choose && (ds.n_classes == 0 || ds.y.n_elem != ds.n())) validate_dataset(ds);
    kept = select_points(ds.y, ds.n_classes, spec, seed, where);
    if (kept->any) {
      n_load_peak = n_read + kept->ids.n_elem;
      if (ds.sparse())
        ds.Xs = arma::sp_mat(ds.Xs.cols(kept->ids));
      else
        ds.X = ds.X.cols(kept->ids).eval();
      if (!ds.split.is_empty()) ds.split = ds.split(kept->ids).eval();
      if (!ds.sequence.is_empty()) ds.sequence = ds.sequence(kept->ids).eval();
    }
  }
  if (kept->any) {
    ds.y = kept->y;
    ds.n_classes = kept->n_classes;
    ds.source += kept->suffix;
  }
  ds.n_read = n_read;
  ds.n_load_peak = std::max(n_load_peak, reader_peak);
}

}  // namespace

Dataset load_dataset(const DatasetSpec& spec, const std::vector<std::string>& search_path,
                     std::uint64_t seed) {
  Dataset ds;
  const Where where = [&](const std::string& msg) {
    return "dataset '" + spec.name + "'" +
           (spec.line > 0 ? " (config line " + std::to_string(spec.line) + ")" : "") + ": " + msg;
  };
  std::optional<Kept> kept;  // chosen while reading (IDX), else below
  try {
    ds = read_source(spec, search_path, seed, where, kept);
  } catch (const DataError& e) {
    const std::string m = e.what();
    if (m.rfind("dataset '", 0) == 0) throw;
    throw DataError(where(m));
  }
  ds.name = spec.name;
  keep_chosen_points(ds, spec, seed, where, kept);
  if (spec.sequences == "classes") {
    if (ds.y.n_elem != ds.n())
      throw DataError(where("sequences: classes needs labels (fix: remove sequences)"));
    ds.sequence = ds.y;  // each class one sequence, in file order (COIL-20's poses)
  }
  validate_dataset(ds);
  return ds;
}

std::vector<DataPathEntry> list_data_path(const std::vector<std::string>& search_path) {
  std::vector<DataPathEntry> out;
  for (const auto& dir : search_path) {
    std::error_code ec;
    std::vector<ManifestRow> manifest;
    try {
      manifest = read_manifest(fs::path(dir) / "MANIFEST.tsv");
    } catch (const DataError&) {
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_regular_file() && !source_of_path(e.path().filename().string()).empty())
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      DataPathEntry entry{f.stem().string(), f.string(),
                          "not in MANIFEST.tsv (checksum not verified)"};
      for (const auto& r : manifest)
        if (r.file == f.filename().string()) {
          entry.name = r.name.empty() ? entry.name : r.name;
          entry.note = r.n + " x " + r.d + ", " + r.classes + " classes (sha256 in MANIFEST.tsv)";
        }
      out.push_back(entry);
    }
  }
  for (const auto& dir : bundled_dirs()) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (const char* name : {"iris", "wine"}) {
      const fs::path f = fs::path(dir) / (std::string(name) + ".csv");
      if (fs::exists(f)) out.push_back({name, f.string(), "bundled (source: bundled)"});
    }
    break;
  }
  for (const char* part : {"train", "t10k"}) {
    const fs::path f =
        fs::path(kDebianFashionMnist) / (std::string(part) + "-images-idx3-ubyte.gz");
    if (fs::exists(f))
      out.push_back({std::string("fashion-mnist-") + part, f.string(),
                     "IDX from Debian dataset-fashion-mnist (source: idx)"});
  }
  return out;
}

}  // namespace drbench
