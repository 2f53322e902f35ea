#pragma once
// Isomap (Tenenbaum, de Silva & Langford 2000): classical MDS on graph geodesics, from the
// geodesic pipeline the isometric projections share (framework/neighbours/geodesic.hpp): kNN (above
// 2,000 points, or with an approximate search, on the shared neighbour graph, `neighbour_graph`;
// below, the graph the committed results used) or epsilon graph, kept sparse, one repair for a
// disconnected graph, Dijkstra from every source. A new point's geodesic to training point j is
// min_l (|x - x_l| + g(l, j)) over its graph neighbours l, and Gower's formula maps it (Bengio et
// al. 2003, section 3).
//
// Landmark Isomap (de Silva & Tenenbaum 2003, "Global versus local methods in nonlinear
// dimensionality reduction", NIPS 15; and their 2004 report "Sparse multidimensional scaling using
// landmark points"), `landmarks: m` > 0: Dijkstra from m landmarks drawn at random (the task's
// engine) only, classical MDS of the m x m landmark geodesics (eigenpairs lambda_k, v_k of
// B_m = -1/2 H Delta_m H), and every point, training or new, placed by distance-based
// triangulation y = -1/2 L# (delta_x - delta_mean), L# rows v_k' / sqrt(lambda_k), delta_x its
// squared geodesics to the landmarks, delta_mean the landmarks' mean column. O(n m) memory
// instead of O(n^2); with m = n it is full Isomap exactly (Gower's formula is then the same map).
// The landmark set depends on the seed; the geodesics are split over `threads` by landmark and
// do not depend on the thread count.
#include <armadillo>
#include <memory>
#include <string>

#include "framework/core/method.hpp"
#include "framework/linalg/mds_spectrum.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "framework/neighbours/neighbour_graph.hpp"
#include "methods/common/landmarks.hpp"

namespace drbench {

// A setting of Isomap's parameters, read once in its `make`.
struct IsomapSetting {
  GeodesicGraphSpec graph;
  std::string neighbour_graph = "auto";  // parse_graph_kind's text
  arma::uword landmarks = 0;             // 0: full Isomap
};

class Isomap final : public Method {
 public:
  explicit Isomap(const IsomapSetting& s) : s_(s) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override {
    return landmarks_.is_empty() ? spectrum_.embedding() : Y_;
  }
  arma::mat transform(const arma::mat& Xnew) const override;
  // n x n squared geodesic distances of the training points (full Isomap only).
  const arma::mat& geodesics_sq() const { return G2_; }
  // Landmark Isomap: the landmarks' indices (ascending) and the n x m geodesics to them.
  const arma::uvec& landmarks() const { return landmarks_; }
  const arma::mat& landmark_geodesics() const { return GL_; }

 private:
  // dim x m coordinates of points whose squared geodesics to the training points (full) or to the
  // landmarks are the columns of D2 (n x m or landmarks x m).
  arma::mat place(const arma::mat& D2) const;
  // Squared geodesics (rows: training points, or landmarks) of the new points Xb.
  arma::mat new_geodesics_sq(const arma::mat& Xb) const;
  IsomapSetting s_;
  arma::mat X_;
  std::unique_ptr<NeighbourIndex> index_;  // kNN graph: over X_, for the new points' neighbours
  arma::mat G2_;                           // full: n x n squared geodesics
  MdsSpectrum spectrum_;                   // full
  arma::uvec landmarks_;                   // landmark: indices into X_
  arma::mat GL_;                           // landmark: n x m geodesics (not squared)
  LandmarkTriangulation triangulation_;    // landmark: MDS of the landmarks' geodesics
  arma::mat Y_;                            // landmark: dim x n
};

}  // namespace drbench
