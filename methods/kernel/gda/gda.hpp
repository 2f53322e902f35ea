#pragma once
// Generalized discriminant analysis (Baudat & Anouar 2000): Fisher's criterion in feature space,
// max  v' B v / v' T v  with B the between-class and T the total scatter of the centred mapped
// points. In KPCA coordinates Z (see kernel_subspace.hpp) this is LDA on Z with a ridge `reg`
// (relative to the mean eigenvalue of T): with an RBF kernel T is nearly singular and the
// unregularised criterion separates any labelling perfectly. At most C-1 directions carry
// between-class variance.
#include "methods/kernel/kernel_subspace.hpp"

namespace drbench {

class GDA final : public KernelSubspace {
 public:
  GDA(const KernelSetting& k, double reg) : KernelSubspace(k), reg_(reg) {}
  void fit(const FitInput& in) override;
  // Fisher ratios (v' B v / v' (T + reg) v) of the fitted directions, largest first.
  const arma::vec& ratios() const { return ratios_; }

 private:
  double reg_;
  arma::vec ratios_;
};

}  // namespace drbench
