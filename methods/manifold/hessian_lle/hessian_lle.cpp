// Hessian eigenmaps (Donoho & Grimes 2003, PNAS 100, section "HLLE algorithm"): in every
// neighbourhood the top `dim` principal directions U give tangent coordinates; the columns
// [1, U, U_a U_b (a <= b)] orthonormalised by Gram-Schmidt (a thin QR) estimate, in their last
// dim(dim+1)/2 columns H_i, the tangent Hessian; the embedding is the bottom eigenvectors of
// M = sum_i S_i H_i H_i' S_i' after the constant one, the functions of least Hessian energy
// (on a flat, locally isometric manifold, exactly the linear functions of the intrinsic
// coordinates). New points map by reconstruction weights (methods/manifold/local_alignment.hpp).
//
// scikit-learn's method='hessian' takes every column of the full QR factor beyond the first
// dim + 1, i.e. the whole complement of [1, U] rather than the Hessian columns alone, which makes
// its M that of LTSA (its 'hessian' and 'ltsa' embeddings agree to 1e-12, scikit-learn 1.2); this
// implementation follows the paper, whose M differs from LTSA's.
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

namespace {

class HessianLle final : public LocalAlignmentMethod {
 public:
  explicit HessianLle(const LocalAlignmentSetting& s) : LocalAlignmentMethod("hessian_lle", s) {}

 protected:
  // The thin QR needs k >= 1 + dim + dim(dim+1)/2 independent rows.
  arma::uword min_neighbours(arma::uword dim) const override {
    return 1 + dim + dim * (dim + 1) / 2;
  }
  arma::sp_mat alignment(const arma::mat& X, const arma::umat& nn, arma::uword dim) const override {
    const arma::uword n = X.n_cols, k = nn.n_rows, dp = dim * (dim + 1) / 2;
    Triplets t;
    arma::mat Yi(k, 1 + dim + dp);
    for (arma::uword i = 0; i < n; ++i) {
      const arma::uvec idx = nn.col(i);
      arma::mat Z = X.cols(idx);
      Z.each_col() -= arma::mean(Z, 1);
      arma::vec ev;
      arma::mat U;
      local_gram_eigs(Z.t() * Z, ev, U);
      Yi.col(0).ones();
      Yi.cols(1, dim) = U.head_cols(dim);
      arma::uword c = 1 + dim;
      for (arma::uword a = 0; a < dim; ++a)
        for (arma::uword b = a; b < dim; ++b) Yi.col(c++) = U.col(a) % U.col(b);
      arma::mat Q, R;
      if (!arma::qr_econ(Q, R, Yi)) throw MethodError("hessian_lle: local QR failed");
      const arma::mat H = Q.tail_cols(dp);
      t.add_block(idx, H * H.t());
    }
    return t.matrix(n);
  }
};

constexpr std::int64_t kNeighbours = 12;  // the default of `neighbours`

MethodInfo hessian_lle_info() {
  MethodInfo m =
      describe_method("hessian_lle", "manifold",
                      "Hessian eigenmaps (HLLE); out-of-sample by reconstruction weights",
                      "Donoho & Grimes 2003, PNAS 100(10), HLLE algorithm steps 1-6");
  const LocalAlignmentKeys keys = describe_local_alignment(m, kNeighbours, true);
  m.make = [keys](const ParamSet& p) { return std::make_unique<HessianLle>(keys(p)); };
  return m;
}

Budget hessian_lle_budget() {
  return local_alignment_budget("hessian_lle", kNeighbours);
}

}  // namespace
DRBENCH_REGISTER_METHOD(hessian_lle_info)
DRBENCH_REGISTER_BUDGET(hessian_lle_budget)
}  // namespace drbench
