#include "framework/eval/coranking.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/eval/global_measures.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

const std::vector<QualityMeasureInfo>& quality_measures() {
  static const std::vector<QualityMeasureInfo> v = {
      {"trustworthiness", true, true, "Venna & Kaski: penalises intrusions, 1 = none"},
      {"continuity", true, true, "Venna & Kaski: penalises extrusions, 1 = none"},
      {"qnx", true, true, "Q_NX(K): mean share of K-ary neighbourhoods kept in both spaces"},
      {"rnx", true, true, "R_NX(K): Q_NX rescaled so a random embedding scores 0, a perfect one 1"},
      {"lcmc", true, true, "local continuity meta-criterion Q_NX(K) - K/(N-1)"},
      {"mrre_intrusion", true, false,
       "mean relative rank error of the embedding's K neighbours (0 = perfect)"},
      {"mrre_extrusion", true, false,
       "mean relative rank error of the input space's K neighbours (0 = perfect)"},
      {"rnx_auc", false, true, "area under R_NX(K) with a log K axis (Lee et al. 2015)"},
      {"stress", false, false, "normalised stress sum (delta - d)^2 / sum delta^2, unscaled"},
      {"shepard_spearman", false, true,
       "Spearman correlation of input and embedding distances over point pairs"},
      {"random_triplet", false, true,
       "PaCMAP paper: share of random triplets (5 per point) ordered alike in both spaces"},
      {"centroid_triplet", false, true,
       "PaCMAP paper: share of pairs of class-centroid distances ordered alike in both spaces",
       true},
      {"global_score", false, true,
       "TriMap paper: exp(-(L - L_PCA) / L_PCA), L the linear reconstruction error of the input"},
  };
  return v;
}

const QualityMeasureInfo* find_quality_measure(const std::string& name) {
  for (const auto& m : quality_measures())
    if (name == m.name) return &m;
  return nullptr;
}

std::string QualityColumn::label() const {
  return k > 0 ? measure + "@" + std::to_string(k) : measure;
}

std::vector<std::string> quality_labels(const std::vector<std::string>& measures,
                                        const std::vector<int>& ks) {
  std::vector<std::string> out;
  for (const auto& m : measures) {
    const QualityMeasureInfo* info = find_quality_measure(m);
    if (!info) throw Error("unknown quality measure '" + m + "'");
    if (!info->per_k)
      out.push_back(m);
    else
      for (int k : ks) out.push_back(m + "@" + std::to_string(k));
  }
  return out;
}

std::vector<int> rnx_curve_ks(arma::uword n) {
  std::vector<int> ks;
  if (n < 3) return ks;
  const double top = std::log(double(n - 2));
  for (int g = 0; g < kCurvePoints; ++g) {
    const int k = static_cast<int>(
        std::lround(std::exp(kCurvePoints == 1 ? 0.0 : top * g / (kCurvePoints - 1))));
    if (ks.empty() || k > ks.back()) ks.push_back(k);
  }
  return ks;
}

namespace {

// Stable LSD radix sort of (key, index) by key in 11-bit digits, skipping digits every key
// shares. Squared distances are non-negative doubles, whose bit patterns order like the values;
// starting from ascending indices, equal distances stay in index order (the tie rule).
struct RadixSorter {
  std::vector<std::uint64_t> key, key2;
  std::vector<std::uint32_t> idx, idx2;
  std::vector<std::uint32_t> hist;

  // d: squared distances to all n points; `self` is left out. Sorted indices end up in idx.
  void sort(const double* d, arma::uword n, arma::uword self) {
    const arma::uword m = n - 1;
    key.resize(m);
    idx.resize(m);
    key2.resize(m);
    idx2.resize(m);
    for (arma::uword j = 0, t = 0; j < n; ++j) {
      if (j == self) continue;
      std::uint64_t bits = 0;
      if (d[j] > 0) std::memcpy(&bits, &d[j], 8);  // -0.0 and 0 alike
      key[t] = bits;
      idx[t] = static_cast<std::uint32_t>(j);
      ++t;
    }
    constexpr int kBits = 11, kPasses = 6;
    constexpr std::uint32_t kBuckets = 1u << kBits;
    hist.assign(std::size_t(kPasses) * kBuckets, 0);
    for (arma::uword t = 0; t < m; ++t)
      for (int p = 0; p < kPasses; ++p) ++hist[p * kBuckets + ((key[t] >> (p * kBits)) & 2047)];
    for (int p = 0; p < kPasses; ++p) {
      std::uint32_t* h = &hist[p * kBuckets];
      const int shift = p * kBits;
      if (h[(key[0] >> shift) & 2047] == m) continue;  // every key has this digit
      std::uint32_t sum = 0;
      for (std::uint32_t b = 0; b < kBuckets; ++b) {
        const std::uint32_t c = h[b];
        h[b] = sum;
        sum += c;
      }
      for (arma::uword t = 0; t < m; ++t) {
        const std::uint32_t pos = h[(key[t] >> shift) & 2047]++;
        key2[pos] = key[t];
        idx2[pos] = idx[t];
      }
      key.swap(key2);
      idx.swap(idx2);
    }
  }
};

// Per-query terms, one row per query; everything a measure needs is a sum over these rows.
struct Rows {
  enum : arma::uword { kPenT, kPenC, kOverlap, kMrreI, kMrreE, kPerK };
};

double harmonic_norm(arma::uword n, int k) {  // sum_{k'=1}^K |N - 2k'| / k'
  double h = 0;
  for (int t = 1; t <= k; ++t) h += std::abs(double(n) - 2.0 * t) / t;
  return h;
}

// Average ranks (1-based, ties share their mean rank), as scipy.stats.rankdata does.
std::vector<double> average_ranks(const std::vector<double>& x) {
  std::vector<std::uint32_t> ord(x.size());
  std::iota(ord.begin(), ord.end(), 0u);
  std::sort(ord.begin(), ord.end(), [&](std::uint32_t a, std::uint32_t b) {
    return x[a] < x[b] || (x[a] == x[b] && a < b);
  });
  std::vector<double> r(x.size());
  for (std::size_t s = 0; s < ord.size();) {
    std::size_t e = s + 1;
    while (e < ord.size() && x[ord[e]] == x[ord[s]]) ++e;
    const double avg = 0.5 * double(s + 1 + e);  // mean of ranks s+1..e
    for (std::size_t t = s; t < e; ++t) r[ord[t]] = avg;
    s = e;
  }
  return r;
}

// Spearman correlation (Pearson correlation of average ranks) and, when groups are given (the
// pairs of consecutive query blocks), its delete-a-group jackknife standard error with the ranks
// held fixed: pairs that share a query point are not independent, so the query blocks are the
// units of resampling.
double spearman(const std::vector<double>& a, const std::vector<double>& b,
                const std::vector<std::size_t>& group_end, double* se) {
  const std::vector<double> ra = average_ranks(a), rb = average_ranks(b);
  struct Sums {
    double n = 0, x = 0, y = 0, xx = 0, yy = 0, xy = 0;
    void add(const Sums& o, double sign) {
      n += sign * o.n, x += sign * o.x, y += sign * o.y;
      xx += sign * o.xx, yy += sign * o.yy, xy += sign * o.xy;
    }
    double corr() const {
      const double cxy = xy - x * y / n, cxx = xx - x * x / n, cyy = yy - y * y / n;
      return cxx > 0 && cyy > 0 ? cxy / std::sqrt(cxx * cyy) : arma::datum::nan;
    }
  };
  // Ranks are centred first (mean (P+1)/2) so the sums stay well conditioned.
  const double centre = 0.5 * (double(ra.size()) + 1.0);
  std::vector<Sums> groups;
  Sums all;
  std::size_t s = 0;
  for (std::size_t e : group_end) {
    Sums g;
    for (std::size_t i = s; i < e; ++i) {
      const double x = ra[i] - centre, y = rb[i] - centre;
      g.n += 1, g.x += x, g.y += y, g.xx += x * x, g.yy += y * y, g.xy += x * y;
    }
    groups.push_back(g);
    all.add(g, 1.0);
    s = e;
  }
  const double r = all.corr();
  if (se) {
    *se = 0;
    std::vector<double> loo;
    for (const Sums& g : groups) {
      if (g.n == 0) continue;
      Sums rest = all;
      rest.add(g, -1.0);
      loo.push_back(rest.corr());
    }
    if (loo.size() >= 2) {
      const double G = double(loo.size());
      const double m = std::accumulate(loo.begin(), loo.end(), 0.0) / G;
      double ss = 0;
      for (double v : loo) ss += (v - m) * (v - m);
      *se = std::sqrt((G - 1) / G * ss);
    }
  }
  return r;
}

// Squared distances of all points to the query columns q (n x b), as sq_distances computes them
// (the same operations in the same order), with the points' squared norms given.
arma::mat block_sq_distances(const arma::mat& X, const arma::rowvec& norms, const arma::uvec& q) {
  arma::mat D = -2.0 * (X.t() * X.cols(q));
  D.each_col() += norms.t();
  D.each_row() += norms.cols(q);
  return arma::clamp(D, 0.0, arma::datum::inf);
}

}  // namespace

QualityResult quality_scores(const arma::mat& high, const arma::mat& low,
                             const QualityRequest& req) {
  const arma::uword n = high.n_cols;
  if (low.n_cols != n)
    throw Error("quality measures: the input holds " + std::to_string(n) +
                " points but the embedding " + std::to_string(low.n_cols));
  if (n < 4) throw Error("quality measures need at least 4 points, got " + std::to_string(n));
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw Error("quality measures: more than 2^32 points");
  bool per_k = false, ranks = false, want_curve = false, shepard = false, stress = false;
  for (const auto& m : req.measures) {
    const QualityMeasureInfo* info = find_quality_measure(m);
    if (!info) throw Error("unknown quality measure '" + m + "'");
    per_k = per_k || info->per_k;
    ranks = ranks || info->per_k || m == "rnx_auc";
    want_curve = want_curve || m == "rnx" || m == "rnx_auc";
    shepard = shepard || m == "shepard_spearman";
    stress = stress || m == "stress";
    if (info->labels && (!req.labels || req.labels->n_elem != n))
      throw Error("quality measure '" + m + "' needs the class labels of the " + std::to_string(n) +
                  " scored points (fix: drop it from evaluation.quality)");
  }
  const bool pass = ranks || shepard || stress;  // the co-ranking pass is needed
  const std::vector<int> ks = per_k ? req.ks : std::vector<int>{};
  for (std::size_t a = 0; a < ks.size(); ++a)
    if (ks[a] < 1 || 2 * arma::uword(ks[a]) >= n || (a > 0 && ks[a] <= ks[a - 1]))
      throw Error("quality measures: K = " + std::to_string(ks[a]) + " must be ascending in 1.." +
                  std::to_string((n - 1) / 2) + " (below N/2) for " + std::to_string(n) +
                  " points (fix: lower evaluation.quality_k)");
  const arma::uword L = ks.size();
  const arma::uword kmax = L ? arma::uword(ks.back()) : 0;

  // Query points: all, or a seeded sample (ascending, for locality).
  const bool sampled = req.sample > 0 && n > req.sample;
  arma::uvec queries;
  if (sampled) {
    Rng rng(hash_seed(req.seed, "quality queries"));
    queries = arma::sort(rng.permutation(n).head(req.sample));
  } else {
    queries = arma::regspace<arma::uvec>(0, n - 1);
  }
  const arma::uword m = queries.n_elem;

  const std::vector<int> curve_k = want_curve ? rnx_curve_ks(n) : std::vector<int>{};
  const arma::uword G = curve_k.size();
  // Row layout of the per-query matrix.
  const arma::uword r_auc = Rows::kPerK * L, r_snum = r_auc + 1, r_sden = r_auc + 2,
                    r_curve = r_auc + 3, rows = r_curve + G;
  arma::mat V(rows, m, arma::fill::zeros);

  // Shepard pairs: each unordered pair once when exact, (query, any other) when sampled; kept
  // with probability keep by a hash of the pair, so the set does not depend on the threads.
  const double total_pairs = sampled ? double(m) * double(n - 1) : 0.5 * double(n) * double(n - 1);
  const double keep = std::min(1.0, double(kShepardPairs) / total_pairs);
  const std::uint64_t keep_below =
      keep >= 1.0 ? ~std::uint64_t(0) : static_cast<std::uint64_t>(keep * 18446744073709551615.0);
  const std::uint64_t pair_seed = hash_seed(req.seed, "quality shepard pairs");

  // Squared norms once, not per block (sq_distances would recompute all n per block).
  const arma::rowvec norm_high = arma::sum(arma::square(high), 0);
  const arma::rowvec norm_low = arma::sum(arma::square(low), 0);
  const unsigned threads = std::max(1u, req.threads);
  const arma::uword block = std::clamp<arma::uword>((arma::uword(1) << 21) / n, 1, 1024);
  std::vector<std::vector<double>> pair_high(threads), pair_low(threads);
  std::vector<std::size_t> pairs_of(m, 0);  // Shepard pairs kept per query
  if (pass)
    parallel_blocks(m, threads, [&](std::size_t s, std::size_t e, std::size_t b) {
      RadixSorter sh, sl;
      std::vector<std::uint32_t> rank_h(n), rank_l(n), count(n);
      auto& ph = pair_high[b];
      auto& pl = pair_low[b];
      for (arma::uword bs = s; bs < e; bs += block) {
        const arma::uword be = std::min<arma::uword>(e, bs + block);
        const arma::uvec q = queries.subvec(bs, be - 1);
        const arma::mat Dh = block_sq_distances(high, norm_high, q);  // n x b
        const arma::mat Dl = block_sq_distances(low, norm_low, q);
        for (arma::uword p = bs; p < be; ++p) {
          const arma::uword i = queries(p);
          const double* dh = Dh.colptr(p - bs);
          const double* dl = Dl.colptr(p - bs);
          double* v = V.colptr(p);
          if (stress) {
            double num = 0, den = 0;
            for (arma::uword j = 0; j < n; ++j) {
              const double a = std::sqrt(dh[j]), c = std::sqrt(dl[j]);
              num += (a - c) * (a - c);
              den += dh[j];
            }
            v[r_snum] = num;  // the self term is 0 in both
            v[r_sden] = den;
          }
          if (shepard)
            for (arma::uword j = sampled ? 0 : i + 1; j < n; ++j) {
              if (j == i) continue;
              if (keep_below != ~std::uint64_t(0) && mix64(pair_seed ^ (i * n + j)) >= keep_below)
                continue;
              ph.push_back(std::sqrt(dh[j]));
              pl.push_back(std::sqrt(dl[j]));
              ++pairs_of[p];
            }
          if (!ranks) continue;
          sh.sort(dh, n, i);
          sl.sort(dl, n, i);
          for (arma::uword t = 0; t + 1 < n; ++t) {
            rank_h[sh.idx[t]] = std::uint32_t(t + 1);
            rank_l[sl.idx[t]] = std::uint32_t(t + 1);
          }
          // The r-th neighbour of one space, at rank `other` in the other space: a penalty (row
          // pen) at every K it is within but `other` is beyond, and its MRRE term (row mrre).
          auto neighbour_terms = [&](std::uint32_t r, std::uint32_t other, arma::uword pen,
                                     arma::uword mrre) {
            const double rel = std::abs(double(other) - double(r)) / double(other);
            for (arma::uword a = 0; a < L; ++a) {
              if (r > std::uint32_t(ks[a])) continue;
              if (other > std::uint32_t(ks[a])) v[Rows::kPerK * a + pen] += other - ks[a];
              v[Rows::kPerK * a + mrre] += rel;
            }
          };
          // Per-K terms: walk the first kmax neighbours of each space.
          for (arma::uword t = 0; t < kmax; ++t) {
            const std::uint32_t r = std::uint32_t(t + 1);
            // Low-space neighbour: intrusion if its input rank is beyond K.
            neighbour_terms(r, rank_h[sl.idx[t]], Rows::kPenT, Rows::kMrreI);
            // Input-space neighbour: extrusion if its embedding rank is beyond K.
            neighbour_terms(r, rank_l[sh.idx[t]], Rows::kPenC, Rows::kMrreE);
          }
          // Neighbourhood overlap at every K: j is in both K-neighbourhoods from K = max(ranks).
          std::fill(count.begin(), count.end(), 0u);
          for (arma::uword j = 0; j < n; ++j)
            if (j != i) ++count[std::max(rank_h[j], rank_l[j])];
          const double nm1 = double(n - 1);
          double overlap = 0, auc = 0;
          arma::uword a = 0, g = 0;
          for (arma::uword k = 1; k + 1 < n; ++k) {
            overlap += count[k];
            const double kd = double(k);
            const double rnx = (nm1 * overlap / kd - kd) / (nm1 - kd);
            auc += rnx / kd;
            if (a < L && arma::uword(ks[a]) == k) v[Rows::kPerK * a++ + Rows::kOverlap] = overlap;
            if (g < G && arma::uword(curve_k[g]) == k) v[r_curve + g++] = rnx;
          }
          v[r_auc] = auc;
        }
      }
    });

  // From per-query terms to measures: means over queries (sums in query order, so the bits do
  // not depend on the thread count), standard errors from their spread when sampled.
  const double nd = double(n), md = double(m);
  const double fpc = sampled ? std::sqrt(1.0 - md / nd) : 0.0;
  auto summarise = [&](const arma::rowvec& x, double& value, double& se) {
    value = arma::mean(x);
    se = sampled && m > 1 ? arma::stddev(x) / std::sqrt(md) * fpc : 0.0;
  };
  double harm = 0;
  for (arma::uword k = 1; k + 1 < n; ++k) harm += 1.0 / double(k);

  QualityResult out;
  out.queries = pass ? m : n;  // the global measures use every point
  for (const auto& name : req.measures) {
    const QualityMeasureInfo* info = find_quality_measure(name);
    if (info->per_k) {
      for (arma::uword a = 0; a < L; ++a) {
        const double K = ks[a];
        const arma::uword base = Rows::kPerK * a;
        arma::rowvec x;
        if (name == "trustworthiness")
          x = 1.0 - 2.0 / (K * (2 * nd - 3 * K - 1)) * V.row(base + Rows::kPenT);
        else if (name == "continuity")
          x = 1.0 - 2.0 / (K * (2 * nd - 3 * K - 1)) * V.row(base + Rows::kPenC);
        else if (name == "qnx")
          x = V.row(base + Rows::kOverlap) / K;
        else if (name == "rnx")
          x = ((nd - 1) * V.row(base + Rows::kOverlap) / K - K) / (nd - 1 - K);
        else if (name == "lcmc")
          x = V.row(base + Rows::kOverlap) / K - K / (nd - 1);
        else if (name == "mrre_intrusion")
          x = V.row(base + Rows::kMrreI) / harmonic_norm(n, ks[a]);
        else
          x = V.row(base + Rows::kMrreE) / harmonic_norm(n, ks[a]);
        QualityColumn c{name, ks[a], 0, 0};
        summarise(x, c.value, c.se);
        out.columns.push_back(c);
      }
    } else if (name == "rnx_auc") {
      QualityColumn c{name, 0, 0, 0};
      summarise(V.row(r_auc) / harm, c.value, c.se);
      out.columns.push_back(c);
    } else if (name == "stress") {
      QualityColumn c{name, 0, 0, 0};
      const arma::rowvec num = V.row(r_snum), den = V.row(r_sden);
      const double sn = arma::accu(num), sd = arma::accu(den);
      c.value = sd > 0 ? sn / sd : arma::datum::nan;
      if (sampled && m > 1 && sd > 0) {  // ratio estimator: linearised per-query residuals
        const arma::rowvec res = num - c.value * den;
        c.se = std::sqrt(arma::accu(arma::square(res)) / (md * (md - 1))) / (sd / md) * fpc;
      }
      out.columns.push_back(c);
    } else if (name == "random_triplet") {
      // Every point an anchor of kRandomTriplets triplets, as the PaCMAP paper's protocol; the
      // standard error is the spread of the per-anchor shares (the triplets are a sample).
      constexpr arma::uword kRandomTriplets = 5;
      const arma::umat t = sample_random_triplets(n, kRandomTriplets,
                                                  hash_seed(req.seed, "quality random triplets"));
      arma::vec per_anchor;
      QualityColumn c{name, 0, 0, 0};
      c.value = random_triplet_accuracy(high, low, t, &per_anchor);
      c.se = arma::stddev(per_anchor) / std::sqrt(double(per_anchor.n_elem));
      out.columns.push_back(c);
    } else if (name == "centroid_triplet") {
      out.columns.push_back({name, 0, centroid_triplet_accuracy(high, low, *req.labels), 0});
    } else if (name == "global_score") {
      out.columns.push_back({name, 0, global_score(high, low), 0});
    } else {  // shepard_spearman
      std::vector<double> a, b;
      for (unsigned t = 0; t < threads; ++t) {
        a.insert(a.end(), pair_high[t].begin(), pair_high[t].end());
        b.insert(b.end(), pair_low[t].begin(), pair_low[t].end());
      }
      // Jackknife groups: kJackknifeGroups blocks of consecutive queries (the pairs are stored
      // in query order).
      constexpr arma::uword kJackknifeGroups = 32;
      std::vector<std::size_t> group_end;
      std::size_t end = 0;
      for (arma::uword g = 0, p = 0; g < kJackknifeGroups; ++g) {
        const arma::uword stop = m * (g + 1) / kJackknifeGroups;
        for (; p < stop; ++p) end += pairs_of[p];
        group_end.push_back(end);
      }
      QualityColumn c{name, 0, 0, 0};
      const bool estimate = sampled || keep < 1.0;
      c.value =
          a.size() >= 2 ? spearman(a, b, group_end, estimate ? &c.se : nullptr) : arma::datum::nan;
      out.shepard_pairs = a.size();
      out.columns.push_back(c);
    }
  }
  out.curve_k = curve_k;
  for (arma::uword g = 0; g < G; ++g) out.curve.push_back(arma::mean(V.row(r_curve + g)));
  return out;
}

}  // namespace drbench
