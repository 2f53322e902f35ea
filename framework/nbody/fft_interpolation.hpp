#pragma once
// In the framework because every embedding whose repulsion sums a smooth translation-invariant
// kernel of embedding distances over all pairs (t-SNE's Cauchy kernel, UMAP-like kernels
// 1 / (1 + a r^2b)) can use it: the sums
//   phi_c(y_i) = sum_j K(|y_i - y_j|^2) q_c(y_j)      (j over all points, i included)
// in O(n p^D + G log G) instead of O(n^2), for 1- and 2-dimensional points (Linderman et al. 2019,
// "Fast interpolation-based t-SNE", Nat. Methods 16; FIt-SNE). The bounding square of the points
// is cut into `intervals` equal intervals per dimension, each holding `nodes` equispaced
// interpolation nodes at the interval's (k + 1/2) / nodes positions, so all nodes form one regular
// grid of G = (intervals x nodes)^D points:
//   1. each point's charges are spread onto the nodes of its interval with the Lagrange
//      polynomials of those nodes (tensor products in 2-D);
//   2. the kernel between all pairs of grid nodes is a Toeplitz (block-Toeplitz) matrix: its
//      product with the node charges is a circular convolution on a grid padded to twice the size,
//      done with FFTW;
//   3. each point's sums are interpolated back from the nodes of its interval with the same
//      polynomials.
// The error falls with more nodes per interval and with narrower intervals (the kernel is smooth
// on the scale of an interval); the defaults (3 nodes, intervals at most one unit wide, at least
// 50 per dimension) are FIt-SNE's and openTSNE's for the Cauchy kernel.
//
// Determinism: step 1 splits the charges over `threads` threads (each grid node sums its points in
// point order, whatever the split), step 2 runs on one thread (FFTW is planned with
// FFTW_ESTIMATE, which picks its algorithm from the sizes alone); step 3 and the interpolation
// weights write one column per point on `threads` threads. The result is therefore
// the same to the bit for any thread count, and for FftKernelSums as for interpolated_kernel_sums.
//
// Cost: an iterative method calls this every iteration on a grid whose size changes only when the
// points' extent crosses a size step, so FftKernelSums keeps the FFTW plans and the padded grids
// between calls: planning, allocating and clearing a grid of tens of MB (fresh pages, each
// faulted in) cost as much as the transforms themselves before.
#include <armadillo>
#include <functional>
#include <memory>
#include <vector>

namespace drbench {

struct FftInterpolationOptions {
  int nodes = 3;                // interpolation nodes per interval and dimension (>= 1)
  int min_intervals = 50;       // intervals per dimension, at least
  double interval_width = 1.0;  // an interval spans at most this many embedding units ...
  int max_intervals = 1000;     // ... unless that would need more intervals than this
};

// What the last call laid out (for traces and tests).
struct FftGridInfo {
  int intervals = 0;           // per dimension, after rounding up to an FFT-friendly size
  double box_width = 0.0;      // embedding units per interval
  arma::uword grid_nodes = 0;  // (intervals x nodes)^D
};

// phi (m x n): phi(c, i) = sum_j kernel(|y_i - y_j|^2) Q(c, j), for the columns of Y (D x n, D = 1
// or 2) and the charges Q (m x n). `kernel` is called on squared distances only while the grid is
// set up (about 4 G times), never per pair of points. Throws Error for D outside {1, 2}, a Q that
// does not match Y, non-finite coordinates or bad options.
arma::mat interpolated_kernel_sums(const arma::mat& Y, const arma::mat& Q,
                                   const std::function<double(double)>& kernel,
                                   const FftInterpolationOptions& opt = {}, unsigned threads = 1,
                                   FftGridInfo* info = nullptr);

// interpolated_kernel_sums with its FFTW plans, padded grids and interpolation weights kept from
// one call to the next (rebuilt when the grid's size or the number of charges changes): the same
// bits as interpolated_kernel_sums, at a fraction of the fixed cost per call. Not thread-safe: one
// instance per caller.
class FftKernelSums {
 public:
  FftKernelSums();
  ~FftKernelSums();
  FftKernelSums(const FftKernelSums&) = delete;
  FftKernelSums& operator=(const FftKernelSums&) = delete;
  // The sums for Y and Q (see interpolated_kernel_sums), valid until the next call.
  const arma::mat& operator()(const arma::mat& Y, const arma::mat& Q,
                              const std::function<double(double)>& kernel,
                              const FftInterpolationOptions& opt = {}, unsigned threads = 1,
                              FftGridInfo* info = nullptr);

 private:
  struct Plans;  // FFTW plans and buffers for one grid size
  std::unique_ptr<Plans> plans_;
  std::vector<int> cell_;     // D x n: each point's interval per dimension
  std::vector<double> wts_;   // D x n x p: its Lagrange weights on that interval's nodes
  std::vector<double> kern_;  // the kernel on node offsets, (N + 1) x (N + 1)
  arma::mat phi_;
};

// The smallest n' >= n whose prime factors are all 2, 3, 5 or 7 (sizes FFTW transforms fastest).
int fft_friendly_size(int n);

}  // namespace drbench
