#include "framework/nbody/class_split_repulsion.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/nbody/gaussian_bh.hpp"
#include "framework/nbody/space_tree.hpp"
#include "framework/support/parallel.hpp"

namespace drbench {

namespace {

// Where each class sits in the tree's order: the class of every tree position, the rank table
// (how many points of class c precede position p) and per-class prefix sums of the embedding
// coordinates, so that a cell's class-c count and coordinate sum cost two lookups each.
template <int D>
struct ClassLayout {
  arma::uword n = 0, C = 0;
  std::vector<arma::uword> cls;     // class of tree position p
  std::vector<std::uint32_t> rank;  // rank[c (n + 1) + p]
  std::vector<arma::uword> offset;  // class c's prefix block starts at column offset[c]
  arma::mat Py;                     // D x (n + 1): prefix sums of y in tree order
  arma::mat Pyc;                    // D x (n + C): per-class prefix sums of y

  ClassLayout(const SpaceTree<D>& tree, const arma::uvec& labels, arma::uword n_classes)
      : n(labels.n_elem), C(n_classes) {
    if (n > std::numeric_limits<std::uint32_t>::max())
      throw MethodError("class-split Barnes-Hut: too many points for the rank table");
    const auto& order = tree.order();
    cls.resize(n);
    std::vector<arma::uword> sizes(C, 0);
    for (arma::uword p = 0; p < n; ++p) {
      cls[p] = labels(order[p]);
      if (cls[p] >= C) throw Error("internal: a label outside 0..n_classes-1");
      ++sizes[cls[p]];
    }
    offset.resize(C);
    arma::uword off = 0;
    for (arma::uword c = 0; c < C; ++c) {
      offset[c] = off;
      off += sizes[c] + 1;
    }
    rank.assign(C * (n + 1), 0);
    Py.set_size(D, n + 1);
    Pyc.set_size(D, n + C);
    Py.col(0).zeros();
    for (arma::uword c = 0; c < C; ++c) Pyc.col(offset[c]).zeros();
    std::vector<std::uint32_t> seen(C, 0);
    for (arma::uword p = 0; p < n; ++p) {
      for (arma::uword c = 0; c < C; ++c) rank[c * (n + 1) + p] = seen[c];
      const double* y = tree.coords(p);
      const arma::uword c = cls[p];
      const arma::uword at = offset[c] + seen[c];
      for (int k = 0; k < D; ++k) {
        Py(k, p + 1) = Py(k, p) + y[k];
        Pyc(k, at + 1) = Pyc(k, at) + y[k];
      }
      ++seen[c];
    }
    for (arma::uword c = 0; c < C; ++c) rank[c * (n + 1) + n] = seen[c];
  }

  // Class c's points among tree positions [a, b): prefix indices r0 <= r1 (count r1 - r0).
  void class_range(arma::uword c, int a, int b, arma::uword& r0, arma::uword& r1) const {
    r0 = rank[c * (n + 1) + a];
    r1 = rank[c * (n + 1) + b];
  }
};

template <int D>
struct ElasticVisitor {
  const ClassLayout<D>& L;
  const SpaceTree<D>& tree;
  const double* xi;   // x_i (Dx)
  double ai;          // |x_i|^2
  arma::uword ci;     // class of i
  const double* yi;   // y_i
  const double* Xt;   // inputs in tree order, Dx per point
  const double* S;    // per-node sums of x, Dx per node
  const double* A;    // per-node sums of |x|^2
  const double* Pxc;  // per-class prefix sums of x, Dx per column
  const double* Pac;  // per-class prefix sums of |x|^2
  arma::uword Dx;
  double e = 0.0;
  double f[D] = {};

  bool prune(double d2, double width2) const { return gaussian_cell_negligible<D>(d2, width2); }
  void point(int p, const double* u, double e2) {
    if (L.cls[p] == ci) return;
    const double k = sqdist4(xi, Xt + Dx * p, Dx) * std::exp(-e2);
    e += k;
    for (int q = 0; q < D; ++q) f[q] += k * u[q];
  }
  void cell(int t, const double*, double) {
    const auto& r = tree.range(t);
    arma::uword r0, r1;
    L.class_range(ci, r.first, r.second, r0, r1);
    const double cnt = tree.count(t) - double(r1 - r0);
    if (cnt <= 0) return;
    const arma::uword o = L.offset[ci];
    // The different-class group's sums: the cell's totals less class ci's.
    const double dot =
        dot4(xi, S + Dx * t, Dx) - dot_diff4(xi, Pxc + Dx * (o + r1), Pxc + Dx * (o + r0), Dx);
    const double asum = A[t] - (Pac[o + r1] - Pac[o + r0]);
    // cnt a_i + sum a_m - 2 x_i . sum x_m = sum_m |x_i - x_m|^2 >= 0 (clamped against rounding).
    const double w = std::max(0.0, cnt * ai + asum - 2.0 * dot);
    double diff[D], d2 = 0.0;
    for (int k = 0; k < D; ++k) {
      const double ysum =
          (L.Py(k, r.second) - L.Py(k, r.first)) - (L.Pyc(k, o + r1) - L.Pyc(k, o + r0));
      diff[k] = yi[k] - ysum / cnt;
      d2 += diff[k] * diff[k];
    }
    const double k = w * std::exp(-d2);
    e += k;
    for (int q = 0; q < D; ++q) f[q] += k * diff[q];
  }
};

template <int D>
void elastic_d(const arma::mat& Y, const arma::mat& X, const arma::uvec& labels,
               arma::uword n_classes, double theta, unsigned threads, arma::vec& e, arma::mat& F) {
  const arma::uword n = Y.n_cols, Dx = X.n_rows;
  const SpaceTree<D> tree(Y);
  const ClassLayout<D> L(tree, labels, n_classes);
  const auto& order = tree.order();
  arma::mat Xt(Dx, n);
  arma::vec at(n);
  for (arma::uword p = 0; p < n; ++p) {
    Xt.col(p) = X.col(order[p]);
    at(p) = arma::dot(Xt.col(p), Xt.col(p));
  }
  // Prefix sums of x and |x|^2 in tree order, overall (for the node sums) and per class.
  arma::mat Px(Dx, n + 1), Pxc(Dx, n + n_classes);
  arma::vec Pa(n + 1), Pac(n + n_classes);
  Px.col(0).zeros();
  Pa(0) = 0.0;
  for (arma::uword c = 0; c < n_classes; ++c) {
    Pxc.col(L.offset[c]).zeros();
    Pac(L.offset[c]) = 0.0;
  }
  for (arma::uword p = 0; p < n; ++p) {
    Px.col(p + 1) = Px.col(p) + Xt.col(p);
    Pa(p + 1) = Pa(p) + at(p);
    const arma::uword c = L.cls[p];
    const arma::uword j = L.offset[c] + L.rank[c * (n + 1) + p];
    Pxc.col(j + 1) = Pxc.col(j) + Xt.col(p);
    Pac(j + 1) = Pac(j) + at(p);
  }
  const int nodes = tree.node_count();
  arma::mat S(Dx, nodes);
  arma::vec A(nodes);
  for (int t = 0; t < nodes; ++t) {
    const auto& r = tree.range(t);
    S.col(t) = Px.col(r.second) - Px.col(r.first);
    A(t) = Pa(r.second) - Pa(r.first);
  }
  e.set_size(n);
  F.set_size(D, n);
  const double theta2 = theta * theta;
  parallel_blocks(n, threads, [&](std::size_t s, std::size_t end, std::size_t) {
    for (std::size_t p = s; p < end; ++p) {
      const arma::uword i = order[p];
      ElasticVisitor<D> v{L,          tree,         Xt.colptr(p), at(p),
                          L.cls[p],   Y.colptr(i),  Xt.memptr(),  S.memptr(),
                          A.memptr(), Pxc.memptr(), Pac.memptr(), Dx};
      tree.walk(i, theta2, v);
      e(i) = v.e;
      for (int q = 0; q < D; ++q) F(q, i) = v.f[q];
    }
  });
}

template <int D>
struct StudentVisitor {
  const ClassLayout<D>& L;
  const SpaceTree<D>& tree;
  arma::uword ci;
  const double* yi;
  double zs = 0.0, zd = 0.0;
  double fs[D] = {}, fd[D] = {};

  bool prune(double, double) const { return false; }
  void point(int p, const double* u, double e2) {
    const double q = 1.0 / (1.0 + e2), q2 = q * q;
    if (L.cls[p] == ci) {
      zs += q;
      for (int k = 0; k < D; ++k) fs[k] += q2 * u[k];
    } else {
      zd += q;
      for (int k = 0; k < D; ++k) fd[k] += q2 * u[k];
    }
  }
  // One group of a cell taken whole: cnt points with coordinate sum ysum.
  void group(double cnt, const double* ysum, double& z, double* f) const {
    if (cnt <= 0) return;
    double diff[D], d2 = 0.0;
    for (int k = 0; k < D; ++k) {
      diff[k] = yi[k] - ysum[k] / cnt;
      d2 += diff[k] * diff[k];
    }
    const double q = 1.0 / (1.0 + d2);
    z += cnt * q;
    for (int k = 0; k < D; ++k) f[k] += cnt * q * q * diff[k];
  }
  void cell(int t, const double*, double) {
    const auto& r = tree.range(t);
    arma::uword r0, r1;
    L.class_range(ci, r.first, r.second, r0, r1);
    const arma::uword o = L.offset[ci];
    double ys[D], yd[D];
    for (int k = 0; k < D; ++k) {
      ys[k] = L.Pyc(k, o + r1) - L.Pyc(k, o + r0);
      yd[k] = (L.Py(k, r.second) - L.Py(k, r.first)) - ys[k];
    }
    const double cs = double(r1 - r0);
    group(cs, ys, zs, fs);
    group(tree.count(t) - cs, yd, zd, fd);
  }
};

template <int D>
ClassSplitStudentSums student_d(const arma::mat& Y, const arma::uvec& labels, arma::uword n_classes,
                                double theta, unsigned threads) {
  const arma::uword n = Y.n_cols;
  const SpaceTree<D> tree(Y);
  const ClassLayout<D> L(tree, labels, n_classes);
  const auto& order = tree.order();
  ClassSplitStudentSums s;
  s.z_same.set_size(n);
  s.z_diff.set_size(n);
  s.f_same.set_size(D, n);
  s.f_diff.set_size(D, n);
  const double theta2 = theta * theta;
  parallel_blocks(n, threads, [&](std::size_t b, std::size_t end, std::size_t) {
    for (std::size_t p = b; p < end; ++p) {
      const arma::uword i = order[p];
      StudentVisitor<D> v{L, tree, L.cls[p], Y.colptr(i)};
      tree.walk(i, theta2, v);
      s.z_same(i) = v.zs;
      s.z_diff(i) = v.zd;
      for (int k = 0; k < D; ++k) {
        s.f_same(k, i) = v.fs[k];
        s.f_diff(k, i) = v.fd[k];
      }
    }
  });
  return s;
}

void check_shapes(const arma::mat& Y, const arma::uvec& labels, const char* what) {
  if (labels.n_elem != Y.n_cols)
    throw Error(std::string("internal: ") + what + ": labels do not match the embedding");
  if (Y.n_rows < 1 || Y.n_rows > 3)
    throw MethodError(std::string(what) + ": Barnes-Hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(Y.n_rows) + " (fix: 'gradient: exact' or dims <= 3)");
}

}  // namespace

void elastic_repulsion_between_classes(const arma::mat& Y, const arma::mat& X,
                                       const arma::uvec& labels, arma::uword n_classes,
                                       double theta, unsigned threads, arma::vec& e, arma::mat& F) {
  check_shapes(Y, labels, "elastic repulsion");
  if (X.n_cols != Y.n_cols) throw Error("internal: elastic repulsion: inputs do not match");
  switch (Y.n_rows) {
    case 1:
      return elastic_d<1>(Y, X, labels, n_classes, theta, threads, e, F);
    case 2:
      return elastic_d<2>(Y, X, labels, n_classes, theta, threads, e, F);
    default:
      return elastic_d<3>(Y, X, labels, n_classes, theta, threads, e, F);
  }
}

ClassSplitStudentSums student_t_sums_by_class(const arma::mat& Y, const arma::uvec& labels,
                                              arma::uword n_classes, double theta,
                                              unsigned threads) {
  check_shapes(Y, labels, "Student-t repulsion");
  switch (Y.n_rows) {
    case 1:
      return student_d<1>(Y, labels, n_classes, theta, threads);
    case 2:
      return student_d<2>(Y, labels, n_classes, theta, threads);
    default:
      return student_d<3>(Y, labels, n_classes, theta, threads);
  }
}

}  // namespace drbench
