#include "framework/neighbours/knn_prefilter.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "framework/neighbours/knn_exact.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DRBENCH_PREFILTER_X86 1
#endif

namespace drbench {
namespace {

// Why the float pass never loses a true neighbour.
//
// Set-up. mu is the training mean (any fixed shift would do) and s = 2^-e the power of two that
// brings every centred coordinate into [-1, 1]. For a query q and a training point p the exact
// reals a_r = s (q_r - mu_r), b_r = s (p_r - mu_r) are stored as floats a^_r, b^_r: one double
// subtraction, an exact scaling and one rounding to float, so a^_r = a_r (1 + t) + h with
// |t| <= 1.01 u (u = 2^-24) and |h| <= 2^-149 (subnormal floats). The float pass computes
//   key(p) = fl( N^_p - sum_r (2 a^_r) b^_r ),
// N^_p = float(|b^|^2) (one rounding), 2 a^_r exact, the sum a chain of d steps in coordinate
// order, each one FMA or a product and a subtraction: at most d + 1 rounding factors on any term.
//
// Claim: |key(p) - (s^2 D(q, p) - |a^|^2)| <= E(q, p) = (2d + 10) u (|a^|^2 + |b^|^2) + d 2^-140,
// where D is the double distance every path ranks by (knn_exact.hpp) and |a^|^2 is the same for
// all p, so ranking by key is ranking by an approximation of D.
// - Chain rounding: |key - (|b^|^2 - 2 a^.b^)| <= gamma_{d+1} (N^_p + 2 sum|a^_r b^_r|)
//   + 1.01 u |b^|^2 <= ((2d + 2) u + 1.1 u) (|a^|^2 + |b^|^2), using 2|x.y| <= |x|^2 + |y|^2 and
//   gamma_n = n u / (1 - n u) <= 1.0001 n u for the d used here. This part is where the
//   cancellation of the expansion |b|^2 - 2 a.b goes: it is bounded by the norms, not by the
//   (possibly far smaller) distance, which is why the margin scales with |a^|^2 + |b^|^2.
// - Conversion: |b^|^2 - 2 a^.b^ + |a^|^2 = sum (x_r + e_r)^2 with x_r = a_r - b_r and
//   |e_r| <= 1.01 u (|a_r| + |b_r|) + 2^-148, so it differs from sum x_r^2 = s^2 D* (D* the exact
//   real distance) by sum (2 |x_r e_r| + e_r^2) <= 4.05 u (|a|^2 + |b|^2) + d 2^-145, as
//   |x_r| <= |a_r| + |b_r| <= 2. Centring first is what keeps |a|, |b| (and so the margin) small
//   for data far from the origin.
// - The double distance: |s^2 D - s^2 D*| <= gamma^double_{d+1} 2 (|a|^2 + |b|^2) plus underflow
//   below d 2^-270 in these units (the 2^-400 floor on the spread), negligible against u.
// - |a|^2 <= 1.0001 |a^|^2 + d 2^-147. Summing the three parts gives the constant, with room.
// Underflow and the FMA-or-not choice are inside the terms above, so all kernels (AVX-512 and
// AVX2 with FMA, the portable one without) satisfy the same bound.
//
// Consequence. Let T be the k-th smallest key over all candidates (the query itself excluded in
// leave-one-out) and E_q = max_p E(q, p), which uses max_p |b^|^2. The k points with key <= T
// have s^2 D - |a^|^2 <= T + E_q, so the k-th smallest D satisfies the same; any true top-k point
// p then has key(p) <= s^2 D(p) - |a^|^2 + E_q <= T + 2 E_q. While scanning, the running k-th
// smallest key is >= T, so keeping every key <= (running k-th) + 2 E_q keeps a superset of the
// true top k; ranking that superset by (D, index) gives exactly the top k the other paths give.
// The argument only uses that k distinct points (not the query itself) have keys <= T, each within
// the bound of its D, so T may also come from keys an earlier pass computed (the seed below).
// The threshold T + M is formed by one float addition, which may round down by u |T + M|. As
// |T| <= 2.0001 (|a^|^2 + N_max) while 2 E_q >= 2 (2d + 10) u (|a^|^2 + N_max), that rounding is
// below 2 E_q / (2d + 9); so M = 2 E_q (1 + 1 / (d + 2)), itself rounded up to a float, gives a
// threshold at or above T + 2 E_q.
constexpr arma::uword kTile = 16;
constexpr double kUnit = 0x1p-24;
constexpr double kRangeMax = 0x1p400, kSpreadMin = 0x1p-400;

struct FloatCand {
  float key;
  std::uint32_t i;
};

// One query's running state: the k smallest keys offered so far, so the threshold (the k-th key
// plus the margin) tightens at every improvement, and every offered key within the threshold at
// the time it was offered. Improvements are rare after the first few tiles (about k ln(n / k) of
// them in a scattered order), so the vector loop seldom leaves its path.
struct Query {
  std::vector<float> best;  // ascending, +inf while fewer than k (small k); else a max-heap
  std::vector<FloatCand> cand;
  std::size_t cap = 0;
  float thr = 0;
  float margin = 0;
  arma::uword skip = 0;
};

// Small k (the usual 1..25) keeps best sorted by insertion, larger k as a heap.
constexpr arma::uword kSortedBest = 32;

float round_up(double x) {
  float f = static_cast<float>(x);
  if (static_cast<double>(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// Drops the candidates beyond the threshold. When near ties keep more than half the room, the
// room doubles, so heavily tied data costs amortised linear time.
void prune(Query& s) {
  const float thr = s.thr;
  auto& c = s.cand;
  c.erase(std::remove_if(c.begin(), c.end(), [thr](const FloatCand& x) { return x.key > thr; }),
          c.end());
  if (2 * c.size() > s.cap) s.cap *= 2;
}

// Lanes of one tile that passed the threshold (bits of mask) join the query's candidates.
void offer(Query& s, const float* key, std::uint32_t mask, const std::uint32_t* orig,
           arma::uword k) {
  float* best = s.best.data();
  for (; mask != 0; mask &= mask - 1) {
    const int t = std::countr_zero(mask);
    const float x = key[t];
    if (orig[t] == s.skip || !(x <= s.thr)) continue;
    s.cand.push_back({x, orig[t]});
    if (k <= kSortedBest) {
      if (!(x < best[k - 1])) continue;
      arma::uword pos = k - 1;
      for (; pos > 0 && best[pos - 1] > x; --pos) best[pos] = best[pos - 1];
      best[pos] = x;
      s.thr = std::min(s.thr, best[k - 1] + s.margin);  // +inf until k keys were offered
      continue;
    }
    auto& b = s.best;
    if (b.size() == k) {
      if (!(x < b.front())) continue;
      std::pop_heap(b.begin(), b.end());
      b.back() = x;
    } else {
      b.push_back(x);
    }
    std::push_heap(b.begin(), b.end());
    if (b.size() == k) s.thr = std::min(s.thr, b.front() + s.margin);
  }
  if (s.cand.size() >= s.cap) prune(s);
}

// The training points in float: centred, scaled, in tiles of kTile points stored coordinate-major,
// with their squared norms (NaN in unused lanes, so those never pass a comparison). The points
// are visited in a scattered order (slot s holds point s * stride mod n) so that the running
// threshold falls fast even when the training set is sorted, by class or by a coordinate.
struct Tiles {
  arma::uword n = 0, dim = 0, tiles = 0;
  std::vector<float> pts, norms;
  std::vector<std::uint32_t> orig;
  double max_norm = 0;
};

// Seeds a query's threshold from the smallest key of each lane over the first tiles: those are
// distinct points, so the r-th smallest of them (r = k, or k + 1 when the query itself may be one)
// bounds the k-th smallest key from above. Most of the improvements a scan from +inf would meet
// (each a branch out of the vector loop) never happen.
constexpr arma::uword kSeedTiles = 16;
void seed(Query& s, const float* lane_min, arma::uword k, bool self_in_train) {
  const arma::uword r = k + (self_in_train ? 1 : 0);
  if (r > kTile) return;
  float low[kTile];  // the r smallest, ascending (NaN lanes never enter)
  std::fill_n(low, r, std::numeric_limits<float>::infinity());
  for (arma::uword l = 0; l < kTile; ++l) {
    const float x = lane_min[l];
    if (!(x < low[r - 1])) continue;
    arma::uword pos = r - 1;
    for (; pos > 0 && low[pos - 1] > x; --pos) low[pos] = low[pos - 1];
    low[pos] = x;
  }
  s.thr = std::min(s.thr, low[r - 1] + s.margin);
}

// Scans all tiles for Q queries at once (q2: their 2 a^, Q x dim), the AVX-512 kernel T tiles at
// a time: each coordinate row loaded serves Q queries and each query value broadcast serves T
// tiles, which keeps the loads below the multiply-adds. kSeed: only the first kSeedTiles tiles, to
// seed the thresholds.
#ifdef DRBENCH_PREFILTER_X86
template <int Q, int T, bool kSeed>
__attribute__((target("avx512f"))) void tiles_avx512(const Tiles& tr, arma::uword begin,
                                                     arma::uword end, const float* q2,
                                                     Query* const* qs, arma::uword k,
                                                     __m512* lane_min) {
  const arma::uword dim = tr.dim;
  alignas(64) float keys[kTile];
  for (arma::uword t = begin; t + T <= end; t += T) {
    const float* P = tr.pts.data() + t * dim * kTile;
    __m512 acc[T][Q];
#pragma GCC unroll 4
    for (int u = 0; u < T; ++u) {
      acc[u][0] = _mm512_loadu_ps(tr.norms.data() + (t + u) * kTile);
#pragma GCC unroll 16
      for (int j = 1; j < Q; ++j) acc[u][j] = acc[u][0];
    }
    for (arma::uword r = 0; r < dim; ++r) {
      __m512 row[T];
#pragma GCC unroll 4
      for (int u = 0; u < T; ++u) row[u] = _mm512_loadu_ps(P + (u * dim + r) * kTile);
#pragma GCC unroll 16
      for (int j = 0; j < Q; ++j) {
        const __m512 b = _mm512_set1_ps(q2[j * dim + r]);
#pragma GCC unroll 4
        for (int u = 0; u < T; ++u) acc[u][j] = _mm512_fnmadd_ps(b, row[u], acc[u][j]);
      }
    }
#pragma GCC unroll 4
    for (int u = 0; u < T; ++u) {
      if constexpr (kSeed) {
#pragma GCC unroll 16
        for (int j = 0; j < Q; ++j)
          lane_min[j] = _mm512_mask_mov_ps(
              lane_min[j], _mm512_cmp_ps_mask(acc[u][j], lane_min[j], _CMP_LT_OQ), acc[u][j]);
        continue;  // NaN lanes compare false and are never taken
      }
#pragma GCC unroll 16
      for (int j = 0; j < Q; ++j) {
        const __mmask16 m = _mm512_cmp_ps_mask(acc[u][j], _mm512_set1_ps(qs[j]->thr), _CMP_LE_OQ);
        if (m != 0) {
          _mm512_store_ps(keys, acc[u][j]);
          offer(*qs[j], keys, m, tr.orig.data() + (t + u) * kTile, k);
        }
      }
    }
  }
}

// The smallest of 16 lanes (none NaN). Written with masked forms only: GCC's plain ones pass an
// undefined vector that -Wmaybe-uninitialized reports.
__attribute__((target("avx512f"))) inline float min_lane(__m512 v) {
  constexpr __mmask16 all = 0xFFFF;
  v = _mm512_mask_min_ps(v, all, v, _mm512_mask_shuffle_f32x4(v, all, v, v, 0x4E));
  v = _mm512_mask_min_ps(v, all, v, _mm512_mask_shuffle_f32x4(v, all, v, v, 0xB1));
  v = _mm512_mask_min_ps(v, all, v, _mm512_mask_permute_ps(v, all, v, 0x4E));
  v = _mm512_mask_min_ps(v, all, v, _mm512_mask_permute_ps(v, all, v, 0xB1));
  return _mm512_cvtss_f32(v);
}

template <int Q, bool kSeed = false>
__attribute__((target("avx512f"))) void scan_avx512(const Tiles& tr, const float* q2,
                                                    Query* const* qs, arma::uword k) {
  const arma::uword tiles = kSeed ? std::min(tr.tiles, kSeedTiles) : tr.tiles;
  __m512 lane_min[Q];
#pragma GCC unroll 16
  for (int j = 0; j < Q; ++j) lane_min[j] = _mm512_set1_ps(std::numeric_limits<float>::infinity());
  constexpr int kPair = Q > 1 ? 2 : 1;
  const arma::uword paired = tiles - tiles % kPair;
  tiles_avx512<Q, kPair, kSeed>(tr, 0, paired, q2, qs, k, lane_min);
  tiles_avx512<Q, 1, kSeed>(tr, paired, tiles, q2, qs, k, lane_min);
  if constexpr (kSeed) {
    // seed() without its data-dependent branches: r times, take the smallest lane value and
    // retire every lane holding it. Equal lanes retire together, so the value reached bounds at
    // least r distinct points from above (a little loosely when lanes tie).
    for (int j = 0; j < Q; ++j) {
      const arma::uword r = k + (qs[j]->skip < tr.n ? 1 : 0);
      if (r > kTile) continue;
      const __m512 inf = _mm512_set1_ps(std::numeric_limits<float>::infinity());
      __m512 v = lane_min[j];
      float low = 0;
      for (arma::uword i = 0; i < r; ++i) {
        low = min_lane(v);
        v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, _mm512_set1_ps(low), _CMP_EQ_OQ), inf);
      }
      qs[j]->thr = std::min(qs[j]->thr, low + qs[j]->margin);
    }
  }
}

template <int Q, bool kSeed = false>
__attribute__((target("avx2,fma"))) void scan_avx2(const Tiles& tr, const float* q2,
                                                   Query* const* qs, arma::uword k) {
  const arma::uword dim = tr.dim;
  const arma::uword tiles = kSeed ? std::min(tr.tiles, kSeedTiles) : tr.tiles;
  alignas(32) float keys[kTile];
  __m256 min_lo[Q], min_hi[Q];
#pragma GCC unroll 16
  for (int j = 0; j < Q; ++j)
    min_lo[j] = min_hi[j] = _mm256_set1_ps(std::numeric_limits<float>::infinity());
  for (arma::uword t = 0; t < tiles; ++t) {
    const float* P = tr.pts.data() + t * dim * kTile;
    __m256 lo[Q], hi[Q];
    lo[0] = _mm256_loadu_ps(tr.norms.data() + t * kTile);
    hi[0] = _mm256_loadu_ps(tr.norms.data() + t * kTile + 8);
#pragma GCC unroll 16
    for (int j = 1; j < Q; ++j) lo[j] = lo[0], hi[j] = hi[0];
    for (arma::uword r = 0; r < dim; ++r) {
      const __m256 rlo = _mm256_loadu_ps(P + r * kTile), rhi = _mm256_loadu_ps(P + r * kTile + 8);
#pragma GCC unroll 16
      for (int j = 0; j < Q; ++j) {
        const __m256 b = _mm256_broadcast_ss(q2 + j * dim + r);
        lo[j] = _mm256_fnmadd_ps(b, rlo, lo[j]);
        hi[j] = _mm256_fnmadd_ps(b, rhi, hi[j]);
      }
    }
    if constexpr (kSeed) {
#pragma GCC unroll 16
      for (int j = 0; j < Q; ++j) {  // NaN lanes compare false and are never taken
        min_lo[j] = _mm256_blendv_ps(min_lo[j], lo[j], _mm256_cmp_ps(lo[j], min_lo[j], _CMP_LT_OQ));
        min_hi[j] = _mm256_blendv_ps(min_hi[j], hi[j], _mm256_cmp_ps(hi[j], min_hi[j], _CMP_LT_OQ));
      }
      continue;
    }
#pragma GCC unroll 16
    for (int j = 0; j < Q; ++j) {
      const __m256 thr = _mm256_set1_ps(qs[j]->thr);
      const auto m = static_cast<std::uint32_t>(
          _mm256_movemask_ps(_mm256_cmp_ps(lo[j], thr, _CMP_LE_OQ)) |
          (_mm256_movemask_ps(_mm256_cmp_ps(hi[j], thr, _CMP_LE_OQ)) << 8));
      if (m != 0) {
        _mm256_store_ps(keys, lo[j]);
        _mm256_store_ps(keys + 8, hi[j]);
        offer(*qs[j], keys, m, tr.orig.data() + t * kTile, k);
      }
    }
  }
  if constexpr (kSeed) {
    for (int j = 0; j < Q; ++j) {
      _mm256_store_ps(keys, min_lo[j]);
      _mm256_store_ps(keys + 8, min_hi[j]);
      seed(*qs[j], keys, k, qs[j]->skip < tr.n);
    }
  }
}
#endif

// Without vector intrinsics; this file is compiled with -ffp-contract=off, so here each step is a
// product and a subtraction (two roundings), which the bound allows for.
void scan_portable(const Tiles& tr, const float* q2, Query* const* qs, arma::uword k) {
  const arma::uword dim = tr.dim;
  float acc[kTile];
  for (arma::uword t = 0; t < tr.tiles; ++t) {
    const float* P = tr.pts.data() + t * dim * kTile;
    std::copy_n(tr.norms.data() + t * kTile, kTile, acc);
    for (arma::uword r = 0; r < dim; ++r)
      for (arma::uword l = 0; l < kTile; ++l) acc[l] -= q2[r] * P[r * kTile + l];
    std::uint32_t m = 0;
    for (arma::uword l = 0; l < kTile; ++l) m |= std::uint32_t(acc[l] <= qs[0]->thr) << l;
    if (m != 0) offer(*qs[0], acc, m, tr.orig.data() + t * kTile, k);
  }
}

using ScanFn = void (*)(const Tiles&, const float*, Query* const*, arma::uword);

PrefilterIsa resolve(PrefilterIsa isa) {
  if (isa != PrefilterIsa::automatic) {
    return prefilter_isa_available(isa) ? isa : PrefilterIsa::portable;
  }
  if (prefilter_isa_available(PrefilterIsa::avx512)) return PrefilterIsa::avx512;
  if (prefilter_isa_available(PrefilterIsa::avx2)) return PrefilterIsa::avx2;
  return PrefilterIsa::portable;
}

// The shift and scale of the float copy: the training mean and 2^-e with every centred
// coordinate of train and of the used test columns in [-1, 1].
double scale_for(const arma::mat& train, const arma::mat& test, const arma::vec& mu) {
  double most = 0;
  for (const arma::mat* X : {&train, &test})
    for (arma::uword j = 0; j < X->n_cols; ++j)
      for (arma::uword r = 0; r < X->n_rows; ++r)
        most = std::max(most, std::abs((*X)(r, j) - mu(r)));
  int e = 0;
  std::frexp(most, &e);  // most = f 2^e, f in [0.5, 1)
  return std::ldexp(1.0, -e);
}

Tiles make_tiles(const arma::mat& train, const arma::vec& mu, double scale) {
  Tiles tr;
  const arma::uword n = train.n_cols, dim = train.n_rows;
  tr.n = n;
  tr.dim = dim;
  tr.tiles = (n + kTile - 1) / kTile;
  tr.pts.assign(tr.tiles * dim * kTile, 0.0f);
  tr.norms.assign(tr.tiles * kTile, std::numeric_limits<float>::quiet_NaN());
  tr.orig.assign(tr.tiles * kTile, 0);
  arma::uword stride = std::max<arma::uword>(1, static_cast<arma::uword>(0.618 * double(n)));
  while (std::gcd(stride, n) != 1) ++stride;
  for (arma::uword slot = 0; slot < n; ++slot) {
    const arma::uword i = static_cast<arma::uword>((std::uint64_t(slot) * stride) % n);
    float* P = tr.pts.data() + (slot / kTile) * dim * kTile + slot % kTile;
    double norm = 0;
    for (arma::uword r = 0; r < dim; ++r) {
      const float b = static_cast<float>((train(r, i) - mu(r)) * scale);
      P[r * kTile] = b;
      norm += double(b) * double(b);
    }
    tr.norms[slot] = static_cast<float>(norm);
    tr.orig[slot] = static_cast<std::uint32_t>(i);
    tr.max_norm = std::max(tr.max_norm, norm);
  }
  return tr;
}

}  // namespace

bool prefilter_isa_available(PrefilterIsa isa) {
  switch (isa) {
#ifdef DRBENCH_PREFILTER_X86
    case PrefilterIsa::avx512:
      return __builtin_cpu_supports("avx512f");
    case PrefilterIsa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    case PrefilterIsa::avx512:
    case PrefilterIsa::avx2:
      return false;
#endif
    default:
      return true;
  }
}

bool knn_prefilter_covers(const arma::mat& train, const arma::mat& test) {
  if (train.n_cols == 0 || train.n_cols >= std::numeric_limits<std::uint32_t>::max()) return false;
  for (const arma::mat* X : {&train, &test})
    for (double v : *X)
      if (!(std::abs(v) <= kRangeMax)) return false;  // NaN fails too
  const arma::vec mu = arma::mean(train, 1);
  double most = 0;
  for (const arma::mat* X : {&train, &test})
    for (arma::uword j = 0; j < X->n_cols; ++j)
      for (arma::uword r = 0; r < X->n_rows; ++r)
        most = std::max(most, std::abs((*X)(r, j) - mu(r)));
  return most >= kSpreadMin;
}

void knn_prefilter_into(const arma::mat& train, const arma::mat& test, arma::uword kmax,
                        bool exclude_self, const arma::uvec& cols, arma::umat& nn,
                        PrefilterIsa isa) {
  const arma::uword n = train.n_cols, dim = train.n_rows;
  const arma::uword m = cols.is_empty() ? test.n_cols : cols.n_elem;
  const arma::vec mu = arma::mean(train, 1);
  const double scale = scale_for(train, test, mu);
  const Tiles tr = make_tiles(train, mu, scale);

  isa = resolve(isa);
  ScanFn scan = scan_portable, scan1 = scan_portable, seeder = nullptr;
  int width = 1;
#ifdef DRBENCH_PREFILTER_X86
  if (isa == PrefilterIsa::avx512)
    scan = scan_avx512<8>, scan1 = scan_avx512<1>, seeder = scan_avx512<8, true>, width = 8;
  if (isa == PrefilterIsa::avx2)
    scan = scan_avx2<4>, scan1 = scan_avx2<1>, seeder = scan_avx2<4, true>, width = 4;
#endif

  std::vector<Query> state(static_cast<std::size_t>(width));
  std::vector<Query*> qs(state.size());
  for (std::size_t j = 0; j < state.size(); ++j) qs[j] = &state[j];
  std::vector<float> q2(static_cast<std::size_t>(width) * dim);
  std::vector<knn_detail::Cand> exact;
  const double coef = double(2 * dim + 10) * kUnit;
  const double tiny = double(dim) * 0x1p-140;

  for (arma::uword s = 0; s < m;) {
    const arma::uword group = m - s >= arma::uword(width) ? arma::uword(width) : 1;
    for (arma::uword g = 0; g < group; ++g) {
      const arma::uword j = cols.is_empty() ? s + g : cols(s + g);
      double norm = 0;
      for (arma::uword r = 0; r < dim; ++r) {
        const float a = static_cast<float>((test(r, j) - mu(r)) * scale);
        q2[g * dim + r] = 2.0f * a;
        norm += double(a) * double(a);
      }
      Query& st = state[g];
      st.cand.clear();
      st.best.clear();
      if (kmax <= kSortedBest) st.best.assign(kmax, std::numeric_limits<float>::infinity());
      st.cap = std::max<std::size_t>(4 * kmax, 64);
      st.thr = std::numeric_limits<float>::infinity();
      st.margin =
          round_up(2.0 * (coef * (norm + tr.max_norm) + tiny) * (1.0 + 1.0 / double(dim + 2)));
      st.skip = exclude_self ? j : n;
    }
    if (group == arma::uword(width) && seeder) seeder(tr, q2.data(), qs.data(), kmax);
    (group == arma::uword(width) ? scan : scan1)(tr, q2.data(), qs.data(), kmax);
    for (arma::uword g = 0; g < group; ++g) {
      const arma::uword j = cols.is_empty() ? s + g : cols(s + g);
      Query& st = state[g];
      prune(st);
      exact.clear();
      for (const FloatCand& c : st.cand)
        exact.push_back({knn_detail::sq_dist(train.colptr(c.i), test.colptr(j), dim), c.i});
      std::partial_sort(exact.begin(), exact.begin() + kmax, exact.end());
      for (arma::uword r = 0; r < kmax; ++r) nn(r, j) = exact[r].i;
    }
    s += group;
  }
}

}  // namespace drbench
