#include "framework/neighbours/neighbour_graph.hpp"

#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/neighbours/knn_search.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

GraphKind parse_graph_kind(const std::string& s) {
  if (s == "exact") return GraphKind::exact;
  if (s == "approximate") return GraphKind::approximate;
  if (s == "auto") return GraphKind::automatic;
  throw Error("neighbour_graph: '" + s + "' is not one of exact, approximate, auto");
}

std::string to_string(GraphKind k) {
  switch (k) {
    case GraphKind::exact:
      return "exact";
    case GraphKind::approximate:
      return "approximate";
    case GraphKind::automatic:
      break;
  }
  return "auto";
}

bool use_approximate(arma::uword n, arma::uword d, arma::uword k, GraphKind kind) {
  if (kind != GraphKind::automatic) return kind == GraphKind::approximate;
  // The k-d tree answers low-dimensional data in O(n log n); above its dimension limit the exact
  // search is quadratic but runs at BLAS speed. Measured on Fashion-MNIST at 50-D, one thread:
  // HNSW's build took 5x the exact search at 20,000 points and 3x at 60,000 (69 s against 22 s),
  // and the ratio falls about as log(n)/n, so the exact search stays faster to about 200,000.
  return n >= 200000 && d > kKdTreeMaxDim && k < n / 4;
}

namespace {

using HnswIndex = hnswlib::HierarchicalNSW<float>;
using hnswlib::tableint;
using HnswQueue =
    std::priority_queue<std::pair<float, tableint>, std::vector<std::pair<float, tableint>>,
                        HnswIndex::CompareByFirst>;

// Batches of the build: one point while the index is small, then 1/64 of the points already in,
// at most 4,096. Fixed by n alone.
constexpr std::size_t kBatchDivisor = 64, kMaxBatch = 4096;

// Where point q (of level `level`) joins the index as it stands: hnswlib's addPoint without the
// writes. Greedy descent above its level, then at each of its levels the ef_construction nearest
// found from the previous level's closest, cut to M by hnswlib's heuristic (out[l]).
void hnsw_select(HnswIndex& h, const float* q, int level, int maxlevel, tableint ep,
                 std::vector<std::vector<tableint>>& out) {
  tableint cur = ep;
  float curdist = h.fstdistfunc_(q, h.getDataByInternalId(cur), h.dist_func_param_);
  for (int l = maxlevel; l > level; --l)
    for (bool changed = true; changed;) {
      changed = false;
      unsigned* data = h.get_linklist(cur, l);
      const int size = h.getListCount(data);
      const auto* list = reinterpret_cast<const tableint*>(data + 1);
      for (int i = 0; i < size; ++i) {
        const float d = h.fstdistfunc_(q, h.getDataByInternalId(list[i]), h.dist_func_param_);
        if (d < curdist) {
          curdist = d;
          cur = list[i];
          changed = true;
        }
      }
    }
  out.assign(std::size_t(std::min(level, maxlevel)) + 1, {});
  for (int l = std::min(level, maxlevel); l >= 0; --l) {
    HnswQueue top = h.searchBaseLayer(cur, q, l);
    h.getNeighborsByHeuristic2(top, h.M_);
    auto& sel = out[std::size_t(l)];
    while (!top.empty()) {
      sel.push_back(top.top().second);
      top.pop();
    }
    cur = sel.back();  // the closest, as mutuallyConnectNewElement returns it
  }
}

// The link from `from` into `to`'s list at level l, as mutuallyConnectNewElement adds it: appended
// while the list has room, else the list and `from` cut back by the heuristic.
void hnsw_link_back(HnswIndex& h, tableint to, tableint from, int l) {
  const std::size_t cap = l ? h.maxM_ : h.maxM0_;
  unsigned* ll = l == 0 ? h.get_linklist0(to) : h.get_linklist(to, l);
  const std::size_t size = h.getListCount(ll);
  auto* data = reinterpret_cast<tableint*>(ll + 1);
  if (size < cap) {
    data[size] = from;
    h.setListCount(ll, static_cast<unsigned short>(size + 1));
    return;
  }
  const char* y = h.getDataByInternalId(to);
  HnswQueue cand;
  cand.emplace(h.fstdistfunc_(h.getDataByInternalId(from), y, h.dist_func_param_), from);
  for (std::size_t j = 0; j < size; ++j)
    cand.emplace(h.fstdistfunc_(h.getDataByInternalId(data[j]), y, h.dist_func_param_), data[j]);
  h.getNeighborsByHeuristic2(cand, cap);
  unsigned short t = 0;
  for (; !cand.empty(); cand.pop()) data[t++] = cand.top().second;
  h.setListCount(ll, t);
}

// Writes the batch's points into the index (data, label, level, their own lists), then links
// their neighbours back to them. A neighbour's list only changes by the links into it, taken in
// point order, so neighbours run in parallel with the result of hnswlib's one-by-one addPoint
// given the same selections.
void hnsw_insert(HnswIndex& h, const float* F, std::size_t begin, std::size_t end,
                 const std::vector<int>& levels,
                 const std::vector<std::vector<std::vector<tableint>>>& sel, unsigned threads) {
  std::vector<std::tuple<tableint, int, tableint>> back;  // (neighbour, level, new point)
  for (std::size_t p = begin; p < end; ++p) {
    const auto c = static_cast<tableint>(p);
    const int level = levels[p];
    h.element_levels_[c] = level;
    std::memset(h.data_level0_memory_ + c * h.size_data_per_element_ + h.offsetLevel0_, 0,
                h.size_data_per_element_);
    const hnswlib::labeltype label = p;
    std::memcpy(h.getExternalLabeLp(c), &label, sizeof(label));
    std::memcpy(h.getDataByInternalId(c), F + p * (h.data_size_ / sizeof(float)), h.data_size_);
    if (level > 0) {
      h.linkLists_[c] = static_cast<char*>(std::calloc(h.size_links_per_element_ * level + 1, 1));
      if (!h.linkLists_[c]) throw MethodError("neighbour graph: out of memory building HNSW");
    }
    h.label_lookup_[label] = c;
    ++h.cur_element_count;
    const auto& mine = sel[p - begin];
    for (std::size_t l = 0; l < mine.size(); ++l) {
      unsigned* ll = l == 0 ? h.get_linklist0(c) : h.get_linklist(c, int(l));
      auto* data = reinterpret_cast<tableint*>(ll + 1);
      for (std::size_t t = 0; t < mine[l].size(); ++t) {
        data[t] = mine[l][t];
        back.emplace_back(mine[l][t], int(l), c);
      }
      h.setListCount(ll, static_cast<unsigned short>(mine[l].size()));
    }
  }
  std::stable_sort(back.begin(), back.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  // Runs of one (neighbour, level), cut into thread blocks at run boundaries.
  std::vector<std::size_t> runs;
  for (std::size_t r = 0; r < back.size(); ++r)
    if (r == 0 || std::get<0>(back[r]) != std::get<0>(back[r - 1]) ||
        std::get<1>(back[r]) != std::get<1>(back[r - 1]))
      runs.push_back(r);
  runs.push_back(back.size());
  parallel_blocks(runs.size() - 1, threads, [&](std::size_t s, std::size_t e, std::size_t) {
    for (std::size_t r = runs[s]; r < runs[e]; ++r)
      hnsw_link_back(h, std::get<0>(back[r]), std::get<2>(back[r]), std::get<1>(back[r]));
  });
  // The first point (maxlevel_ starts at -1) and every point above the top level become the entry.
  for (std::size_t p = begin; p < end; ++p)
    if (levels[p] > h.maxlevel_) {
      h.enterpoint_node_ = static_cast<tableint>(p);
      h.maxlevel_ = levels[p];
    }
}

}  // namespace

struct NeighbourIndex::Hnsw {
  hnswlib::L2Space space;
  HnswIndex index;
  // hnswlib's insertion in batches (one point at first, then 1/64 of those already in, at most
  // 4,096): each point of a batch finds its neighbours in the index as it
  // was before the batch (in parallel, reading only), then the batch is written in point order.
  // Levels are drawn in index order from the seeded generator as addPoint draws them. The batches
  // depend on n alone, so the graph depends on the data and the seed, not on the thread count.
  Hnsw(const arma::mat& X, const GraphOptions& o)
      : space(X.n_rows),
        index(&space, X.n_cols, o.hnsw_m, o.ef_construction,
              static_cast<std::size_t>(o.seed % std::numeric_limits<std::size_t>::max())) {
    const std::size_t n = X.n_cols;
    const arma::fmat F = arma::conv_to<arma::fmat>::from(X);
    std::vector<int> levels(n);
    for (auto& l : levels) l = index.getRandomLevel(index.mult_);
    std::vector<std::vector<std::vector<tableint>>> sel;
    for (std::size_t begin = 0; begin < n;) {
      const std::size_t end =
          std::min(n, begin + std::clamp<std::size_t>(begin / kBatchDivisor, 1, kMaxBatch));
      sel.assign(end - begin, {});
      if (begin > 0) {
        const int maxlevel = index.maxlevel_;
        const tableint ep = index.enterpoint_node_;
        parallel_for(end - begin, o.threads, [&](std::size_t t) {
          hnsw_select(index, F.colptr(begin + t), levels[begin + t], maxlevel, ep, sel[t]);
        });
      }
      hnsw_insert(index, F.memptr(), begin, end, levels, sel, o.threads);
      begin = end;
    }
  }
};

NeighbourIndex::NeighbourIndex(const arma::mat& ref, arma::uword k_hint, const GraphOptions& opt)
    : ref_(&ref), opt_(opt) {
  if (use_approximate(ref.n_cols, ref.n_rows, k_hint, opt.kind)) {
    if (!ref.is_finite()) throw MethodError("neighbour graph: the data contain NaN or Inf");
    hnsw_ = std::make_unique<Hnsw>(ref, opt);
  }
}

NeighbourIndex::~NeighbourIndex() = default;
NeighbourIndex::NeighbourIndex(NeighbourIndex&&) noexcept = default;
NeighbourIndex& NeighbourIndex::operator=(NeighbourIndex&&) noexcept = default;

namespace {

double sq_dist(const double* a, const double* b, arma::uword d) {
  double s = 0;
  for (arma::uword r = 0; r < d; ++r) s += (a[r] - b[r]) * (a[r] - b[r]);
  return s;
}

// Orders candidate indices by exact distance to q, ties to the lower index, dropping `self`
// (n_cols when none), and writes the first k into column `col` of g.
void rank_into(const arma::mat& ref, const double* q, std::vector<arma::uword>& cand,
               arma::uword self, arma::uword k, arma::uword col, NeighbourGraph& g) {
  std::vector<std::pair<double, arma::uword>> c;
  c.reserve(cand.size());
  for (arma::uword j : cand)
    if (j != self) c.emplace_back(sq_dist(ref.colptr(j), q, ref.n_rows), j);
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  if (c.size() < k)
    throw MethodError("neighbour graph: the approximate search found " + std::to_string(c.size()) +
                      " of " + std::to_string(k) +
                      " neighbours for a point (fix: neighbour_graph: exact)");
  for (arma::uword j = 0; j < k; ++j) {
    g.index(j, col) = c[j].second;
    g.dist(j, col) = std::sqrt(c[j].first);
  }
}

void check_k(arma::uword k, arma::uword avail, arma::uword n, const char* what) {
  if (k == 0 || k > avail)
    throw MethodError("neighbour graph: " + std::to_string(k) + " neighbours " + what +
                      " need 1.." + std::to_string(avail) + " of " + std::to_string(n) +
                      " points (fix: lower neighbours)");
}

}  // namespace

NeighbourGraph NeighbourIndex::self_graph(arma::uword k) const {
  const arma::mat& X = *ref_;
  const arma::uword n = X.n_cols;
  check_k(k, n > 0 ? n - 1 : 0, n, "of each point");
  NeighbourGraph g;
  g.index.set_size(k, n);
  g.dist.set_size(k, n);
  g.approximate = approximate();
  if (hnsw_) {
    hnsw_->index.setEf(std::max<std::size_t>(opt_.ef_search, k + 1));
    parallel_blocks(n, opt_.threads, [&](std::size_t s, std::size_t e, std::size_t) {
      std::vector<float> q(X.n_rows);
      std::vector<arma::uword> cand;
      for (std::size_t i = s; i < e; ++i) {
        for (arma::uword r = 0; r < X.n_rows; ++r) q[r] = static_cast<float>(X(r, i));
        auto heap = hnsw_->index.searchKnn(q.data(), k + 1);
        cand.clear();
        while (!heap.empty()) {
          cand.push_back(heap.top().second);
          heap.pop();
        }
        rank_into(X, X.colptr(i), cand, i, k, i, g);
      }
    });
    return g;
  }
  // Exact: the k + 1 nearest including the point itself, ranked by (distance, index), then the
  // point removed; if k + 1 duplicates of lower index crowd it out, the last is dropped instead.
  // Blocks of queries run on separate threads and the result does not depend on how many.
  const arma::uword kq = std::min(k + 1, n);
  parallel_blocks(n, opt_.threads, [&](std::size_t s, std::size_t e, std::size_t) {
    if (s == e) return;
    const arma::umat nn = knn_indices(X, X.cols(s, e - 1), kq);
    for (std::size_t i = s; i < e; ++i) {
      arma::uword w = 0;
      for (arma::uword j = 0; j < kq && w < k; ++j) {
        const arma::uword nb = nn(j, i - s);
        if (nb == i) continue;
        g.index(w, i) = nb;
        g.dist(w, i) = std::sqrt(sq_dist(X.colptr(nb), X.colptr(i), X.n_rows));
        ++w;
      }
    }
  });
  return g;
}

NeighbourGraph NeighbourIndex::query(const arma::mat& Q, arma::uword k) const {
  const arma::mat& X = *ref_;
  if (Q.n_rows != X.n_rows)
    throw MethodError("neighbour graph: new points have " + std::to_string(Q.n_rows) +
                      " features, the reference points " + std::to_string(X.n_rows));
  check_k(k, X.n_cols, X.n_cols, "of a new point");
  NeighbourGraph g;
  g.index.set_size(k, Q.n_cols);
  g.dist.set_size(k, Q.n_cols);
  g.approximate = approximate();
  if (hnsw_) {
    hnsw_->index.setEf(std::max<std::size_t>(opt_.ef_search, k));
    parallel_blocks(Q.n_cols, opt_.threads, [&](std::size_t s, std::size_t e, std::size_t) {
      std::vector<float> q(Q.n_rows);
      std::vector<arma::uword> cand;
      for (std::size_t i = s; i < e; ++i) {
        for (arma::uword r = 0; r < Q.n_rows; ++r) q[r] = static_cast<float>(Q(r, i));
        auto heap = hnsw_->index.searchKnn(q.data(), k);
        cand.clear();
        while (!heap.empty()) {
          cand.push_back(heap.top().second);
          heap.pop();
        }
        rank_into(X, Q.colptr(i), cand, X.n_cols, k, i, g);
      }
    });
    return g;
  }
  parallel_blocks(Q.n_cols, opt_.threads, [&](std::size_t s, std::size_t e, std::size_t) {
    if (s == e) return;
    const arma::umat nn = knn_indices(X, Q.cols(s, e - 1), k);
    for (std::size_t i = s; i < e; ++i)
      for (arma::uword j = 0; j < k; ++j) {
        g.index(j, i) = nn(j, i - s);
        g.dist(j, i) = std::sqrt(sq_dist(X.colptr(nn(j, i - s)), Q.colptr(i), X.n_rows));
      }
  });
  return g;
}

NeighbourGraph neighbour_graph(const arma::mat& X, arma::uword k, const GraphOptions& opt) {
  return NeighbourIndex(X, k, opt).self_graph(k);
}

GraphOptions fit_graph_options(const std::string& kind, unsigned threads, Rng& rng) {
  GraphOptions go;
  go.kind = parse_graph_kind(kind);
  go.threads = threads;
  go.seed = rng.engine()();
  return go;
}

arma::sp_mat symmetric_adjacency(const NeighbourGraph& g) {
  const arma::uword n = g.n(), k = g.k();
  // Each undirected edge once (lower index first), so that mutual neighbours are not summed twice
  // by the batch constructor.
  WeightedEdges edges;
  edges.reserve(k * n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < k; ++j) {
      const arma::uword a = std::min(i, g.index(j, i)), b = std::max(i, g.index(j, i));
      edges.push_back({{a, b}, g.dist(j, i)});
    }
  return symmetric_from_edges(std::move(edges), n);
}

arma::sp_mat symmetric_from_edges(WeightedEdges edges, arma::uword n) {
  std::sort(edges.begin(), edges.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const auto& x, const auto& y) { return x.first == y.first; }),
              edges.end());
  arma::umat loc(2, 2 * edges.size());
  arma::vec val(2 * edges.size());
  arma::uword c = 0;
  for (const auto& [ab, d] : edges) {
    const double w = std::max(d, std::numeric_limits<double>::min());
    loc(0, c) = ab.first;
    loc(1, c) = ab.second;
    val(c++) = w;
    loc(0, c) = ab.second;
    loc(1, c) = ab.first;
    val(c++) = w;
  }
  return arma::sp_mat(loc, val, n, n);
}

double graph_recall(const NeighbourGraph& g, const NeighbourGraph& exact) {
  if (g.n() != exact.n() || g.k() != exact.k())
    throw Error("graph_recall: graphs of different shapes");
  std::size_t hit = 0;
  std::vector<arma::uword> a(g.k()), b(g.k());
  for (arma::uword i = 0; i < g.n(); ++i) {
    for (arma::uword j = 0; j < g.k(); ++j) {
      a[j] = g.index(j, i);
      b[j] = exact.index(j, i);
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<arma::uword> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    hit += both.size();
  }
  return g.n() == 0 ? 1.0 : double(hit) / double(g.n() * g.k());
}

}  // namespace drbench
