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

 private:
  struct Node {
    std::array<double, D> com;  // centre of mass
    double count = 0;           // points below
    double width2 = 0;          // squared largest side of the cell
    int skip = 0;               // next node in pre-order outside this subtree
    int begin = 0, end = 0;     // points [begin, end) of a leaf (empty for inner nodes)
  };
  void build(int begin, int end, std::array<double, D> lo, std::array<double, D> hi, int depth);

  std::vector<Node> nodes_;
  std::vector<arma::uword> order_;  // tree position -> original index
  std::vector<double> pts_;         // coordinates in tree order, D per point
  std::vector<arma::uword> pos_;    // original index -> tree position
};

extern template class SpaceTree<1>;
extern template class SpaceTree<2>;
extern template class SpaceTree<3>;

}  // namespace drbench
