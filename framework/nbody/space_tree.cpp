#include "framework/nbody/space_tree.hpp"

#include <algorithm>
#include <numeric>

namespace drbench {

namespace {
// Leaves hold up to this many points: below it, exact interactions are cheaper than more cells.
constexpr int kLeafSize = 8;
// Coincident points cannot be separated by splitting: stop at this depth and keep a larger leaf.
constexpr int kMaxDepth = 40;
}  // namespace

template <int D>
SpaceTree<D>::SpaceTree(const arma::mat& Y) {
  const arma::uword n = Y.n_cols;
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), arma::uword(0));
  std::array<double, D> lo, hi;
  for (int k = 0; k < D; ++k) {
    lo[k] = n ? Y.row(k).min() : 0.0;
    hi[k] = n ? Y.row(k).max() : 0.0;
  }
  // A square (cubic) root cell, slightly enlarged so that boundary points fall inside.
  double side = 0.0;
  for (int k = 0; k < D; ++k) side = std::max(side, hi[k] - lo[k]);
  side = side * (1.0 + 1e-9) + 1e-12;
  for (int k = 0; k < D; ++k) {
    const double c = 0.5 * (lo[k] + hi[k]);
    lo[k] = c - 0.5 * side;
    hi[k] = c + 0.5 * side;
  }
  pts_.resize(static_cast<std::size_t>(D) * n);
  for (arma::uword i = 0; i < n; ++i)
    for (int k = 0; k < D; ++k) pts_[D * i + k] = Y(k, i);
  nodes_.reserve(2 * n / kLeafSize + 16);
  if (n) build(0, static_cast<int>(n), lo, hi, 0);
  // The partition permuted order_ alongside pts_; remember where each point went.
  pos_.resize(n);
  for (arma::uword t = 0; t < n; ++t) pos_[order_[t]] = t;
  range_.resize(nodes_.size());
  fill_ranges();
}

template <int D>
void SpaceTree<D>::build(int begin, int end, std::array<double, D> lo, std::array<double, D> hi,
                         int depth) {
  const int me = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  {
    Node& nd = nodes_[me];
    nd.count = end - begin;
    nd.com.fill(0.0);
    for (int t = begin; t < end; ++t)
      for (int k = 0; k < D; ++k) nd.com[k] += pts_[D * t + k];
    for (int k = 0; k < D; ++k) nd.com[k] /= nd.count;
    double w = 0.0;
    for (int k = 0; k < D; ++k) w = std::max(w, hi[k] - lo[k]);
    nd.width2 = w * w;
  }
  if (end - begin <= kLeafSize || depth >= kMaxDepth) {
    nodes_[me].begin = begin;
    nodes_[me].end = end;
    nodes_[me].skip = me + 1;
    return;
  }
  std::array<double, D> mid;
  for (int k = 0; k < D; ++k) mid[k] = 0.5 * (lo[k] + hi[k]);
  // Partition [begin, end) into the 2^D children, one coordinate at a time (child c's bit k is set
  // when the point is at or above the midpoint along k), swapping points and their indices.
  // Partition [begin, end) into the 2^D children in place: child c = sum_k bit_k << k, bit_k set
  // when the point is at or above the midpoint along k. Split by the highest coordinate first,
  // then each half by the next one, and so on.
  constexpr int C = 1 << D;
  auto split = [&](int s, int e, int k) {
    int i = s, j = e - 1;
    while (i <= j) {
      if (pts_[D * i + k] < mid[k]) {
        ++i;
      } else {
        for (int r = 0; r < D; ++r) std::swap(pts_[D * i + r], pts_[D * j + r]);
        std::swap(order_[i], order_[j]);
        --j;
      }
    }
    return i;
  };
  std::array<int, C + 1> bound{};
  bound[0] = begin;
  bound[C] = end;
  for (int k = D - 1; k >= 0; --k) {
    const int stride = 1 << (k + 1);
    for (int g = 0; g < C; g += stride)
      bound[g + stride / 2] = split(bound[g], bound[g + stride], k);
  }
  for (int c = 0; c < C; ++c) {
    if (bound[c] == bound[c + 1]) continue;
    std::array<double, D> clo, chi;
    for (int k = 0; k < D; ++k) {
      const bool up = (c >> k) & 1;
      clo[k] = up ? mid[k] : lo[k];
      chi[k] = up ? hi[k] : mid[k];
    }
    build(bound[c], bound[c + 1], clo, chi, depth + 1);
  }
  nodes_[me].skip = static_cast<int>(nodes_.size());
}

template <int D>
void SpaceTree<D>::fill_ranges() {
  // Pre-order: a subtree is node t followed by its descendants up to skip - 1, and its points run
  // from its first leaf's begin to its last leaf's end; walking backwards finds both computed.
  for (int t = static_cast<int>(nodes_.size()) - 1; t >= 0; --t) {
    const Node& nd = nodes_[t];
    if (nd.end > nd.begin || nd.skip == t + 1)
      range_[t] = {nd.begin, nd.end};
    else
      range_[t] = {range_[t + 1].first, range_[nd.skip - 1].second};
  }
}

template <int D>
double SpaceTree<D>::repulsion(arma::uword i, double theta2, double* force) const {
  const arma::uword self = pos_[i];
  const double* yi = &pts_[D * self];
  double y[D], f[D];
  for (int k = 0; k < D; ++k) {
    y[k] = yi[k];
    f[k] = 0.0;
  }
  double z = 0.0;
  const int n_nodes = static_cast<int>(nodes_.size());
  int t = 0;
  while (t < n_nodes) {
    const Node& nd = nodes_[t];
    double diff[D], d2 = 0.0;
    for (int k = 0; k < D; ++k) {
      diff[k] = y[k] - nd.com[k];
      d2 += diff[k] * diff[k];
    }
    if (nd.end > nd.begin) {  // leaf: every point exactly
      for (int p = nd.begin; p < nd.end; ++p) {
        if (static_cast<arma::uword>(p) == self) continue;
        double u[D], e2 = 0.0;
        for (int k = 0; k < D; ++k) {
          u[k] = y[k] - pts_[D * p + k];
          e2 += u[k] * u[k];
        }
        const double w = 1.0 / (1.0 + e2);
        z += w;
        for (int k = 0; k < D; ++k) f[k] += w * w * u[k];
      }
      t = nd.skip;
    } else if (nd.width2 < theta2 * d2) {  // far enough: the whole cell at its centre of mass
      const double w = 1.0 / (1.0 + d2);
      const double cw = nd.count * w;
      z += cw;
      for (int k = 0; k < D; ++k) f[k] += cw * w * diff[k];
      t = nd.skip;
    } else {
      ++t;  // descend: the first child follows its parent in pre-order
    }
  }
  for (int k = 0; k < D; ++k) force[k] += f[k];
  return z;
}

template class SpaceTree<1>;
template class SpaceTree<2>;
template class SpaceTree<3>;

}  // namespace drbench
