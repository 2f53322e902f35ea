#pragma once
// Labels as the field's formats store them (1-based MATLAB doubles, int64 NumPy arrays, AnnData
// category names, a text file of names), turned into drbench's classes 0..C-1. Classes are the
// distinct values in sorted order (numbers by value, text by bytes), so 1-based and 0-based
// numberings of the same classes give the same labels, and hence the same partitions.
#include <string>
#include <vector>

#include "framework/data/dataset.hpp"

namespace drbench {

struct RawLabels {
  bool text = false;
  std::vector<double> num;        // when !text
  std::vector<std::string> name;  // when text
  std::size_t size() const { return text ? name.size() : num.size(); }
};

// Sets ds.y and ds.n_classes from `labels`, one per point of ds.X. `what` names the labels in
// messages ("file.npz: array 'y'"), `fix_source` says how to give other labels ("variables: {y:
// NAME}"). Refuses another length than the points, NaN, and numbers that are not integers.
void set_labels(Dataset& ds, const RawLabels& labels, const std::string& what,
                const std::string& fix_source);

// A text file of labels, one per line (blank lines and '#' comments skipped; plain or .gz):
// numbers where every line is one, else names.
RawLabels read_labels_file(const std::string& file);

// The size of X dense in memory (8 bytes a value) checked before a matrix a header claims is
// allocated (a sparse one densified, or a dense one whose header may be damaged):
// refused naming `what` and the fix when it exceeds this node's memory.
void check_densify(double n, double d, const std::string& what);

// A compressed sparse matrix (scipy's CSR or CSC arrays: `outer` + 1 offsets in indptr, inner
// indices and values) as the inner x outer Armadillo matrix whose columns are the outer slices,
// so a CSR cells x genes matrix becomes genes x cells directly. Indices within a slice may come in
// any order (scipy leaves them unsorted after some operations); explicit zeros are dropped.
// Throws DataError(damaged) on offsets that do not rise, indices out of range or repeated within a
// slice.
arma::sp_mat compressed_to_sparse(arma::uword outer, arma::uword inner,
                                  const std::vector<double>& indptr,
                                  const std::vector<double>& indices,
                                  const std::vector<double>& data, const std::string& damaged);

}  // namespace drbench
