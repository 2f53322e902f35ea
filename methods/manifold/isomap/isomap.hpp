#pragma once
// Isomap (Tenenbaum, de Silva & Langford 2000): classical MDS on graph geodesics, from the
// geodesic pipeline the isometric projections share (framework/linalg/geodesic.hpp): kNN or
// epsilon graph, kept sparse, one repair for a disconnected graph, Dijkstra from every source. A
// new point's geodesic to training point j is min_l (|x - x_l| + g(l, j)) over its graph neighbours
// l, and Gower's formula maps it (Bengio et al. 2003, section 3).
#include <armadillo>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"
#include "framework/linalg/mds_spectrum.hpp"

namespace drbench {

class Isomap final : public Method {
 public:
  explicit Isomap(const ParamSet& p) : params_(p) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return spectrum_.embedding(); }
  arma::mat transform(const arma::mat& Xnew) const override;
  // n x n squared geodesic distances of the training points.
  const arma::mat& geodesics_sq() const { return G2_; }

 private:
  ParamSet params_;
  arma::mat X_;
  arma::mat G2_;
  MdsSpectrum spectrum_;
};

}  // namespace drbench
