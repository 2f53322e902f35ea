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
//
// M can also have near-null vectors that are no function of the intrinsic coordinates: a tight
// group of a few points that always fall in the same patches (patch: self lets that happen) carries
// a wiggle whose only Hessian energy is the group's own tiny second moments, as small as the
// curvature energy of the true coordinates on a curved set. On a quarter cylinder of 300 points
// such a vector sits on 2-4 points at k = 10, 12 and 20 and takes the place of a coordinate
// (eigenvalues 2.0e-6, 5.9e-6 (it), 1.5e-5 against 1.4e-3 for the next at k = 12; a dense LAPACK
// solve of the same M gives the same vectors, so the solver is not at fault). The fit refuses an
// embedding coordinate that lives on fewer points than half a patch and changes sign there,
// naming the fix.
#include <algorithm>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

namespace {

class HessianLle final : public LocalAlignmentMethod {
 public:
  explicit HessianLle(const LocalAlignmentSetting& s) : LocalAlignmentMethod("hessian_lle", s) {}

  void fit(const FitInput& in) override {
    LocalAlignmentMethod::fit(in);
    refuse_localised_coordinates(embedding());
  }

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
      arma::vec ev;
      arma::mat U;
      centred_patch_eigs(X, idx, ev, U);
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

 private:
  // The participation ratio (sum y^2)^2 / sum y^4 of a coordinate counts the points it lives on:
  // about n/2 for a coordinate of the manifold, the group's size for a spurious local vector (2-3
  // points on the cylinder, 2 of 2,000 on the swiss roll at k = 48). Below half a patch (and n/20,
  // so that small data sets are not refused) the coordinate cannot be a function of the intrinsic
  // coordinates if it also changes sign within those points (the wiggle sums to about zero there:
  // |sum| / sum |y| 0.001-0.18 on the cylinder). A localised coordinate of one sign marks a
  // cluster and is kept (ORL at d = 6, k = 48: one on 25 faces of 7 people, 0.76), as are the
  // wider vectors of data that is no manifold at that d (ORL's next, on 24 faces, 0.26).
  void refuse_localised_coordinates(const arma::mat& Y) const {
    const double limit = std::min(0.5 * double(s_.neighbours), double(Y.n_cols) / 20.0);
    for (arma::uword j = 0; j < Y.n_rows; ++j) {
      const arma::rowvec y = Y.row(j), y2 = arma::square(y);
      const double pr = arma::accu(y2) * arma::accu(y2) / arma::accu(arma::square(y2));
      if (!(pr < limit)) continue;
      const arma::uword m = std::max<arma::uword>(2, arma::uword(std::ceil(pr)));
      const arma::uvec top = arma::uvec(arma::sort_index(arma::abs(y), "descend")).head(m);
      const arma::vec yt = arma::vec(y.t()).elem(top);
      if (std::abs(arma::accu(yt)) >= 0.5 * arma::accu(arma::abs(yt))) continue;
      throw MethodError(
          "hessian_lle: embedding coordinate " + std::to_string(j + 1) + " is a wiggle on about " +
          std::to_string(static_cast<long>(std::lround(pr))) + " of " + std::to_string(Y.n_cols) +
          " points, a spurious near-null vector of the Hessian matrix (a tight group of points "
          "that share all their patches) instead of a coordinate of the manifold; change "
          "'neighbours' (by 2 or more)" +
          std::string(s_.include_self ? " or set 'patch: others'" : ""));
    }
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

}  // namespace
DRBENCH_METHOD(hessian_lle_info, local_alignment_budget(kNeighbours))
}  // namespace drbench
