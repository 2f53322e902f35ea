#include "methods/neighbour/umap/layout.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <utility>
#include <vector>

#include "framework/core/rng.hpp"
#include "framework/support/parallel.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench::umap {

PowTable::PowTable(double y)
    : y_(y), c1_(y), c2_(y * (y - 1.0) / 2.0), c3_(y * (y - 1.0) * (y - 2.0) / 6.0) {
  for (int e = -kExp; e < kExp; ++e) scale_[std::size_t(e + kExp)] = std::pow(2.0, double(e) * y);
  for (int j = 0; j < kSegments; ++j) {
    const double m = 1.0 + double(j) / double(kSegments);
    base_[std::size_t(j)] = std::pow(m, y);
    inverse_[std::size_t(j)] = 1.0 / m;
  }
}

namespace {

constexpr double kClip = 4.0;
constexpr double kRepulsionEps = 0.001;

// splitmix64 on a counter: a cheap stream per task (or per new point), seeded from the task's
// engine, with Lemire's multiply-shift for an index below n.
struct Stream {
  std::uint64_t state;
  arma::uword below(arma::uword n) {
    const std::uint64_t x = mix64(state++);
    return arma::uword((static_cast<unsigned __int128>(x) * n) >> 64);
  }
};

inline double clip(double v) {
  return std::clamp(v, -kClip, kClip);
}

inline double sq_dist(const double* u, const double* v, arma::uword dim) {
  double s = 0.0;
  for (arma::uword d = 0; d < dim; ++d) {
    const double t = u[d] - v[d];
    s += t * t;
  }
  return s;
}

// Per-edge sampling state, umap-learn's epoch_of_next_sample and its negative counterpart.
struct Schedule {
  std::vector<double> next, per_neg, next_neg;
  Schedule(const Edges& e, double rate)
      : next(e.epochs_per_sample.begin(), e.epochs_per_sample.end()),
        per_neg(next.size()),
        next_neg(next.size()) {
    for (std::size_t i = 0; i < next.size(); ++i) per_neg[i] = next_neg[i] = next[i] / rate;
  }
};

// The epoch's cross-entropy is a sum of logs of ratios >= 1: numerators and denominators are
// multiplied and the log is taken once a product leaves [1e-100, 1e100], one log per many samples
// instead of one per sample (a log per sample cost a fifth of the layout), and no division.
struct EpochStats {
  double log_sum = 0.0, product = 1.0, divisor = 1.0, grad_sq = 0.0;
  std::size_t positives = 0, samples = 0;
  // log(num / den) for num >= den > 0.
  void add_log_ratio(double num, double den) {
    if (num > 1e50 || den < 1e-50) {
      log_sum += std::log(num) - std::log(den);
      return;
    }
    product *= num;
    divisor *= den;
    // product >= divisor: only these two bounds can be crossed.
    if (product > 1e100 || divisor < 1e-100) {
      log_sum += std::log(product) - std::log(divisor);
      product = divisor = 1.0;
    }
  }
  double objective() const { return log_sum + std::log(product) - std::log(divisor); }
  // Adds another part of the epoch (the block layout's chunks, merged in chunk order).
  void merge(const EpochStats& o) {
    log_sum += o.objective();
    grad_sq += o.grad_sq;
    positives += o.positives;
    samples += o.samples;
  }
};

// One sample of edge i in `epoch`: the attraction and its negative samples. `move_tail`: the fit
// moves both ends; the transform keeps the training embedding fixed.
//
// Every step of one sample (the attraction and up to kBatch negatives) is computed from the
// positions the sample starts from and applied together. umap-learn applies them one after the
// other, which chains each power on the previous step's result; batched, the powers overlap (the
// 60,000-point Fashion-MNIST fit went from 19.1 to 14.0 CPU s). The steps are the same clipped
// gradients; only the point they are taken at differs (by at most a few clipped steps of the same
// sample).
constexpr long kBatch = 8;

// The steps of one sample of edge i in `epoch`, the one body of both layouts: the head `cur` moves
// in place; the tail, read at `tail`, moves through move_tail(d, step) (in place, into a block's
// buffer, or not at all); negatives are drawn among the n_others points at `others`, the head's own
// index j skipped when kSkipHead. kDim > 0: the embedding's dimension known at compile time (2,
// the common case: its loops unroll); 0: dim_rt.
template <bool kSkipHead, bool kStats, int kDim, class MoveTail>
inline void sample_steps(std::size_t i, double epoch, double alpha, const Edges& e, Schedule& s,
                         double* cur, const double* tail, const double* others,
                         arma::uword n_others, arma::uword dim_rt, double a, double b,
                         const PowTable& pow_b1, Stream& rng, EpochStats& st,
                         MoveTail&& move_tail) {
  const arma::uword dim = kDim > 0 ? arma::uword(kDim) : dim_rt;
  const arma::uword j = e.head(i);
  const auto n_neg = static_cast<long>((epoch - s.next_neg[i]) / s.per_neg[i]);
  s.next[i] += e.epochs_per_sample(i);
  s.next_neg[i] += double(n_neg) * s.per_neg[i];
  bool attract = true;
  for (long p0 = 0; p0 < n_neg || attract; p0 += kBatch) {
    const long nb = std::min(kBatch, n_neg - p0);
    // The attraction, with the first batch.
    double coeff = 0.0;
    if (attract) {
      const double d2 = sq_dist(cur, tail, dim);
      if (d2 > 0.0) {
        const double p = pow_b1(d2);
        const double qinv = 1.0 + a * p * d2;
        coeff = -2.0 * a * b * p / qinv;
        if constexpr (kStats) st.add_log_ratio(qinv, 1.0);
      }
    }
    const double* oth[kBatch];
    double rc[kBatch];
    long used = 0;
    for (long p = 0; p < nb; ++p) {
      const arma::uword r = rng.below(n_others);
      if (kSkipHead && r == j) continue;  // the point itself
      oth[used] = others + r * dim;
      rc[used] = sq_dist(cur, oth[used], dim);
      ++used;
    }
    for (long p = 0; p < used; ++p) {
      const double d2 = rc[p];
      double c = 0.0;
      if (d2 > 0.0) {
        const double pb = d2 * pow_b1(d2);  // d2^b
        c = 2.0 * b / ((kRepulsionEps + d2) * (1.0 + a * pb));
        if constexpr (kStats) st.add_log_ratio(1.0 + a * pb, a * pb);
      }
      rc[p] = c;
    }
    for (arma::uword d = 0; d < dim; ++d) {
      const double c0 = cur[d];
      double step = 0.0;
      for (long p = 0; p < used; ++p) {
        // Coincident distinct points get the largest push (umap-learn's rule).
        const double g = rc[p] > 0.0 ? clip(rc[p] * (c0 - oth[p][d])) : kClip;
        step += g;
        if constexpr (kStats) st.grad_sq += g * g;
      }
      if (attract) {
        const double g = clip(coeff * (c0 - tail[d]));
        step += g;
        move_tail(d, g * alpha);
        if constexpr (kStats) st.grad_sq += g * g;
      }
      cur[d] = c0 + step * alpha;
    }
    if constexpr (kStats) {
      st.samples += std::size_t(used) + (attract ? 1 : 0);
      if (attract) ++st.positives;
    }
    attract = false;
  }
}

// One sample of edge i in `epoch`, in place: the head moves in head_y, the tail in tail_y when
// kMoveTail (a fit; new points keep their reference points fixed).
template <bool kMoveTail, bool kStats, int kDim>
inline void sample_edge(std::size_t i, double epoch, double alpha, const Edges& e, Schedule& s,
                        double* head_y, double* tail_y, arma::uword n_tail, arma::uword dim_rt,
                        double a, double b, const PowTable& pow_b1, Stream& rng, EpochStats& st) {
  const arma::uword dim = kDim > 0 ? arma::uword(kDim) : dim_rt;
  double* tail = tail_y + e.tail(i) * dim;
  sample_steps<kMoveTail, kStats, kDim>(
      i, epoch, alpha, e, s, head_y + e.head(i) * dim, tail, tail_y, n_tail, dim, a, b, pow_b1, rng,
      st, [tail]([[maybe_unused]] arma::uword d, [[maybe_unused]] double move) {
        if constexpr (kMoveTail) tail[d] -= move;
      });
}

// One sample of edge i in `epoch` for the block layout: the same steps as sample_edge<true, ...>,
// taken at the positions Y had when the block started, written as the head's move to dh and the
// tail's to dt instead of into Y. The edge's negatives come from its own stream (seed, epoch,
// edge), so no draw depends on which thread runs it.
template <bool kStats, int kDim>
inline void sample_edge_delta(std::size_t i, double epoch, double alpha, const Edges& e,
                              Schedule& s, const double* y, arma::uword n, arma::uword dim_rt,
                              double a, double b, const PowTable& pow_b1, Stream rng, double* cur,
                              double* dh, double* dt, EpochStats& st) {
  const arma::uword dim = kDim > 0 ? arma::uword(kDim) : dim_rt;
  const double* head = y + e.head(i) * dim;
  for (arma::uword d = 0; d < dim; ++d) {
    cur[d] = head[d];
    dt[d] = 0.0;
  }
  sample_steps<true, kStats, kDim>(i, epoch, alpha, e, s, cur, y + e.tail(i) * dim, y, n, dim, a, b,
                                   pow_b1, rng, st,
                                   [dt](arma::uword d, double move) { dt[d] -= move; });
  for (arma::uword d = 0; d < dim; ++d) dh[d] = cur[d] - head[d];
}

}  // namespace

double cross_entropy(const arma::mat& Y, const arma::sp_mat& Ws, double a, double b,
                     arma::mat* grad) {
  const arma::uword n = Y.n_cols;
  const arma::mat W(Ws);
  if (grad) grad->zeros(Y.n_rows, n);
  double f = 0.0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) {
      if (i == j) continue;
      const double d2 = arma::accu(arma::square(Y.col(i) - Y.col(j)));
      const double adb = a * std::pow(d2, b);
      const double w = W(i, j);
      f += w * std::log1p(adb) + (1.0 - w) * (std::log1p(adb) - std::log(adb));
      // Both ordered pairs (i, j) and (j, i) move y_i by the same amount.
      if (grad)
        grad->col(i) += 2.0 *
                        (w * attract_coeff(d2, a, b) + (1.0 - w) * repulse_coeff(d2, a, b, 0.0)) *
                        (Y.col(i) - Y.col(j));
    }
  return f;
}

Edges edges_of(const arma::sp_mat& G, int epochs) {
  Edges e;
  e.n_heads = G.n_cols;
  const double wmax = G.n_nonzero > 0 ? arma::max(arma::nonzeros(G)) : 0.0;
  const double floor = wmax / double(epochs);
  std::size_t m = 0;
  for (auto it = G.begin(); it != G.end(); ++it)
    if (*it >= floor) ++m;
  e.head.set_size(m);
  e.tail.set_size(m);
  e.epochs_per_sample.set_size(m);
  std::size_t i = 0;
  for (auto it = G.begin(); it != G.end(); ++it) {
    if (*it < floor) continue;
    e.head(i) = it.col();
    e.tail(i) = it.row();
    e.epochs_per_sample(i) = wmax / *it;
    ++i;
  }
  return e;
}

namespace {

// An epoch's trace row (objective, gradient norm, seconds since t0, step) and the deadline check,
// for both fit layouts; the objective is summed only when traced.
void end_epoch(const LayoutOptions& o, const EpochStats& st, int epoch, double alpha,
               std::chrono::steady_clock::time_point t0) {
  if (o.trace) {
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    o.trace->log(epoch, st.positives ? st.objective() / double(st.positives) : 0.0,
                 st.samples ? std::sqrt(st.grad_sq / double(st.samples)) : 0.0, secs, alpha);
  }
  check_task_deadline(epoch,
                      o.trace && st.positives ? st.objective() / double(st.positives)
                                              : std::numeric_limits<double>::quiet_NaN(),
                      o.epochs);
}

template <int kDim>
void fit_epochs(arma::mat& Y, const Edges& e, const LayoutOptions& o) {
  const arma::uword dim = Y.n_rows, n = Y.n_cols;
  Schedule s(e, o.negative_sample_rate);
  Stream rng{o.seed};
  const PowTable pow_b1(o.b - 1.0);
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t m = e.head.n_elem;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    const double alpha = o.learning_rate * (1.0 - double(epoch - 1) / double(o.epochs));
    EpochStats st;
    const double ep = double(epoch);
    for (std::size_t i = 0; i < m; ++i) {
      if (s.next[i] > ep) continue;
      if (o.trace)
        sample_edge<true, true, kDim>(i, ep, alpha, e, s, Y.memptr(), Y.memptr(), n, dim, o.a, o.b,
                                      pow_b1, rng, st);
      else
        sample_edge<true, false, kDim>(i, ep, alpha, e, s, Y.memptr(), Y.memptr(), n, dim, o.a, o.b,
                                       pow_b1, rng, st);
    }
    end_epoch(o, st, epoch, alpha, t0);
  }
}

// The edges in block order: block b holds edges b, b + nb, b + 2 nb, ... (edges_of lists each
// head's edges together, so one head's edges fall in different blocks), each block contiguous.
Edges block_order(const Edges& e, std::size_t nb) {
  const std::size_t m = e.head.n_elem;
  arma::uvec order(m);
  std::size_t t = 0;
  for (std::size_t b = 0; b < nb; ++b)
    for (std::size_t i = b; i < m; i += nb) order(t++) = i;
  Edges o;
  o.head = e.head(order);
  o.tail = e.tail(order);
  o.epochs_per_sample = e.epochs_per_sample(order);
  o.n_heads = e.n_heads;
  return o;
}

// Block layout: the edges of a block are sampled in parallel from the positions the block starts
// from; their moves are then added to Y point by point in edge order. Blocks, chunks and random
// streams depend on n and the seed only, so the bits do not depend on the thread count. A block
// holds n / 4 edges (at least kMinBlock), so a point is moved about once per block or less and the
// steps it takes from a stale position are few.
constexpr std::size_t kMinBlock = 1024, kChunk = 2048;

template <int kDim>
void fit_epochs_blocks(arma::mat& Y, const Edges& e0, const LayoutOptions& o) {
  const arma::uword dim = Y.n_rows, n = Y.n_cols;
  const std::size_t m = e0.head.n_elem;
  const std::size_t block = std::max<std::size_t>(kMinBlock, n / 4);
  const std::size_t nb = std::max<std::size_t>(1, (m + block - 1) / block);
  const Edges e = block_order(e0, nb);
  Schedule s(e, o.negative_sample_rate);
  const PowTable pow_b1(o.b - 1.0);
  const unsigned threads = std::max(1u, o.threads);
  const std::size_t biggest = (m + nb - 1) / nb;
  // Per chunk, the edges that moved packed from the chunk's first slot: their ends and moves.
  std::vector<double> dh(biggest * dim), dt(biggest * dim);
  std::vector<std::pair<arma::uword, arma::uword>> ends(biggest);
  std::vector<std::size_t> count((biggest + kChunk - 1) / kChunk);
  std::vector<EpochStats> chunk_stats(count.size());
  const auto t0 = std::chrono::steady_clock::now();
  double* y = Y.memptr();
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    const double alpha = o.learning_rate * (1.0 - double(epoch - 1) / double(o.epochs));
    const double ep = double(epoch);
    const std::uint64_t epoch_seed = mix64(o.seed ^ mix64(std::uint64_t(epoch)));
    EpochStats st;
    for (std::size_t b = 0, first = 0; b < nb; ++b) {
      const std::size_t len = (m - b + nb - 1) / nb, chunks = (len + kChunk - 1) / kChunk;
      parallel_blocks(chunks, threads, [&](std::size_t c0, std::size_t c1, std::size_t) {
        std::vector<double> cur(dim);
        for (std::size_t ch = c0; ch < c1; ++ch) {
          EpochStats& cs = chunk_stats[ch];
          cs = EpochStats{};
          std::size_t slot = ch * kChunk;
          for (std::size_t q = ch * kChunk; q < std::min(len, (ch + 1) * kChunk); ++q) {
            const std::size_t i = first + q;
            if (s.next[i] > ep) continue;
            const Stream rng{mix64(epoch_seed ^ i)};
            if (o.trace)
              sample_edge_delta<true, kDim>(i, ep, alpha, e, s, y, n, dim, o.a, o.b, pow_b1, rng,
                                            cur.data(), &dh[slot * dim], &dt[slot * dim], cs);
            else
              sample_edge_delta<false, kDim>(i, ep, alpha, e, s, y, n, dim, o.a, o.b, pow_b1, rng,
                                             cur.data(), &dh[slot * dim], &dt[slot * dim], cs);
            ends[slot++] = {e.head(i), e.tail(i)};
          }
          count[ch] = slot - ch * kChunk;
        }
      });
      // Each thread adds the moves of its own points, in edge order.
      parallel_blocks(n, threads, [&](std::size_t p0, std::size_t p1, std::size_t) {
        for (std::size_t ch = 0; ch < chunks; ++ch)
          for (std::size_t r = ch * kChunk; r < ch * kChunk + count[ch]; ++r) {
            const auto [j, k] = ends[r];
            if (j >= p0 && j < p1)
              for (arma::uword d = 0; d < dim; ++d) y[j * dim + d] += dh[r * dim + d];
            if (k >= p0 && k < p1)
              for (arma::uword d = 0; d < dim; ++d) y[k * dim + d] += dt[r * dim + d];
          }
      });
      if (o.trace)
        for (std::size_t ch = 0; ch < chunks; ++ch) st.merge(chunk_stats[ch]);
      first += len;
    }
    end_epoch(o, st, epoch, alpha, t0);
  }
}

template <int kDim>
void new_point_epochs(arma::mat& Ynew, const arma::mat& Yref, const Edges& e,
                      const LayoutOptions& o, unsigned threads) {
  const arma::uword dim = Ynew.n_rows, m = Ynew.n_cols;
  // Each new point's edges are one contiguous run (edges_of lists them column by column).
  std::vector<std::size_t> start(m + 1, 0);
  for (arma::uword i = 0; i < e.head.n_elem; ++i) ++start[e.head(i) + 1];
  for (arma::uword j = 0; j < m; ++j) start[j + 1] += start[j];
  Schedule s(e, o.negative_sample_rate);
  const PowTable pow_b1(o.b - 1.0);
  // The tail embedding is only read when the tail does not move.
  double* ref = const_cast<double*>(Yref.memptr());
  parallel_for(m, threads, [&](std::size_t j) {
    Stream rng{mix64(o.seed ^ mix64(j))};
    EpochStats st;
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
      const double alpha = o.learning_rate * (1.0 - double(epoch - 1) / double(o.epochs));
      const double ep = double(epoch);
      for (std::size_t i = start[j]; i < start[j + 1]; ++i)
        if (s.next[i] <= ep)
          sample_edge<false, false, kDim>(i, ep, alpha, e, s, Ynew.memptr(), ref, Yref.n_cols, dim,
                                          o.a, o.b, pow_b1, rng, st);
    }
  });
}

}  // namespace

void optimize_embedding(arma::mat& Y, const Edges& e, const LayoutOptions& o) {
  if (o.blocks) {
    if (Y.n_rows == 2)
      fit_epochs_blocks<2>(Y, e, o);
    else
      fit_epochs_blocks<0>(Y, e, o);
    return;
  }
  if (Y.n_rows == 2)
    fit_epochs<2>(Y, e, o);
  else
    fit_epochs<0>(Y, e, o);
}

void optimize_new_points(arma::mat& Ynew, const arma::mat& Yref, const Edges& e,
                         const LayoutOptions& o, unsigned threads) {
  if (Ynew.n_rows == 2)
    new_point_epochs<2>(Ynew, Yref, e, o, threads);
  else
    new_point_epochs<0>(Ynew, Yref, e, o, threads);
}

}  // namespace drbench::umap
