#pragma once
// In the framework because every neighbour embedding whose repulsion sums a kernel of embedding
// distances over all pairs (t-SNE, the linear-time EE family) summarises far points with it.
// The space-partitioning tree of Barnes-Hut t-SNE (van der Maaten 2014): a 2^D-ary tree over the
// embedding (a quadtree in 2-D, an octree in 3-D) whose cells summarise their points by count and
// centre of mass, so the repulsive forces of far cells cost one interaction each.
//
// Nodes are stored in depth-first pre-order with a skip index (the next node outside the subtree):
// a traversal is one forward pass that either descends (next node) or jumps over a summarised
// subtree, with no stack and good locality. Points are copied into the tree's order, so leaves read
// contiguous memory, and queries run in that order too (nearby points walk similar paths).
#include <armadillo>
#include <array>
#include <utility>
#include <vector>

namespace drbench {

template <int D>
class SpaceTree {
 public:
  // Y: D x n embedding.
  explicit SpaceTree(const arma::mat& Y);

  // Repulsive term of point i (column of the Y given to the constructor): adds
  //   sum_j w_ij^2 (y_i - y_j)  to force[0..D)  and returns  sum_j w_ij,  w_ij = 1 / (1 + |y_i -
  // y_j|^2), over j != i, with cells whose (max width)^2 < theta^2 |y_i - centre|^2 taken whole.
  double repulsion(arma::uword i, double theta2, double* force) const;

  // Points in the tree's order (a permutation of 0..n-1): the order queries should run in.
  const std::vector<arma::uword>& order() const { return order_; }

  // The Barnes-Hut walk for any kernel (t-SNE keeps its own hand-written repulsion above). For
  // point i, in one forward pass over the nodes:
  //   v.prune(d2, width2): true when a cell at squared distance d2 from its centre of mass (and
  //     squared largest side width2) contributes nothing the caller needs: skipped whole;
  //   v.point(p, u, e2): each other point p (a tree position) of an opened leaf, u = y_i - y_p,
  //     e2 = |u|^2;
  //   v.cell(t, diff, d2): each cell t (a node index) taken whole because width2 < theta2 d2,
  //     diff = y_i - its centre of mass.
  template <class Visitor>
  void walk(arma::uword i, double theta2, Visitor& v) const;

  // What a visitor may read. Nodes: [0, node_count()); the points below node t are the tree
  // positions [range(t).first, range(t).second).
  int node_count() const { return static_cast<int>(nodes_.size()); }
  const std::pair<int, int>& range(int t) const { return range_[t]; }
  double count(int t) const { return nodes_[t].count; }
  // Tree position of point i, and the coordinates of tree position p (D doubles).
  arma::uword position(arma::uword i) const { return pos_[i]; }
  const double* coords(arma::uword p) const { return &pts_[D * p]; }

 private:
  struct Node {
    std::array<double, D> com;  // centre of mass
    double count = 0;           // points below
    double width2 = 0;          // squared largest side of the cell
    int skip = 0;               // next node in pre-order outside this subtree
    int begin = 0, end = 0;     // points [begin, end) of a leaf (empty for inner nodes)
  };
  void build(int begin, int end, std::array<double, D> lo, std::array<double, D> hi, int depth);
  void fill_ranges();

  std::vector<Node> nodes_;
  std::vector<arma::uword> order_;  // tree position -> original index
  std::vector<double> pts_;         // coordinates in tree order, D per point
  std::vector<arma::uword> pos_;    // original index -> tree position
  // Tree positions below each node, for visitors with per-cell sums of their own; kept apart
  // from Node so that t-SNE's walk reads no more memory per node than before.
  std::vector<std::pair<int, int>> range_;
};

template <int D>
template <class Visitor>
void SpaceTree<D>::walk(arma::uword i, double theta2, Visitor& v) const {
  const arma::uword self = pos_[i];
  double y[D];
  for (int k = 0; k < D; ++k) y[k] = pts_[D * self + k];
  const int n_nodes = static_cast<int>(nodes_.size());
  int t = 0;
  while (t < n_nodes) {
    const Node& nd = nodes_[t];
    double diff[D], d2 = 0.0;
    for (int k = 0; k < D; ++k) {
      diff[k] = y[k] - nd.com[k];
      d2 += diff[k] * diff[k];
    }
    if (v.prune(d2, nd.width2)) {
      t = nd.skip;
    } else if (nd.end > nd.begin) {
      for (int p = nd.begin; p < nd.end; ++p) {
        if (static_cast<arma::uword>(p) == self) continue;
        double u[D], e2 = 0.0;
        for (int k = 0; k < D; ++k) {
          u[k] = y[k] - pts_[D * p + k];
          e2 += u[k] * u[k];
        }
        v.point(p, u, e2);
      }
      t = nd.skip;
    } else if (nd.width2 < theta2 * d2) {
      v.cell(t, diff, d2);
      t = nd.skip;
    } else {
      ++t;
    }
  }
}

extern template class SpaceTree<1>;
extern template class SpaceTree<2>;
extern template class SpaceTree<3>;

}  // namespace drbench
