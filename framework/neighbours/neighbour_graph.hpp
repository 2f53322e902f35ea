#pragma once
// The one neighbour-graph routine of drbench: every method that needs each point's nearest
// neighbours (Isomap, LLE, LE, LPP and kin, t-SNE's P, the EE family's affinities, UMAP, PaCMAP,
// TriMap, the kNN-based quality measures) asks here, exact or approximate by one setting.
// - exact: the kNN search of framework/neighbours/knn_search.hpp (k-d tree, float pre-filter or
// blocked BLAS),
//   ranking by directly summed squared distance, ties to the lower index.
// - approximate: a hierarchical navigable small world graph (HNSW, Malkov & Yashunin 2018, through
//   Debian's libhnswlib-dev), built in batches fixed by n, searched on `threads` threads and linked
//   in point order (NeighbourIndex::Hnsw), so the graph depends on the data and the seed only;
//   queries run on `threads` threads, each writing its own column: the same for any count. The
//   candidates HNSW returns are re-ranked by exact double distances with the exact path's tie rule.
// - automatic: approximate where the exact search would cost far more (see use_approximate).
#include <armadillo>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "framework/core/rng.hpp"

namespace drbench {

enum class GraphKind { exact, approximate, automatic };

// "exact" | "approximate" | "auto" (the `neighbour_graph` keyword's choices).
GraphKind parse_graph_kind(const std::string& s);
std::string to_string(GraphKind k);

struct GraphOptions {
  GraphKind kind = GraphKind::automatic;
  unsigned threads = 1;
  std::uint64_t seed = 0;  // HNSW level generator
  // HNSW: links per node, candidate list while building, and while querying (at least k + 1).
  std::size_t hnsw_m = 16;
  std::size_t ef_construction = 200;
  std::size_t ef_search = 100;
};

// A fit's graph options: the configured kind (parsed first, so that a bad name throws before the
// engine is used), `threads`, and the HNSW seed drawn from the task's engine.
GraphOptions fit_graph_options(const std::string& kind, unsigned threads, Rng& rng);

// Whether `automatic` takes the approximate path for n points in d dimensions and k neighbours:
// only where the exact search is slow (many points, more dimensions than the k-d tree serves).
bool use_approximate(arma::uword n, arma::uword d, arma::uword k, GraphKind kind);

struct NeighbourGraph {
  arma::umat index;  // k x n: column i holds i's neighbours, nearest first, never i itself
  arma::mat dist;    // k x n: their Euclidean distances (not squared)
  bool approximate = false;
  arma::uword k() const { return index.n_rows; }
  arma::uword n() const { return index.n_cols; }
};

// A search structure over the columns of `ref` (d x n) that answers both the graph of the points
// themselves and queries by new points (out-of-sample maps), built once.
class NeighbourIndex {
 public:
  NeighbourIndex(const arma::mat& ref, arma::uword k_hint, const GraphOptions& opt);
  ~NeighbourIndex();
  NeighbourIndex(NeighbourIndex&&) noexcept;
  NeighbourIndex& operator=(NeighbourIndex&&) noexcept;

  bool approximate() const { return hnsw_ != nullptr; }
  // Each reference point's k nearest other reference points. Throws MethodError unless
  // 1 <= k <= n - 1.
  NeighbourGraph self_graph(arma::uword k) const;
  // Each column of Q's k nearest reference points (a query equal to a reference point finds it
  // at distance 0). Throws MethodError unless 1 <= k <= n.
  NeighbourGraph query(const arma::mat& Q, arma::uword k) const;

 private:
  struct Hnsw;
  const arma::mat* ref_;  // not owned: the caller keeps ref alive as long as the index
  GraphOptions opt_;
  std::unique_ptr<Hnsw> hnsw_;
};

// Each column's k nearest other columns of X (NeighbourIndex(X, k, opt).self_graph(k)).
NeighbourGraph neighbour_graph(const arma::mat& X, arma::uword k, const GraphOptions& opt = {});

// Symmetric sparse adjacency (i~j when either is among the other's k nearest) weighted by the
// Euclidean distance; a zero distance (duplicate points) is stored as the smallest positive
// double, since a sparse matrix cannot hold an explicit zero edge.
arma::sp_mat symmetric_adjacency(const NeighbourGraph& g);

// Undirected edges ((a, b) with a <= b, and a weight) as a symmetric n x n sparse matrix. A pair
// listed more than once (mutual neighbours) is kept once rather than summed by the batch
// constructor, so callers give a repeated pair one weight; a zero weight is stored as the
// smallest positive double.
using WeightedEdges = std::vector<std::pair<std::pair<arma::uword, arma::uword>, double>>;
arma::sp_mat symmetric_from_edges(WeightedEdges edges, arma::uword n);

// Fraction of the exact graph's edges that `g` holds (column by column, as sets): the recall
// reported by the benchmarks.
double graph_recall(const NeighbourGraph& g, const NeighbourGraph& exact);

}  // namespace drbench
