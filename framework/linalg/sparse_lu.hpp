#pragma once
// One sparse LU factorisation, many solves: the shift-invert operator of the sparse spectral
// methods (sparse_eigs.hpp). SuperLU (Debian's libsuperlu-dev, the library behind scipy's splu)
// with the minimum-degree ordering of A + A' and symmetric mode, which on the symmetric graph
// matrices of LE and LLE fills in about a quarter less than the default column ordering and
// factors twice as fast (20,000 Fashion-MNIST points, LLE's M with 10 neighbours: 34 M against
// 46 M factor entries). Kept free of Armadillo so SuperLU's C declarations and Armadillo's own
// copies of them never meet in one translation unit.
#include <cstddef>
#include <memory>
#include <vector>

namespace drbench {

class SparseLu {
 public:
  // The n x n matrix in compressed sparse columns (col_ptr has n + 1 entries, row indices sorted
  // within each column, every diagonal entry stored). Throws MethodError when a pivot is exactly
  // zero.
  SparseLu(int n, std::vector<int> col_ptr, std::vector<int> row_ind, std::vector<double> values);
  ~SparseLu();
  SparseLu(const SparseLu&) = delete;
  SparseLu& operator=(const SparseLu&) = delete;
  // b <- A^-1 b for nrhs right-hand sides stored one after the other (column-major n x nrhs).
  void solve(double* b, int nrhs) const;
  // Entries of L and U together (the factor's memory is about 12 bytes each).
  std::size_t factor_nonzeros() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace drbench
