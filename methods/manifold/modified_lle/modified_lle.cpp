// Modified locally linear embedding (Zhang & Wang 2007, NIPS 19, algorithm MLLE): every point gets
// s_i linearly independent weight vectors instead of LLE's one, built from the s_i smallest
// eigenvectors V_i of its neighbourhood's Gram matrix (s_i: the largest set whose eigenvalue sum,
// over the rest, stays below the median ratio eta over the points) by a Householder reflection
// that sends V_i'1 to alpha_i 1, plus (1 - alpha_i) times the regularised LLE weights w_i:
// W_i = V_i H_i + (1 - alpha_i) w_i 1'. The embedding is the bottom eigenvectors of
// M = sum_i (S_i W_i - e_i 1')(S_i W_i - e_i 1')' after the constant one. New points map by
// reconstruction weights (methods/manifold/local_alignment.hpp), as scikit-learn's
// LocallyLinearEmbedding(method='modified'), whose choices (eta, the ridge times the trace,
// modified_tol = 1e-12) this follows.
#include <algorithm>
#include <cmath>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/registry.hpp"
#include "methods/manifold/local_alignment.hpp"

namespace drbench {

namespace {

// The regularised reconstruction weights of a neighbourhood from its Gram eigenpairs:
// (G + reg I) w = 1 with the eigenvalues beyond the first `nev` taken as 0, normalised to sum 1.
arma::vec regularised_weights(const arma::vec& ev, const arma::mat& V, arma::uword nev,
                              double reg) {
  arma::vec tmp = V.t() * arma::ones(V.n_rows);
  for (arma::uword j = 0; j < tmp.n_elem; ++j) tmp(j) /= (j < nev ? ev(j) : 0.0) + reg;
  const arma::vec w = V * tmp;
  return w / arma::accu(w);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

class ModifiedLle final : public LocalAlignmentMethod {
 public:
  explicit ModifiedLle(const LocalAlignmentSetting& s) : LocalAlignmentMethod("modified_lle", s) {}

 protected:
  arma::uword min_neighbours(arma::uword dim) const override { return dim + 1; }
  arma::sp_mat alignment(const arma::mat& X, const arma::umat& nn, arma::uword dim) const override {
    const arma::uword n = X.n_cols, k = nn.n_rows, nev = std::min<arma::uword>(X.n_rows, k);
    std::vector<arma::vec> evs(n);
    std::vector<arma::mat> Vs(n);
    std::vector<double> rho(n);
    for (arma::uword i = 0; i < n; ++i) {
      const arma::mat Z = X.cols(nn.col(i)).eval().each_col() - X.col(i);
      local_gram_eigs(Z.t() * Z, evs[i], Vs[i]);
      evs[i] = evs[i].head(nev);
      rho[i] = arma::accu(evs[i].tail(nev - dim)) / arma::accu(evs[i].head(dim));
    }
    const double eta = median(rho);
    Triplets t;
    for (arma::uword i = 0; i < n; ++i) {
      const arma::vec& ev = evs[i];
      const arma::mat& V = Vs[i];
      const arma::vec w = regularised_weights(ev, V, nev, s_.reg * arma::accu(ev));
      // s_i: how many of the trailing eigenvalues (the k - nev zero ones included) can be
      // called "almost null": the cut points j (0 <= j < nev - 1) where the sum after j over the
      // sum through j is below eta.
      const arma::vec cs = arma::cumsum(ev);
      arma::uword s = k - nev;
      for (arma::uword j = 0; j + 1 < nev; ++j)
        if (cs(nev - 1) / cs(j) - 1.0 < eta) ++s;
      s = std::max<arma::uword>(s, 1);
      const arma::mat Vi = V.tail_cols(s);
      const arma::vec v1 = Vi.t() * arma::ones(k);
      const double alpha = arma::norm(v1) / std::sqrt(double(s));
      arma::vec h = alpha * arma::ones(s) - v1;
      const double hn = arma::norm(h);
      h = hn < 1e-12 ? arma::vec(s, arma::fill::zeros) : arma::vec(h / hn);
      arma::mat W = Vi - 2.0 * (Vi * h) * h.t();
      W.each_col() += (1.0 - alpha) * w;
      const arma::uvec idx = nn.col(i);
      t.add_block(idx, W * W.t());
      const arma::vec wsum = arma::sum(W, 1);
      for (arma::uword a = 0; a < k; ++a) {
        t.add(i, idx(a), -wsum(a));
        t.add(idx(a), i, -wsum(a));
      }
      t.add(i, i, double(s));
    }
    return t.matrix(n);
  }
};

constexpr std::int64_t kNeighbours = 10;  // the default of `neighbours`

MethodInfo modified_lle_info() {
  MethodInfo m = describe_method(
      "modified_lle", "manifold",
      "modified LLE (multiple weight vectors); out-of-sample by reconstruction weights",
      "Zhang & Wang 2007, NIPS 19, MLLE algorithm (scikit-learn's method='modified')");
  const LocalAlignmentKeys keys = describe_local_alignment(m, kNeighbours, false);
  m.make = [keys](const ParamSet& p) { return std::make_unique<ModifiedLle>(keys(p)); };
  return m;
}

}  // namespace
DRBENCH_METHOD(modified_lle_info, local_alignment_budget(kNeighbours))
}  // namespace drbench
