#include "framework/nbody/fft_interpolation.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <mutex>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

namespace {

// FFTW's planner is not re-entrant (execution is): plans are made and destroyed under this lock.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

template <class T>
struct FftwBuffer {
  T* p = nullptr;
  explicit FftwBuffer(std::size_t n) {
    p = static_cast<T*>(fftw_malloc(sizeof(T) * std::max<std::size_t>(n, 1)));
    if (!p) throw Error("fft interpolation: out of memory for a grid of " + std::to_string(n));
  }
  ~FftwBuffer() { fftw_free(p); }
  FftwBuffer(const FftwBuffer&) = delete;
  FftwBuffer& operator=(const FftwBuffer&) = delete;
};

struct Plan {
  fftw_plan p = nullptr;
  ~Plan() {
    if (p) {
      std::lock_guard<std::mutex> lock(planner_mutex());
      fftw_destroy_plan(p);
    }
  }
};

}  // namespace

int fft_friendly_size(int n) {
  for (int c = std::max(n, 1);; ++c) {
    int r = c;
    for (int f : {2, 3, 5, 7})
      while (r % f == 0) r /= f;
    if (r == 1) return c;
  }
}

namespace {

// One square (interval) grid over the bounding box of Y, anchored at its lower corner, with p
// interpolation nodes per interval and the circulant padding of the convolution.
struct Grid {
  int D = 1, intervals = 1, p = 1;
  int N = 1;  // nodes per dimension
  int M = 2;  // padded (circulant) length per dimension
  double lo[2] = {0, 0};
  double box = 0;  // interval width
  double h = 0;    // node spacing
  std::size_t Mtot = 0, Ntot = 0;
  std::size_t Mc = 0;  // r2c output length
};

Grid make_grid(const arma::mat& Y, const FftInterpolationOptions& opt) {
  Grid g;
  g.D = static_cast<int>(Y.n_rows);
  double range = 0.0;
  for (int k = 0; k < g.D; ++k) {
    g.lo[k] = Y.row(k).min();
    range = std::max(range, Y.row(k).max() - g.lo[k]);
  }
  const double wanted = std::ceil(range / opt.interval_width);
  g.intervals = fft_friendly_size(
      static_cast<int>(std::clamp(wanted, double(opt.min_intervals), double(opt.max_intervals))));
  // Coincident points (zero range): a tiny interval centred on them, over which any smooth kernel
  // is constant to rounding.
  g.box = range > 0 ? range / g.intervals : 1e-6 * opt.interval_width;
  if (!(range > 0))
    for (int k = 0; k < g.D; ++k) g.lo[k] -= 0.5 * g.box;
  g.p = opt.nodes;
  g.N = g.intervals * g.p;
  g.M = 2 * g.N;
  g.h = g.box / g.p;
  g.Mtot = g.M;
  g.Ntot = g.N;
  if (g.D == 2) {
    g.Mtot *= g.M;
    g.Ntot *= g.N;
  }
  g.Mc = (g.D == 2 ? std::size_t(g.M) : 1) * (g.M / 2 + 1);
  return g;
}

// Each point's interval per dimension and its Lagrange weights on that interval's p nodes, in
// vectors kept between calls.
struct NodeWeights {
  std::vector<int>& cell;    // D x n
  std::vector<double>& wts;  // D x n x p

  NodeWeights(std::vector<int>& cell_, std::vector<double>& wts_, const arma::mat& Y, const Grid& g,
              unsigned threads)
      : cell(cell_), wts(wts_) {
    const int D = g.D, p = g.p;
    const arma::uword n = Y.n_cols;
    std::vector<double> node(p), denom(p);
    for (int l = 0; l < p; ++l) node[l] = (l + 0.5) / p;
    for (int l = 0; l < p; ++l) {
      denom[l] = 1.0;
      for (int s = 0; s < p; ++s)
        if (s != l) denom[l] *= node[l] - node[s];
    }
    cell.resize(std::size_t(D) * n);
    wts.resize(std::size_t(D) * n * p);
    parallel_blocks(n, threads, [&](std::size_t s, std::size_t e, std::size_t) {
      for (std::size_t i = s; i < e; ++i)
        for (int k = 0; k < D; ++k) {
          const double t = (Y(k, i) - g.lo[k]) / g.box;
          // The upper edge of the box belongs to the last interval.
          const int b = std::clamp(static_cast<int>(std::floor(t)), 0, g.intervals - 1);
          const double u = t - b;
          cell[D * i + k] = b;
          double* w = &wts[(D * i + k) * p];
          for (int l = 0; l < p; ++l) {
            double v = 1.0;
            for (int q = 0; q < p; ++q)
              if (q != l) v *= u - node[q];
            w[l] = v / denom[l];
          }
        }
    });
  }

  // The p^D nodes around point i with their interpolation weights: body(node, weight), in the
  // same order for spreading and for interpolating.
  template <class Body>
  void for_each_node(const Grid& g, std::size_t i, Body&& body) const {
    const int D = g.D, p = g.p;
    const double* wx = &wts[(D * i) * p];
    const int gx = cell[D * i] * p;
    if (D == 1) {
      for (int l = 0; l < p; ++l) body(std::size_t(gx + l), wx[l]);
    } else {
      const double* wy = &wts[(D * i + 1) * p];
      const int gy = cell[D * i + 1] * p;
      for (int ly = 0; ly < p; ++ly)
        for (int lx = 0; lx < p; ++lx) body(std::size_t(gy + ly) * g.M + gx + lx, wy[ly] * wx[lx]);
    }
  }
};

// The kernel on node offsets, wrapped circularly: offset o sits at o and at M - o; the middle
// entry (offset N) is never reached by two nodes of the grid. Each distinct value is computed
// once, into `kern` ((N + 1)^D, the last row and column unused), then laid out.
void fill_kernel_grid(const Grid& g, const std::function<double(double)>& kernel,
                      std::vector<double>& kern, double* kgrid) {
  const int N = g.N, M = g.M;
  const double h = g.h;
  auto offset = [&](int a) { return a < N ? a : (a > N ? M - a : -1); };
  if (g.D == 1) {
    for (int a = 0; a < M; ++a) {
      const int o = offset(a);
      kgrid[a] = o < 0 ? 0.0 : kernel((o * h) * (o * h));
    }
    return;
  }
  // off2[a] + off2[b] is the same double as off2[b] + off2[a]: one triangle of the table.
  std::vector<double> off2(N);
  for (int o = 0; o < N; ++o) off2[o] = (o * h) * (o * h);
  kern.resize(std::size_t(N) * N);
  for (int a = 0; a < N; ++a)
    for (int b = 0; b <= a; ++b)
      kern[std::size_t(a) * N + b] = kern[std::size_t(b) * N + a] = kernel(off2[a] + off2[b]);
  for (int a = 0; a < M; ++a) {
    const int oa = offset(a);
    double* row = kgrid + std::size_t(a) * M;
    if (oa < 0) {
      std::fill(row, row + M, 0.0);
      continue;
    }
    const double* kr = &kern[std::size_t(oa) * N];
    for (int b = 0; b < M; ++b) {
      const int ob = offset(b);
      row[b] = ob < 0 ? 0.0 : kr[ob];
    }
  }
}

// Pointwise products of the m charge transforms with the kernel's, scaled for the inverse.
void multiply_transforms(const Grid& g, arma::uword m, const fftw_complex* khat,
                         fftw_complex* chat) {
  const double scale = 1.0 / static_cast<double>(g.Mtot);
  for (arma::uword c = 0; c < m; ++c) {
    fftw_complex* z = chat + c * g.Mc;
    for (std::size_t f = 0; f < g.Mc; ++f) {
      const double re = z[f][0] * khat[f][0] - z[f][1] * khat[f][1];
      const double im = z[f][0] * khat[f][1] + z[f][1] * khat[f][0];
      z[f][0] = re * scale;
      z[f][1] = im * scale;
    }
  }
}

}  // namespace

// FFTW plans and buffers for one grid size (D, M) and number of charges m. The charges' padding
// is cleared once: each call writes only the N^D corner the points spread onto, and the inverse
// transforms write into a buffer of their own, so the forward transforms' input keeps its zeros.
struct FftKernelSums::Plans {
  int D = 0, M = 0;
  arma::uword m = 0;
  FftwBuffer<double> kgrid, charges, sums;
  FftwBuffer<fftw_complex> khat, chat;
  Plan kplan, fwd, bwd;

  Plans(const Grid& g, arma::uword m_)
      : D(g.D),
        M(g.M),
        m(m_),
        kgrid(g.Mtot),
        charges(g.Mtot * m_),
        sums(g.Mtot * m_),
        khat(g.Mc),
        chat(g.Mc * m_) {
    const std::size_t Mtot = g.Mtot, Mc = g.Mc;
    std::fill(charges.p, charges.p + Mtot * m, 0.0);
    std::lock_guard<std::mutex> lock(planner_mutex());
    const int dims[2] = {g.M, g.M};
    kplan.p = fftw_plan_dft_r2c(D, dims, kgrid.p, khat.p, FFTW_ESTIMATE);
    fwd.p = fftw_plan_many_dft_r2c(D, dims, static_cast<int>(m), charges.p, nullptr, 1,
                                   static_cast<int>(Mtot), chat.p, nullptr, 1, static_cast<int>(Mc),
                                   FFTW_ESTIMATE);
    bwd.p = fftw_plan_many_dft_c2r(D, dims, static_cast<int>(m), chat.p, nullptr, 1,
                                   static_cast<int>(Mc), sums.p, nullptr, 1, static_cast<int>(Mtot),
                                   FFTW_ESTIMATE);
    if (!kplan.p || !fwd.p || !bwd.p) throw Error("fft interpolation: FFTW could not plan");
  }
  bool fits(const Grid& g, arma::uword m_) const { return D == g.D && M == g.M && m == m_; }
};

FftKernelSums::FftKernelSums() = default;
FftKernelSums::~FftKernelSums() = default;

const arma::mat& FftKernelSums::operator()(const arma::mat& Y, const arma::mat& Q,
                                           const std::function<double(double)>& kernel,
                                           const FftInterpolationOptions& opt, unsigned threads,
                                           FftGridInfo* info) {
  const int D = static_cast<int>(Y.n_rows);
  const arma::uword n = Y.n_cols, m = Q.n_rows;
  if (D < 1 || D > 2)
    throw Error("fft interpolation works in 1 or 2 dimensions, got " + std::to_string(D));
  if (Q.n_cols != n) throw Error("fft interpolation: charges do not match the points");
  if (opt.nodes < 1 || opt.min_intervals < 1 || opt.max_intervals < opt.min_intervals ||
      !(opt.interval_width > 0))
    throw Error("fft interpolation: bad options");
  if (!Y.is_finite()) throw Error("fft interpolation: non-finite coordinates");
  phi_.zeros(m, n);
  if (n == 0 || m == 0) return phi_;

  const Grid g = make_grid(Y, opt);
  if (info) *info = {g.intervals, g.box, g.Ntot};
  const NodeWeights nw(cell_, wts_, Y, g, threads);
  if (!plans_ || !plans_->fits(g, m)) {
    plans_.reset();  // the old grids go before the new ones are allocated
    plans_ = std::make_unique<Plans>(g, m);
  }
  Plans& pl = *plans_;
  const std::size_t Mtot = g.Mtot;
  fill_kernel_grid(g, kernel, kern_, pl.kgrid.p);
  fftw_execute(pl.kplan.p);

  // 1. Spread the charges onto the nodes, into the N^D corner of each padded grid, cleared first.
  // Nodes are shared between points, so threads split the charges, not the points: every node
  // still sums its points in point order, the same bits for any thread count.
  for (arma::uword c = 0; c < m; ++c) {
    double* plane = pl.charges.p + c * Mtot;
    if (D == 1)
      std::fill(plane, plane + g.N, 0.0);
    else
      for (int r = 0; r < g.N; ++r)
        std::fill(plane + std::size_t(r) * g.M, plane + std::size_t(r) * g.M + g.N, 0.0);
  }
  parallel_blocks(m, threads, [&](std::size_t c0, std::size_t c1, std::size_t) {
    for (arma::uword i = 0; i < n; ++i) {
      const double* q = Q.colptr(i);
      nw.for_each_node(g, i, [&](std::size_t at, double w) {
        for (arma::uword c = c0; c < c1; ++c) pl.charges.p[c * Mtot + at] += w * q[c];
      });
    }
  });

  // 2. Circular convolution with the kernel: pointwise products of the transforms.
  fftw_execute(pl.fwd.p);
  multiply_transforms(g, m, pl.khat.p, pl.chat.p);
  fftw_execute(pl.bwd.p);

  // 3. Interpolate the node sums back to the points (one column per point).
  const double* sums = pl.sums.p;
  parallel_blocks(n, threads, [&](std::size_t s, std::size_t e, std::size_t) {
    for (std::size_t i = s; i < e; ++i) {
      double* out = phi_.colptr(i);
      nw.for_each_node(g, i, [&](std::size_t at, double w) {
        for (arma::uword c = 0; c < m; ++c) out[c] += w * sums[c * Mtot + at];
      });
    }
  });
  return phi_;
}

arma::mat interpolated_kernel_sums(const arma::mat& Y, const arma::mat& Q,
                                   const std::function<double(double)>& kernel,
                                   const FftInterpolationOptions& opt, unsigned threads,
                                   FftGridInfo* info) {
  FftKernelSums sums;
  return sums(Y, Q, kernel, opt, threads, info);
}

}  // namespace drbench
