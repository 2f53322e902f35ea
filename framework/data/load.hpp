#pragma once
// Finding and loading datasets. The data path is searched in order: the config's data_path, then
// $DRBENCH_DATA, then ../shared/datasets (relative to the working directory, then to the source
// tree).
#include <functional>
#include <string>
#include <vector>

#include "framework/data/dataset.hpp"
#include "framework/data/spec.hpp"

namespace drbench {

std::vector<std::string> data_search_path(const std::string& config_data_path);

// Loads (and checksum-verifies against MANIFEST.tsv where the file is listed) the dataset a spec
// names, applies max_points subsampling (seeded by `seed`), and validates it. Throws DataError
// naming the spec, the file and the fix.
Dataset load_dataset(const DatasetSpec& spec, const std::vector<std::string>& search_path,
                     std::uint64_t seed);

// Rank 0's up-front check, before any in-process read: an HDF5 dataset file that MANIFEST.tsv does
// not vouch for (unlisted, or verify_checksum: false) is read once in a child process, so a file
// that crashes libhdf5 becomes a DataError (framework/support/child_rehearsal.hpp). Call it only
// while the process has one thread.
void rehearse_dataset_read(const DatasetSpec& spec, const std::vector<std::string>& search_path);
void rehearse_hdf5_dataset(const std::string& file);

// Individual readers, usable on their own.
Dataset read_hdf5_dataset(const std::string& file);  // X (n x d), y, optional split
Dataset read_csv_dataset(const std::string& file);   // last column = label; plain or .gz
// Which arrays of a multi-array file hold the points and the labels (DatasetSpec's variables,
// matrix, labels and labels_path, the last resolved to a file).
struct DataVars {
  std::string x = "X", y = "y";  // .npz arrays, .mat variables
  std::string matrix;            // .h5ad: X (default), obsm/NAME or layers/NAME
  std::string obs_labels;        // .h5ad: the obs column of the labels
  std::string labels_path;       // a text file of labels, one per point (replaces y)
};
Dataset read_npy_dataset(const std::string& file, const DataVars& vars);         // .npy or .npz
Dataset read_mat_dataset(const std::string& file, const DataVars& vars);         // .mat v5/v7/v7.3
Dataset read_h5ad_dataset(const std::string& file, const DataVars& vars);        // AnnData
Dataset read_mtx_dataset(const std::string& file, const DataVars& vars);         // MatrixMarket
Dataset read_idx_dataset(const std::string& images, const std::string& labels);  // plain or .gz
// Several IDX images/labels pairs as one dataset, their points in the order given (an MNIST
// folder's train and t10k halves), decoded into one matrix allocated once; with more than one
// part, split(j) is the index of the part point j came from. Images of different sizes are refused
// naming the parts. `select`, given every point's label and the number of classes before any
// image is decoded, returns the points to keep (ascending indices into all parts' points): only
// those are decoded and returned, and n_read counts every point the parts hold.
struct IdxPart {
  std::string name, images, labels;
};
using IdxSelect = std::function<arma::uvec(const arma::uvec& y, std::size_t n_classes)>;
Dataset read_idx_parts(const std::vector<IdxPart>& parts, const IdxSelect& select = {});
// The labels file that goes with an IDX images file by the MNIST naming
// (train-images-idx3-ubyte[.gz] -> train-labels-idx1-ubyte[.gz]); "" when the name does not follow
// it.
std::string idx_labels_file(const std::string& images);

std::string sha256_file(const std::string& file);
std::string sha256_string(const std::string& data);
// Checks `file` against MANIFEST.tsv in its directory. Returns the verified digest, or "" when the
// directory has no manifest or the manifest does not list the file. Throws DataError on a mismatch.
std::string verify_manifest_checksum(const std::string& file);

struct DataPathEntry {
  std::string name, file, note;  // what `drbench datasets` lists
};
std::vector<DataPathEntry> list_data_path(const std::vector<std::string>& search_path);

}  // namespace drbench
