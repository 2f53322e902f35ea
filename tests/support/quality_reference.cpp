// Trustworthiness and continuity (Venna & Kaski 2001) with exact ranks:
//   T(k) = 1 - 2 / (n k (2n - 3k - 1)) * sum_i sum_{j in U_k(i)} (r(i, j) - k)
// where U_k(i) are the embedding's k nearest neighbours of i that are not among its k nearest in
// the original space and r(i, j) is j's rank around i in the original space. Continuity is the
// same with the two spaces swapped.
#include "support/quality_reference.hpp"

#include <algorithm>
#include <string>

#include "framework/core/error.hpp"
#include "framework/eval/knn.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {
namespace {

// `ref` gives the ranks, `other` proposes the neighbours whose ranks are charged.
double rank_penalty_measure(const arma::mat& ref, const arma::mat& other, arma::uword k,
                            const char* what) {
  const arma::uword n = ref.n_cols;
  if (other.n_cols != n)
    throw Error(std::string(what) + ": the two spaces hold " + std::to_string(n) + " and " +
                std::to_string(other.n_cols) + " points");
  if (k < 1 || 2 * k >= n)
    throw Error(std::string(what) + ": k=" + std::to_string(k) + " must be in 1.." +
                std::to_string(n > 0 ? (n - 1) / 2 : 0) + " (below n/2) for " + std::to_string(n) +
                " points (fix: lower evaluation.quality_k)");
  const arma::umat nn_ref = knn_indices(ref, ref, k, true);
  const arma::umat nn_other = knn_indices(other, other, k, true);
  double penalty = 0;
  const arma::uword block = std::clamp<arma::uword>((arma::uword(1) << 21) / n, 1, n);
  std::vector<arma::uword> ref_set(k);
  for (arma::uword s = 0; s < n; s += block) {
    const arma::uword e = std::min(n, s + block);
    const arma::mat D = sq_distances(ref, ref.cols(s, e - 1));  // n x b
    for (arma::uword i = s; i < e; ++i) {
      const double* col = D.colptr(i - s);
      for (arma::uword t = 0; t < k; ++t) ref_set[t] = nn_ref(t, i);
      for (arma::uword t = 0; t < k; ++t) {
        const arma::uword j = nn_other(t, i);
        if (std::find(ref_set.begin(), ref_set.end(), j) != ref_set.end()) continue;
        // rank = 1 + points other than i closer than j (lower index first on equal distance)
        const double dj = col[j];
        arma::uword rank = 1;
        for (arma::uword l = 0; l < n; ++l)
          if (l != i && (col[l] < dj || (col[l] == dj && l < j))) ++rank;
        if (rank > k) penalty += double(rank - k);
      }
    }
  }
  const double nd = double(n), kd = double(k);
  return 1.0 - 2.0 / (nd * kd * (2.0 * nd - 3.0 * kd - 1.0)) * penalty;
}

}  // namespace

double trustworthiness(const arma::mat& high, const arma::mat& low, arma::uword k) {
  return rank_penalty_measure(high, low, k, "trustworthiness");
}

double continuity(const arma::mat& high, const arma::mat& low, arma::uword k) {
  return rank_penalty_measure(low, high, k, "continuity");
}

}  // namespace drbench
