#pragma once
// Min-max projection analysis (MMPA) as the DEE paper compares against it: Zheng, Zhang, Cattani &
// Wang, Comput. Math. Methods Med. 2014 (papers/001), section 2.3 eq. 9 and section 4.4, citing
// Zheng, Yang, Chen & Wang, "Incremental min-max projection analysis for classification",
// Neurocomputing 123 (2014) 121-130, doi:10.1016/j.neucom.2013.06.010.
//
// What we could read of the original: only its abstract (unpaywall.org record of the DOI): a
// "locally discriminant projection" built by block optimisation that "takes into account both
// intra-class and interclass geometries and also possesses the orthogonality property", with
// incremental (SVD-updating), semi-supervised and kernel extensions. Its method section was not
// available, so the graphs and the eigenproblem below follow the DEE paper:
//  - section 2.3: MMPA pulls together "the far apart within class neighbors" and places away "the
//    neighbors having different labels" (as in marginal Fisher analysis), with binary ("simple")
//    affinities, and solves eq. 9,  A = argmin tr( A X L_intra X^T A^T / A X L_inter X^T A^T ),
//    "where sigma is a regularization parameter which is set manually";
//  - section 4.4: MMPA's parameters are the pair eps_w, eps_b, set to the average intra- and
//    inter-class Euclidean distances.
// Hence graph=threshold (default): W_intra_ij = 1 for same-class pairs farther apart than eps_w,
// W_inter_ij = 1 for different-class pairs closer than eps_b. graph=knn is the MFA-style reading
// (each point's k_w farthest same-class and k_b nearest other-class points, symmetrised).
//
// Eq. 9 does not show where sigma enters (our parameter `reg`, the ridge of the vocabulary, since
// `sigma` names nothing but kernel widths elsewhere). We put it on the intra-class (numerator)
// term:
//   min tr( A (S_w + s I) A^T / A S_b A^T ),  S_w = X L_intra X^T, S_b = X L_inter X^T,
//   s = sigma * trace(S_w) / d,
// i.e. the largest generalized eigenvectors of S_b a = mu (S_w + s I) a (mu = 1 / the eq. 9
// ratio). S_w is singular whenever n < d (USPS with 20-25 points per class). A ridge on the
// denominator S_b instead (our first version) lets the minimum pick directions in which the
// training data hardly vary; a tiny ridge on S_w overfits its null space (1-NN error on USPS, 20
// per class, about 35 % at sigma = 1e-3). On S_w it is regularised discriminant analysis, which
// tends to the leading eigenvectors of S_b as sigma grows; sigma = 3 gave 14.5 % (PCA: 15.2 %).
// The original's projection is orthogonal (A^T A = I); eq. 9's generalized eigenvectors, which
// we return, are (S_w + s I)-orthonormal instead.
#include <armadillo>

#include "methods/common/linear_method.hpp"

namespace drbench {

enum class MmpaGraph { Threshold, Knn };

struct MmpaGraphs {
  arma::mat W_intra;   // n x n, symmetric 0/1, zero diagonal: same-class pairs pulled together
  arma::mat W_inter;   // n x n, symmetric 0/1: different-class pairs pushed apart
  double eps_w = 0.0;  // thresholds used (threshold graph only)
  double eps_b = 0.0;
};

// Threshold graphs; eps <= 0 picks the average intra-/inter-class distance (DEE section 4.4).
MmpaGraphs mmpa_threshold_graphs(const arma::mat& X, const arma::uvec& labels, double eps_w,
                                 double eps_b);

// kNN graphs: i~j in W_intra when j is among the k_w farthest same-class points of i (or i among
// those of j), in W_inter when among the k_b nearest other-class points. Ties in distance go to
// the lower index, so the graphs never depend on sort stability.
MmpaGraphs mmpa_knn_graphs(const arma::mat& X, const arma::uvec& labels, arma::uword k_w,
                           arma::uword k_b);

// eigenvalues(): mu of S_b a = mu (S_w + s I) a, largest first (1/mu is the eq. 9 ratio of each
// direction).
class Mmpa final : public EigenProjection {
 public:
  Mmpa(MmpaGraph graph, double eps_w, double eps_b, arma::uword k_w, arma::uword k_b, double sigma)
      : EigenProjection("mmpa"),
        graph_(graph),
        eps_w_(eps_w),
        eps_b_(eps_b),
        k_w_(k_w),
        k_b_(k_b),
        sigma_(sigma) {}
  void fit(const FitInput& in) override;
  double eps_w_used() const { return eps_w_used_; }
  double eps_b_used() const { return eps_b_used_; }

 private:
  MmpaGraph graph_;
  double eps_w_, eps_b_;
  arma::uword k_w_, k_b_;
  double sigma_;
  double eps_w_used_ = 0.0, eps_b_used_ = 0.0;
};

}  // namespace drbench
