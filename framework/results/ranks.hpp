#pragma once
// Judging methods across datasets (Demsar, JMLR 7, 2006): each method's rank per block (a
// dataset at a split value; 1 = best, ties share their mean rank), the mean rank over blocks, the
// Friedman test with the Iman-Davenport F, and the Nemenyi critical difference.
#include <string>
#include <vector>

#include "framework/results/aggregate.hpp"

namespace drbench {

// Regularised upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a), a > 0, x >= 0.
double upper_incomplete_gamma(double a, double x);
// P(X > x) for X ~ chi-square with df degrees of freedom.
double chi2_sf(double x, double df);

// Ranks within one block: 1 for the best value, ties share their mean rank.
std::vector<double> block_ranks(const std::vector<double>& values, bool higher_better);

struct FriedmanResult {
  std::size_t blocks = 0, methods = 0;
  std::vector<double> mean_rank;       // per method
  double chi2 = 0, p = 1;              // Friedman statistic (tie-corrected, as scipy) and p-value
  double iman_davenport = 0, p_f = 1;  // F_F with (k-1, (k-1)(N-1)) degrees of freedom
  double q_alpha = 0, cd = 0;          // Nemenyi: studentised range / sqrt 2, critical difference
};

// ranks[b][j]: method j's rank in block b (every block ranks every method).
FriedmanResult friedman(const std::vector<std::vector<double>>& ranks, double alpha = 0.05);

// The Nemenyi test's q_alpha for k methods: the (1 - alpha) quantile of the range of k standard
// normal variables, divided by sqrt 2 (Demsar's Table 5 is this to three decimals).
double nemenyi_q(std::size_t k, double alpha);

// The aggregate's methods ranked over its blocks: a (dataset, split value), each method's value
// being its chosen setting's mean at the first k, best over its dims (an input-space method at
// its one dim). Blocks missing a method are left out and listed.
struct RankTable {
  std::string measure;  // "1-NN error" or the metric ("rnx_auc", "trustworthiness@10")
  std::vector<std::string> labels;
  std::vector<std::string> blocks, left_out;
  // Where the ranked methods ran under different protocols: which ran under which ("" else).
  std::string protocols;
  std::vector<std::vector<double>> values, ranks;  // [block][method]
  FriedmanResult test;
};
RankTable rank_methods(const Aggregate& a, double alpha = 0.05);
std::string rank_markdown(const RankTable& t, double alpha = 0.05);
// The same as CSV for programs (the report page, `drbench plot`'s CD diagram): one row per method,
// label and mean_rank, then the test's numbers repeated on every row (measure, blocks, methods,
// chi2, p, iman_davenport, p_f, alpha, q_alpha, cd, protocols, left_out joined by "; ").
std::string rank_csv(const RankTable& t, double alpha = 0.05);

}  // namespace drbench
