#pragma once
// The t-SNE objective KL(P || Q), q_ij = w_ij / Z with w_ij = (1 + |y_i - y_j|^2)^-1 and
// Z = sum_{k != l} w_kl, and its gradient
//   dKL/dy_i = 4 sum_j (e p_ij - q_ij) w_ij (y_i - y_j)
// (e the early exaggeration, 1 for the true gradient). Both functions write the gradient divided
// by 4, the convention of bhtsne and openTSNE whose learning rate N/12 assumes it, and return the
// KL divergence of the unexaggerated P (when want_kl; NaN otherwise), so values are comparable
// across phases and with scikit-learn's final kl_divergence_.
#include <armadillo>

#include "framework/nbody/fft_interpolation.hpp"

namespace drbench {

// sum p ln p over the stored/positive entries: the constant part of KL(P || Q).
double p_log_p(const arma::mat& P);
double p_log_p(const arma::sp_mat& P);

// Exact O(n^2 d) gradient for a dense joint P (symmetric, zero diagonal, sums to one).
double tsne_exact_gradient(const arma::mat& P, double plogp, const arma::mat& Y,
                           double exaggeration, bool want_kl, arma::mat& grad4);

// Barnes-Hut gradient (van der Maaten 2014): attractive forces over the sparse P, repulsive ones
// and Z from the space-partitioning tree at opening angle theta (0 = every cell opened). Y must be
// 1-, 2- or 3-dimensional. The KL uses the tree's estimate of Z.
// Attractive forces and the tree queries run on `threads` threads; the result is the same to the
// bit for any thread count.
double tsne_bh_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y, double theta,
                        double exaggeration, bool want_kl, arma::mat& grad4, unsigned threads = 1);

// FFT-accelerated interpolation gradient (Linderman et al. 2019, FIt-SNE): attractive forces over
// the sparse P, repulsive ones and Z from the kernel sums of framework/nbody/fft_interpolation
// with the squared Cauchy kernel w^2 and charges 1, y, |y|^2. Y must be 1- or 2-dimensional. The
// KL uses the interpolated Z. The same bits for any thread count. `info` (optional) receives the
// grid of this call; `sums` (optional, one per fit) keeps the FFT plans and grids between calls,
// which gives the same bits as a call without it, faster.
double tsne_fft_gradient(const arma::sp_mat& P, double plogp, const arma::mat& Y,
                         const FftInterpolationOptions& fft, double exaggeration, bool want_kl,
                         arma::mat& grad4, unsigned threads = 1, FftGridInfo* info = nullptr,
                         FftKernelSums* sums = nullptr);

}  // namespace drbench
