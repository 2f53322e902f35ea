#pragma once
// Rank-based quality of an embedding from one co-ranking pass (Lee & Verleysen 2009; Lee,
// Peluffo-Ordonez & Verleysen 2015), plus distance-based stress and the Shepard diagram's rank
// correlation. One pass over query points yields every measure at every neighbourhood size K:
// for each query i the exact rank of every other point around i in both spaces (ties broken
// towards the lower index), from which
//   Q_NX(K)  = 1/(K N) sum_i |N_K^high(i) ∩ N_K^low(i)|
//   R_NX(K)  = ((N-1) Q_NX(K) - K) / (N-1-K),   LCMC(K) = Q_NX(K) - K/(N-1)
//   AUC      = sum_{K=1}^{N-2} R_NX(K)/K / sum_{K=1}^{N-2} 1/K
//   T(K), C(K): Venna & Kaski's trustworthiness and continuity
//   MRRE: Lee & Verleysen's mean relative rank errors, intrusions (the low-space K-ary
//         neighbours, |rho - r| / rho) and extrusions (the high-space ones, |rho - r| / r), each
//         normalised by H_K = N sum_{k=1}^K |N - 2k| / k so that 0 is perfect and 1 the worst.
//   stress   = sum (delta_ij - d_ij)^2 / sum delta_ij^2 (delta: input, d: embedding distances;
//              scale-dependent, as in Espadoto et al. 2019)
//   shepard_spearman: Spearman correlation of delta_ij and d_ij over point pairs.
// The same vocabulary holds the PaCMAP and TriMap papers' global measures (random_triplet,
// centroid_triplet, global_score: global_measures.hpp); they need no co-ranking pass, which is
// skipped when no measure asks for it.
// Exact (every point a query) up to `sample` points; above, `sample` seeded random query points
// with exact ranks against all N points, and each measure's standard error from the spread of
// its per-query terms (finite-population corrected; stress as a ratio estimator). The Shepard
// correlation uses at most about kShepardPairs pairs (a seeded hash keeps each pair with a fixed
// probability), so above about 2,000 points it is an estimate too, its standard error a
// jackknife over blocks of query points. Results do not depend on the thread count.
#include <armadillo>
#include <cstdint>
#include <string>
#include <vector>

namespace drbench {

struct QualityMeasureInfo {
  const char* name;
  bool per_k;          // evaluated at each K of evaluation.quality_k
  bool higher_better;  // direction, for best-setting selection and t-tests
  const char* doc;
  bool labels = false;  // needs the points' class labels (QualityRequest::labels)
};

// The one vocabulary of quality measures (config evaluation.quality, results, aggregate --metric).
const std::vector<QualityMeasureInfo>& quality_measures();
// nullptr for an unknown name.
const QualityMeasureInfo* find_quality_measure(const std::string& name);

// Largest pair count the Shepard correlation is computed on.
constexpr std::uint64_t kShepardPairs = std::uint64_t(1) << 21;

struct QualityRequest {
  std::vector<std::string> measures;  // names from quality_measures(), any order
  std::vector<int> ks;                // ascending, each 1 <= K and 2K < N
  arma::uword sample = 10000;         // exact up to this many points, else this many queries
  std::uint64_t seed = 0;             // query sample and Shepard pair sample
  unsigned threads = 1;
  // Class labels of the N points, for the measures that need them (centroid_triplet); nullptr
  // where there are none, and such a measure is then refused.
  const arma::uvec* labels = nullptr;
};

struct QualityColumn {
  std::string measure;
  int k = 0;                  // 0 for measures without K
  double value = 0;           // the measure
  double se = 0;              // standard error of a sampled estimate; 0 when exact
  std::string label() const;  // "rnx@10", "stress"
};

struct QualityResult {
  std::vector<QualityColumn> columns;  // request order, per-K measures expanded in K order
  arma::uword queries = 0;             // query points used (N when exact)
  std::uint64_t shepard_pairs = 0;     // pairs the Shepard correlation used (0: not asked)
  // R_NX on a logarithmic grid of K (at most kCurvePoints distinct K from 1 to N-2), filled when
  // rnx or rnx_auc is asked: what the R_NX(K) figures draw.
  std::vector<int> curve_k;
  std::vector<double> curve;
};

constexpr int kCurvePoints = 48;
// The K grid of the stored R_NX curve for N points.
std::vector<int> rnx_curve_ks(arma::uword n);

// high: input space (d x N), low: embedding (q x N), same N columns.
QualityResult quality_scores(const arma::mat& high, const arma::mat& low, const QualityRequest& r);

// The column labels a request produces, in order (what the results file's names hold).
std::vector<std::string> quality_labels(const std::vector<std::string>& measures,
                                        const std::vector<int>& ks);

}  // namespace drbench
