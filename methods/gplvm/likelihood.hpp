#pragma once
// The GP-LVM likelihood core (GPLRF eq. 3-4):
//   L = d/2 ln|K| + 1/2 tr(K^-1 Y Y^T) + N d/2 ln(2 pi),
//   dL/dK = 1/2 (d K^-1 - K^-1 Y Y^T K^-1),
// from one Cholesky factorisation; K^-1 Y is formed once and reused for the trace term and for
// dL/dK, and every O(N^2 d) or O(N^3) step is a BLAS-3/LAPACK call.
#include <armadillo>
#include <functional>

namespace drbench {

struct CholeskyJitter {
  arma::mat R;          // upper factor, K + jitter I = R^T R
  double jitter = 0.0;  // what had to be added (0 when K factorised as it was)
};

// Cholesky of a symmetric K. When it fails, adds jitter = 1e-6 * mean(diag K) to the diagonal and
// multiplies it by 10 until it succeeds, up to 0.1 * mean(diag K) (GPmat's jitChol schedule, cut
// where the jitter would change the model more than the noise term does); false if it never did.
bool cholesky_with_jitter(const arma::mat& K, CholeskyJitter& out);

// In-place inverse of K = R^T R from its upper Cholesky factor (LAPACK potri), full symmetric.
arma::mat inverse_from_cholesky(arma::mat R);

struct GpNllResult {
  double value = 0.0;  // +inf when K could not be factorised even with jitter
  double jitter = 0.0;
  arma::mat dK;     // dL/dK (n x n), filled when requested
  arma::mat KinvY;  // K^-1 Yt (n x d), filled when dK is requested
};

// Yt is the data with one ROW per point (n x d), i.e. the transpose of drbench's d x n layout.
GpNllResult gp_neg_log_likelihood(const arma::mat& K, const arma::mat& Yt, bool with_grad);

struct GpNllValue {
  double value = 0.0;  // +inf when K could not be factorised even with jitter
  double jitter = 0.0;
};

// The same in place, for an optimiser that evaluates at one size many times: KG holds K on entry
// and dL/dK (symmetric) on return when with_grad, otherwise scratch; KinvY is a buffer that
// receives K^-1 Yt (with_grad) or scratch. Only the upper triangle of K is read. When jitter is
// needed, refill(KG) writes K's upper triangle again; without refill, the strict lower triangle
// must hold K (potrf leaves it untouched). full_grad: dL/dK in both triangles, otherwise in the
// upper one only (the lower is scratch). No N x N matrix is allocated: a fresh one faults in its
// pages on every call, which at N = 2000 costs about as much as all the elementwise work. Work:
// potrf + potri (the floor), one symm and one syrk of width d (K^-1 Y and dL/dK in place over
// K^-1), and with full_grad one mirror pass.
GpNllValue gp_neg_log_likelihood_in_place(arma::mat& KG, const arma::mat& Yt, arma::mat& KinvY,
                                          bool with_grad,
                                          const std::function<void(arma::mat&)>& refill = {},
                                          bool full_grad = true);

}  // namespace drbench
