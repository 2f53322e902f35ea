#include "framework/linalg/sparse_lu.hpp"

#include <superlu/slu_ddefs.h>

#include <string>

#include "framework/core/error.hpp"

namespace drbench {

struct SparseLu::Impl {
  int n = 0;
  SuperMatrix L{}, U{};
  std::vector<int> perm_c, perm_r;
  bool factored = false;
  ~Impl() {
    if (!factored) return;
    Destroy_SuperNode_Matrix(&L);
    Destroy_CompCol_Matrix(&U);
  }
};

SparseLu::SparseLu(int n, std::vector<int> col_ptr, std::vector<int> row_ind,
                   std::vector<double> values)
    : impl_(std::make_unique<Impl>()) {
  if (n <= 0 || col_ptr.size() != static_cast<std::size_t>(n) + 1 ||
      row_ind.size() != values.size() || col_ptr.back() != static_cast<int>(values.size()))
    throw Error("SparseLu: malformed compressed-column arrays");
  // SuperLU's symmetric mode pivots on the diagonal and crashes on a structurally zero one; the
  // shifted matrices of the eigensolvers always store theirs.
  for (int c = 0; c < n; ++c) {
    bool diag = false;
    for (int e = col_ptr[c]; e < col_ptr[c + 1] && !diag; ++e) diag = row_ind[e] == c;
    if (!diag) throw Error("SparseLu: column " + std::to_string(c) + " stores no diagonal entry");
  }
  Impl& f = *impl_;
  f.n = n;
  f.perm_c.resize(static_cast<std::size_t>(n));
  f.perm_r.resize(static_cast<std::size_t>(n));
  superlu_options_t options;
  set_default_options(&options);
  // The matrices factored here are symmetric: order A + A' by minimum degree and pivot on the
  // diagonal first (symmetric mode), as SuperLU's guide advises for such matrices.
  options.ColPerm = MMD_AT_PLUS_A;
  options.SymmetricMode = YES;
  options.DiagPivotThresh = 0.001;
  SuperMatrix A, AC;
  dCreate_CompCol_Matrix(&A, n, n, static_cast<int>(values.size()), values.data(), row_ind.data(),
                         col_ptr.data(), SLU_NC, SLU_D, SLU_GE);
  std::vector<int> etree(static_cast<std::size_t>(n));
  get_perm_c(options.ColPerm, &A, f.perm_c.data());
  sp_preorder(&options, &A, f.perm_c.data(), etree.data(), &AC);
  SuperLUStat_t stat;
  StatInit(&stat);
  GlobalLU_t glu;
  int info = 0;
  dgstrf(&options, &AC, sp_ienv(2), sp_ienv(1), etree.data(), nullptr, 0, f.perm_c.data(),
         f.perm_r.data(), &f.L, &f.U, &glu, &stat, &info);
  StatFree(&stat);
  Destroy_CompCol_Permuted(&AC);
  Destroy_SuperMatrix_Store(&A);  // the arrays themselves are the vectors above
  if (info > 0 && info <= n) {
    // A zero pivot: L and U were allocated and must be freed.
    Destroy_SuperNode_Matrix(&f.L);
    Destroy_CompCol_Matrix(&f.U);
    throw MethodError("sparse LU: the shifted matrix is singular to working precision (pivot " +
                      std::to_string(info) + " of " + std::to_string(n) + ")");
  }
  if (info != 0)
    throw MethodError("sparse LU: SuperLU ran out of memory after " + std::to_string(info - n) +
                      " bytes");
  f.factored = true;
}

SparseLu::~SparseLu() = default;

void SparseLu::solve(double* b, int nrhs) const {
  Impl& f = *impl_;
  SuperMatrix B;
  dCreate_Dense_Matrix(&B, f.n, nrhs, b, f.n, SLU_DN, SLU_D, SLU_GE);
  SuperLUStat_t stat;
  StatInit(&stat);
  int info = 0;
  dgstrs(NOTRANS, &f.L, &f.U, f.perm_c.data(), f.perm_r.data(), &B, &stat, &info);
  StatFree(&stat);
  Destroy_SuperMatrix_Store(&B);
  if (info != 0) throw Error("sparse LU solve: SuperLU dgstrs info=" + std::to_string(info));
}

std::size_t SparseLu::factor_nonzeros() const {
  const auto* l = static_cast<const SCformat*>(impl_->L.Store);
  const auto* u = static_cast<const NCformat*>(impl_->U.Store);
  return static_cast<std::size_t>(l->nnz) + static_cast<std::size_t>(u->nnz);
}

}  // namespace drbench
