#pragma once
// Classical (Torgerson-Gower) MDS on Euclidean distances; the spectrum and its out-of-sample map
// are framework/linalg/mds_spectrum.hpp, shared with Isomap and Sammon's start.
#include <armadillo>

#include "framework/core/method.hpp"
#include "framework/linalg/mds_spectrum.hpp"

namespace drbench {

class ClassicalMDS final : public Method {
 public:
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return spectrum_.embedding(); }
  arma::mat transform(const arma::mat& Xnew) const override;

 private:
  arma::mat X_;
  MdsSpectrum spectrum_;
};

}  // namespace drbench
