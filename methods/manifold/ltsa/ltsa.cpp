// Local tangent space alignment (Zhang & Zha 2004, SIAM J. Sci. Comput. 26, algorithm LTSA):
// every neighbourhood's tangent coordinates are its top `dim` principal directions; the global
// coordinates whose local affine images fit them best are the bottom eigenvectors of
// M = sum_i S_i (I - G_i G_i') S_i', G_i = [1/sqrt(k), V_i] (V_i the top left singular vectors of
// the centred neighbourhood), after the constant one. New points map by reconstruction weights
// (methods/manifold/local_alignment.hpp). A patch is a point's k nearest others, as in
// scikit-learn's LocallyLinearEmbedding(method='ltsa') (a point in no other patch then cannot be
// placed and is refused); `patch: self` takes the point and its k - 1 nearest others, as the paper.
#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

namespace {

class Ltsa final : public LocalAlignmentMethod {
 public:
  explicit Ltsa(const LocalAlignmentSetting& s) : LocalAlignmentMethod("ltsa", s) {}

 protected:
  arma::uword min_neighbours(arma::uword dim) const override { return dim + 1; }
  arma::sp_mat alignment(const arma::mat& X, const arma::umat& nn, arma::uword dim) const override {
    return ltsa_alignment(X, nn, dim);
  }
};

constexpr std::int64_t kNeighbours = 10;  // the default of `neighbours`

MethodInfo ltsa_info() {
  MethodInfo m = describe_method(
      "ltsa", "manifold", "local tangent space alignment; out-of-sample by reconstruction weights",
      "Zhang & Zha 2004, SIAM J. Sci. Comput. 26(1), section 4 (scikit-learn's method='ltsa')");
  const LocalAlignmentKeys keys = describe_local_alignment(m, kNeighbours, true);
  m.make = [keys](const ParamSet& p) { return std::make_unique<Ltsa>(keys(p)); };
  return m;
}

}  // namespace
DRBENCH_METHOD(ltsa_info, local_alignment_budget(kNeighbours))
}  // namespace drbench
