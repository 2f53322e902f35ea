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

namespace {

// What a request needs of the co-ranking pass, checked against the data.
struct Needs {
  bool per_k = false, ranks = false, curve = false, shepard = false, stress = false;
  bool pass() const { return ranks || shepard || stress; }
};

Needs needs_of(const QualityRequest& req, arma::uword n) {
  Needs w;
  for (const auto& m : req.measures) {
    const QualityMeasureInfo* info = find_quality_measure(m);
    if (!info) throw Error("unknown quality measure '" + m + "'");
    w.per_k = w.per_k || info->per_k;
    w.ranks = w.ranks || info->per_k || m == "rnx_auc";
    w.curve = w.curve || m == "rnx" || m == "rnx_auc";
    w.shepard = w.shepard || m == "shepard_spearman";
    w.stress = w.stress || m == "stress";
    if (info->labels && (!req.labels || req.labels->n_elem != n))
      throw Error("quality measure '" + m + "' needs the class labels of the " + std::to_string(n) +
                  " scored points (fix: drop it from evaluation.quality)");
  }
  return w;
}

void check_ks(const std::vector<int>& ks, arma::uword n) {
  for (std::size_t a = 0; a < ks.size(); ++a)
    if (ks[a] < 1 || 2 * arma::uword(ks[a]) >= n || (a > 0 && ks[a] <= ks[a - 1]))
      throw Error("quality measures: K = " + std::to_string(ks[a]) + " must be ascending in 1.." +
                  std::to_string((n - 1) / 2) + " (below N/2) for " + std::to_string(n) +
                  " points (fix: lower evaluation.quality_k)");
}

// One co-ranking pass over the query points: per-query terms in V (row layout below) and the
// Shepard pairs each thread kept, in query order.
class CorankingPass {
 public:
  CorankingPass(const arma::mat& high, const arma::mat& low, const QualityRequest& req,
                const Needs& needs, std::vector<int> ks, std::vector<int> curve_k)
      : high_(high),
        low_(low),
        needs_(needs),
        ks_(std::move(ks)),
        curve_k_(std::move(curve_k)),
        n_(high.n_cols),
        L_(ks_.size()),
        kmax_(L_ ? arma::uword(ks_.back()) : 0),
        G_(curve_k_.size()) {
    // Query points: all, or a seeded sample (ascending, for locality).
    sampled_ = req.sample > 0 && n_ > req.sample;
    if (sampled_) {
      Rng rng(hash_seed(req.seed, "quality queries"));
      queries_ = arma::sort(rng.permutation(n_).head(req.sample));
    } else {
      queries_ = arma::regspace<arma::uvec>(0, n_ - 1);
    }
    m_ = queries_.n_elem;
    r_auc = Rows::kPerK * L_, r_snum = r_auc + 1, r_sden = r_auc + 2, r_curve = r_auc + 3;
    V.zeros(r_curve + G_, m_);
    // Shepard pairs: each unordered pair once when exact, (query, any other) when sampled; kept
    // with probability keep by a hash of the pair, so the set does not depend on the threads.
    const double total_pairs =
        sampled_ ? double(m_) * double(n_ - 1) : 0.5 * double(n_) * double(n_ - 1);
    keep = std::min(1.0, double(kShepardPairs) / total_pairs);
    keep_below_ =
        keep >= 1.0 ? ~std::uint64_t(0) : static_cast<std::uint64_t>(keep * 18446744073709551615.0);
    pair_seed_ = hash_seed(req.seed, "quality shepard pairs");
    threads = std::max(1u, req.threads);
    pair_high.resize(threads);
    pair_low.resize(threads);
    pairs_of.assign(m_, 0);
  }

  void run() {
    // Squared norms once, not per block (sq_distances would recompute all n per block).
    norm_high_ = arma::sum(arma::square(high_), 0);
    norm_low_ = arma::sum(arma::square(low_), 0);
    const arma::uword block = std::clamp<arma::uword>((arma::uword(1) << 21) / n_, 1, 1024);
    parallel_blocks(m_, threads, [&](std::size_t s, std::size_t e, std::size_t b) {
      Scratch w{{},
                {},
                std::vector<std::uint32_t>(n_),
                std::vector<std::uint32_t>(n_),
                std::vector<std::uint32_t>(n_)};
      for (arma::uword bs = s; bs < e; bs += block) {
        const arma::uword be = std::min<arma::uword>(e, bs + block);
        const arma::uvec q = queries_.subvec(bs, be - 1);
        const arma::mat Dh = block_sq_distances(high_, norm_high_, q);  // n x b
        const arma::mat Dl = block_sq_distances(low_, norm_low_, q);
        for (arma::uword p = bs; p < be; ++p)
          query(p, Dh.colptr(p - bs), Dl.colptr(p - bs), w, pair_high[b], pair_low[b]);
      }
    });
  }

  bool sampled() const { return sampled_; }
  arma::uword queries() const { return m_; }

  arma::mat V;
  arma::uword r_auc = 0, r_snum = 0, r_sden = 0, r_curve = 0;
  double keep = 1.0;
  unsigned threads = 1;
  std::vector<std::vector<double>> pair_high, pair_low;
  std::vector<std::size_t> pairs_of;  // Shepard pairs kept per query

 private:
  struct Scratch {
    RadixSorter sh, sl;
    std::vector<std::uint32_t> rank_h, rank_l, count;
  };

  // Query p (point queries_(p)) with its squared distances to every point in both spaces.
  void query(arma::uword p, const double* dh, const double* dl, Scratch& w, std::vector<double>& ph,
             std::vector<double>& pl) {
    const arma::uword n = n_, i = queries_(p);
    double* v = V.colptr(p);
    if (needs_.stress) {
      double num = 0, den = 0;
      for (arma::uword j = 0; j < n; ++j) {
        const double a = std::sqrt(dh[j]), c = std::sqrt(dl[j]);
        num += (a - c) * (a - c);
        den += dh[j];
      }
      v[r_snum] = num;  // the self term is 0 in both
      v[r_sden] = den;
    }
    if (needs_.shepard)
      for (arma::uword j = sampled_ ? 0 : i + 1; j < n; ++j) {
        if (j == i) continue;
        if (keep_below_ != ~std::uint64_t(0) && mix64(pair_seed_ ^ (i * n + j)) >= keep_below_)
          continue;
        ph.push_back(std::sqrt(dh[j]));
        pl.push_back(std::sqrt(dl[j]));
        ++pairs_of[p];
      }
    if (needs_.ranks) rank_terms(i, dh, dl, v, w);
  }

  void rank_terms(arma::uword i, const double* dh, const double* dl, double* v, Scratch& w) {
    const arma::uword n = n_;
    w.sh.sort(dh, n, i);
    w.sl.sort(dl, n, i);
    for (arma::uword t = 0; t + 1 < n; ++t) {
      w.rank_h[w.sh.idx[t]] = std::uint32_t(t + 1);
      w.rank_l[w.sl.idx[t]] = std::uint32_t(t + 1);
    }
    // The r-th neighbour of one space, at rank `other` in the other space: a penalty (row pen)
    // at every K it is within but `other` is beyond, and its MRRE term (row mrre).
    auto neighbour_terms = [&](std::uint32_t r, std::uint32_t other, arma::uword pen,
                               arma::uword mrre) {
      const double rel = std::abs(double(other) - double(r)) / double(other);
      for (arma::uword a = 0; a < L_; ++a) {
        if (r > std::uint32_t(ks_[a])) continue;
        if (other > std::uint32_t(ks_[a])) v[Rows::kPerK * a + pen] += other - ks_[a];
        v[Rows::kPerK * a + mrre] += rel;
      }
    };
    // Per-K terms: walk the first kmax neighbours of each space.
    for (arma::uword t = 0; t < kmax_; ++t) {
      const std::uint32_t r = std::uint32_t(t + 1);
      // Low-space neighbour: intrusion if its input rank is beyond K.
      neighbour_terms(r, w.rank_h[w.sl.idx[t]], Rows::kPenT, Rows::kMrreI);
      // Input-space neighbour: extrusion if its embedding rank is beyond K.
      neighbour_terms(r, w.rank_l[w.sh.idx[t]], Rows::kPenC, Rows::kMrreE);
    }
    // Neighbourhood overlap at every K: j is in both K-neighbourhoods from K = max(ranks).
    std::fill(w.count.begin(), w.count.end(), 0u);
    for (arma::uword j = 0; j < n; ++j)
      if (j != i) ++w.count[std::max(w.rank_h[j], w.rank_l[j])];
    const double nm1 = double(n - 1);
    double overlap = 0, auc = 0;
    arma::uword a = 0, g = 0;
    for (arma::uword k = 1; k + 1 < n; ++k) {
      overlap += w.count[k];
      const double kd = double(k);
      const double rnx = (nm1 * overlap / kd - kd) / (nm1 - kd);
      auc += rnx / kd;
      if (a < L_ && arma::uword(ks_[a]) == k) v[Rows::kPerK * a++ + Rows::kOverlap] = overlap;
      if (g < G_ && arma::uword(curve_k_[g]) == k) v[r_curve + g++] = rnx;
    }
    v[r_auc] = auc;
  }

  const arma::mat& high_;
  const arma::mat& low_;
  Needs needs_;
  std::vector<int> ks_, curve_k_;
  arma::uword n_, L_, kmax_, G_, m_ = 0;
  bool sampled_ = false;
  arma::uvec queries_;
  std::uint64_t keep_below_ = 0, pair_seed_ = 0;
  arma::rowvec norm_high_, norm_low_;
};

// A per-K measure's per-query values from the pass's rows at K = ks[a].
arma::rowvec per_k_values(const std::string& name, const arma::mat& V, arma::uword a, int k,
                          arma::uword n) {
  const double K = k, nd = double(n);
  const arma::uword base = Rows::kPerK * a;
  if (name == "trustworthiness")
    return 1.0 - 2.0 / (K * (2 * nd - 3 * K - 1)) * V.row(base + Rows::kPenT);
  if (name == "continuity")
    return 1.0 - 2.0 / (K * (2 * nd - 3 * K - 1)) * V.row(base + Rows::kPenC);
  if (name == "qnx") return V.row(base + Rows::kOverlap) / K;
  if (name == "rnx") return ((nd - 1) * V.row(base + Rows::kOverlap) / K - K) / (nd - 1 - K);
  if (name == "lcmc") return V.row(base + Rows::kOverlap) / K - K / (nd - 1);
  if (name == "mrre_intrusion") return V.row(base + Rows::kMrreI) / harmonic_norm(n, k);
  if (name == "mrre_extrusion") return V.row(base + Rows::kMrreE) / harmonic_norm(n, k);
  throw Error("quality measure '" + name + "' is per K but has no per-K formula");
}

// Spearman correlation of the kept Shepard pairs, with its jackknife standard error over
// kJackknifeGroups blocks of consecutive queries (the pairs are stored in query order) when the
// pairs are a sample.
QualityColumn shepard_column(const CorankingPass& pass, std::uint64_t& pairs_used) {
  std::vector<double> a, b;
  for (unsigned t = 0; t < pass.threads; ++t) {
    a.insert(a.end(), pass.pair_high[t].begin(), pass.pair_high[t].end());
    b.insert(b.end(), pass.pair_low[t].begin(), pass.pair_low[t].end());
  }
  constexpr arma::uword kJackknifeGroups = 32;
  const arma::uword m = pass.queries();
  std::vector<std::size_t> group_end;
  std::size_t end = 0;
  for (arma::uword g = 0, p = 0; g < kJackknifeGroups; ++g) {
    const arma::uword stop = m * (g + 1) / kJackknifeGroups;
    for (; p < stop; ++p) end += pass.pairs_of[p];
    group_end.push_back(end);
  }
  QualityColumn c{"shepard_spearman", 0, 0, 0};
  const bool estimate = pass.sampled() || pass.keep < 1.0;
  c.value =
      a.size() >= 2 ? spearman(a, b, group_end, estimate ? &c.se : nullptr) : arma::datum::nan;
  pairs_used = a.size();
  return c;
}

// Normalised stress as a ratio estimator: linearised per-query residuals when sampled.
QualityColumn stress_column(const CorankingPass& pass, double fpc) {
  QualityColumn c{"stress", 0, 0, 0};
  const arma::rowvec num = pass.V.row(pass.r_snum), den = pass.V.row(pass.r_sden);
  const double sn = arma::accu(num), sd = arma::accu(den), md = double(pass.queries());
  c.value = sd > 0 ? sn / sd : arma::datum::nan;
  if (pass.sampled() && pass.queries() > 1 && sd > 0) {
    const arma::rowvec res = num - c.value * den;
    c.se = std::sqrt(arma::accu(arma::square(res)) / (md * (md - 1))) / (sd / md) * fpc;
  }
  return c;
}

// The measures that need no co-ranking pass (the PaCMAP and TriMap papers' global ones).
QualityColumn global_column(const std::string& name, const arma::mat& high, const arma::mat& low,
                            const QualityRequest& req) {
  if (name == "random_triplet") {
    // Every point an anchor of kRandomTriplets triplets, as the PaCMAP paper's protocol; the
    // standard error is the spread of the per-anchor shares (the triplets are a sample).
    constexpr arma::uword kRandomTriplets = 5;
    const arma::umat t = sample_random_triplets(high.n_cols, kRandomTriplets,
                                                hash_seed(req.seed, "quality random triplets"));
    arma::vec per_anchor;
    QualityColumn c{name, 0, 0, 0};
    c.value = random_triplet_accuracy(high, low, t, &per_anchor);
    c.se = arma::stddev(per_anchor) / std::sqrt(double(per_anchor.n_elem));
    return c;
  }
  if (name == "centroid_triplet")
    return {name, 0, centroid_triplet_accuracy(high, low, *req.labels), 0};
  if (name == "global_score") return {name, 0, global_score(high, low), 0};
  throw Error("quality measure '" + name + "' has no formula");
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
  const Needs needs = needs_of(req, n);
  const std::vector<int> ks = needs.per_k ? req.ks : std::vector<int>{};
  check_ks(ks, n);
  const std::vector<int> curve_k = needs.curve ? rnx_curve_ks(n) : std::vector<int>{};
  CorankingPass pass(high, low, req, needs, ks, curve_k);
  if (needs.pass()) pass.run();

  // From per-query terms to measures: means over queries (sums in query order, so the bits do
  // not depend on the thread count), standard errors from their spread when sampled.
  const double md = double(pass.queries());
  const double fpc = pass.sampled() ? std::sqrt(1.0 - md / double(n)) : 0.0;
  auto summarise = [&](QualityColumn c, const arma::rowvec& x) {
    c.value = arma::mean(x);
    c.se = pass.sampled() && pass.queries() > 1 ? arma::stddev(x) / std::sqrt(md) * fpc : 0.0;
    return c;
  };
  double harm = 0;
  for (arma::uword k = 1; k + 1 < n; ++k) harm += 1.0 / double(k);

  QualityResult out;
  out.queries = needs.pass() ? pass.queries() : n;  // the global measures use every point
  for (const auto& name : req.measures) {
    if (find_quality_measure(name)->per_k) {
      for (arma::uword a = 0; a < ks.size(); ++a)
        out.columns.push_back(
            summarise({name, ks[a], 0, 0}, per_k_values(name, pass.V, a, ks[a], n)));
    } else if (name == "rnx_auc") {
      out.columns.push_back(summarise({name, 0, 0, 0}, pass.V.row(pass.r_auc) / harm));
    } else if (name == "stress") {
      out.columns.push_back(stress_column(pass, fpc));
    } else if (name == "shepard_spearman") {
      out.columns.push_back(shepard_column(pass, out.shepard_pairs));
    } else {
      out.columns.push_back(global_column(name, high, low, req));
    }
  }
  out.curve_k = curve_k;
  for (arma::uword g = 0; g < curve_k.size(); ++g)
    out.curve.push_back(arma::mean(pass.V.row(pass.r_curve + g)));
  return out;
}

}  // namespace drbench
