// FFT-accelerated interpolation (framework/nbody/fft_interpolation.hpp): kernel sums against the
// direct O(n^2) sums for two kernels and random charges in 1-D and 2-D, the error falling as the
// grid refines (more nodes per interval, narrower intervals), and thread-count independence.
#include <catch2/catch.hpp>
#include <cmath>

#include "framework/core/rng.hpp"
#include "framework/nbody/fft_interpolation.hpp"

using namespace drbench;

namespace {

arma::mat direct_sums(const arma::mat& Y, const arma::mat& Q,
                      const std::function<double(double)>& k) {
  arma::mat phi(Q.n_rows, Y.n_cols, arma::fill::zeros);
  for (arma::uword i = 0; i < Y.n_cols; ++i)
    for (arma::uword j = 0; j < Y.n_cols; ++j)
      phi.col(i) += k(arma::accu(arma::square(Y.col(i) - Y.col(j)))) * Q.col(j);
  return phi;
}

double rel_error(const arma::mat& a, const arma::mat& ref) {
  return arma::norm(a - ref, "fro") / arma::norm(ref, "fro");
}

double cauchy2(double r2) {
  return 1.0 / ((1.0 + r2) * (1.0 + r2));
}
double cauchy(double r2) {
  return 1.0 / (1.0 + r2);
}

}  // namespace

TEST_CASE("fft_friendly_size: smallest 7-smooth size at or above n", "[fft]") {
  CHECK(fft_friendly_size(1) == 1);
  CHECK(fft_friendly_size(50) == 50);
  CHECK(fft_friendly_size(11) == 12);
  CHECK(fft_friendly_size(97) == 98);
  CHECK(fft_friendly_size(121) == 125);
}

TEST_CASE("Interpolated kernel sums match direct sums and refine with the grid", "[fft]") {
  Rng rng(21);
  for (arma::uword D : {1u, 2u}) {
    // Clusters spread over about 30 units, as in a t-SNE embedding.
    arma::mat Y = 3.0 * rng.randn(D, 300);
    for (arma::uword i = 0; i < 300; ++i) Y.col(i) += 10.0 * double(i % 3);
    arma::mat Q = rng.randn(3, 300);
    Q.row(0).ones();
    for (auto* k : {&cauchy2, &cauchy}) {
      const arma::mat ref = direct_sums(Y, Q, k);
      FftInterpolationOptions opt;
      FftGridInfo info;
      const double e_default = rel_error(interpolated_kernel_sums(Y, Q, k, opt, 1, &info), ref);
      INFO("D " << D << " default error " << e_default);
      CHECK(info.intervals == 50);
      CHECK(info.grid_nodes == std::pow(150.0, double(D)));
      CHECK(e_default < 5e-2);  // mixed-sign charges: the sums cancel, a harsh measure
      // Once intervals are about as narrow as the kernel (64 over ~40 units), more nodes per
      // interval: the error falls fast.
      opt.min_intervals = 64;
      opt.max_intervals = 64;
      double last = 1.0;
      for (int p : {2, 3, 5, 8}) {
        opt.nodes = p;
        const double e = rel_error(interpolated_kernel_sums(Y, Q, k, opt), ref);
        INFO("nodes " << p << " error " << e);
        CHECK(e < 0.2 * last);
        last = e;
      }
      CHECK(last < 1e-5);
      // Narrower intervals at 3 nodes each: the error falls with the width.
      opt.nodes = 3;
      last = 1.0;
      for (int m : {32, 64, 128, 256}) {
        opt.min_intervals = m;
        opt.max_intervals = m;
        const double e = rel_error(interpolated_kernel_sums(Y, Q, k, opt), ref);
        INFO("intervals " << m << " error " << e);
        CHECK(e < 0.5 * last);
        last = e;
      }
      opt.max_intervals = 1000;
    }
  }
}

TEST_CASE("Interpolated kernel sums: threads, degenerate boxes, refusals", "[fft]") {
  Rng rng(22);
  const arma::mat Y = 5.0 * rng.randn(2, 500);
  const arma::mat Q = rng.randn(4, 500);
  const arma::mat a = interpolated_kernel_sums(Y, Q, cauchy2, {}, 1);
  // The charges are spread on separate threads (4 charges: 2 + 2, or 1 + 1 + 2).
  for (unsigned t : {2u, 3u}) {
    const arma::mat b = interpolated_kernel_sums(Y, Q, cauchy2, {}, t);
    CHECK(arma::abs(a - b).max() == 0.0);
  }
  // All points at one place: every pair has kernel 1, so each sum is the total charge.
  const arma::mat Y0(2, 20, arma::fill::value(0.25));
  const arma::mat Q0 = rng.randn(2, 20);
  const arma::mat s = interpolated_kernel_sums(Y0, Q0, cauchy2);
  for (arma::uword i = 0; i < 20; ++i) CHECK(arma::abs(s.col(i) - arma::sum(Q0, 1)).max() < 1e-12);
  CHECK_THROWS(interpolated_kernel_sums(rng.randn(3, 10), rng.randn(1, 10), cauchy2));
  CHECK_THROWS(interpolated_kernel_sums(rng.randn(2, 10), rng.randn(1, 9), cauchy2));
  arma::mat bad = rng.randn(2, 10);
  bad(1, 3) = arma::datum::nan;
  CHECK_THROWS(interpolated_kernel_sums(bad, rng.randn(1, 10), cauchy2));
}

TEST_CASE("FftKernelSums reused across calls: the bits of a fresh call", "[fft]") {
  // One instance through grids that grow, shrink, change the number of charges and the dimension:
  // every call must equal a fresh interpolated_kernel_sums to the bit (the kept padding is still
  // zero, the kept plans fit the new grid).
  Rng rng(23);
  FftKernelSums sums;
  for (double spread : {2.0, 40.0, 90.0, 40.0, 2.0}) {
    for (arma::uword D : {2u, 1u}) {
      for (arma::uword m : {4u, 3u}) {
        const arma::mat Y = spread * rng.randn(D, 400);
        const arma::mat Q = rng.randn(m, 400);
        FftGridInfo a, b;
        const arma::mat fresh = interpolated_kernel_sums(Y, Q, cauchy2, {}, 1, &a);
        const arma::mat& kept = sums(Y, Q, cauchy2, {}, 2, &b);
        INFO("spread " << spread << " D " << D << " m " << m << " intervals " << a.intervals);
        CHECK(a.intervals == b.intervals);
        REQUIRE(kept.n_rows == m);
        CHECK(arma::abs(kept - fresh).max() == 0.0);
      }
    }
  }
}
