#pragma once
// Stochastic proximity embedding (Agrafiotis, J. Comput. Chem. 24, 2003, section "Method";
// Agrafiotis & Xu, PNAS 99, 2002): from random coordinates in the unit cube, `iterations` cycles
// of `pairs_per_point` x n random pairs each; a pair (i, j) at embedding distance d_ij and input
// distance r_ij moves both points along their difference by lambda/2 (r_ij - d_ij)/(d_ij + eps),
// and lambda falls linearly from `learning_rate` to a hundredth of it over the cycles. With
// `radius` > 0 (the neighbourhood variant) a pair farther apart than the radius in the input only
// pushes apart, when d_ij < r_ij. It is a stochastic update rule, not gradient descent on one
// objective: a single pair's move is -lambda/4 times the gradient of (d_ij - r_ij)^2 in y_i, but
// the sweep is no gradient of a fixed function (the radius rule switches terms on and off by the
// embedding itself); what it decreases is the stress, which the trace records per cycle on a
// fixed sample of pairs. SPE defines no map for new points: it is transductive.
#include <armadillo>

#include "methods/common/setting_method.hpp"

namespace drbench {

struct SpeSetting {
  arma::uword iterations = 100;      // cycles
  arma::uword pairs_per_point = 10;  // pair updates per cycle, per point
  double learning_rate = 1.0;        // lambda at the first cycle
  double radius = 0.0;               // relative to the mean input distance; 0 = global SPE
};

// One pair's update: yi and yj moved along yi - yj by lambda/2 (r - d)/(d + eps) each, apart
// when they are closer than r, together otherwise.
void spe_pair_update(double* yi, double* yj, arma::uword dim, double r, double lambda);

class Spe final : public SettingMethod<SpeSetting> {
 public:
  using SettingMethod::SettingMethod;
  void fit(const FitInput& in) override;

 private:
};

}  // namespace drbench
