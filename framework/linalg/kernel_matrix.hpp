#pragma once
// Gram matrices for the kernel methods (KPCA, GDA, KLPP, SKLPP): one kernel description, declared
// once as parameters, evaluated between column sets, and centred consistently for train and test.
#include <armadillo>
#include <vector>

#include "framework/core/keywords.hpp"
#include "framework/core/params.hpp"

namespace drbench {

struct KernelSpec {
  enum class Type { Linear, Rbf, Poly };
  Type type = Type::Rbf;
  double sigma = 1.0;  // RBF: k(x, y) = exp(-|x - y|^2 / (2 sigma^2)), sigma in input units
  int degree = 2;      // Poly: k(x, y) = (x'y + offset)^degree
  double offset = 1.0;
};

// A kernel as a setting states it, before the training data fixes a relative width.
struct KernelSetting {
  KernelSpec::Type type = KernelSpec::Type::Rbf;
  keywords::KernelWidth width;
  int degree = 2;
  double offset = 1.0;
};

// The parameters every kernel method declares (kernel, kernel_width, width, degree, offset), as
// typed keys: specs() declares them, operator() reads a setting's values once, in `make`.
struct KernelKeys {
  ChoiceKey kernel;
  RealKey kernel_width;
  ChoiceKey width;
  IntKey degree;
  RealKey offset;
  std::vector<ParamSpec> specs() const { return {kernel, kernel_width, width, degree, offset}; }
  KernelSetting operator()(const ParamSet& p) const;
};
const KernelKeys& kernel_keys();

// Resolves a kernel setting against the training data: with width: relative, sigma is a multiple
// of the median pairwise distance of X (d x n) so one grid of widths suits every dataset's scale.
KernelSpec kernel_from_setting(const KernelSetting& s, const arma::mat& X);

// Median Euclidean distance between distinct columns of X; at most 1000 evenly strided columns are
// used so the cost stays bounded on large training sets.
double median_distance(const arma::mat& X);

// The value of rank r (0-based: what std::nth_element puts at v.begin() + r) among non-negative
// finite doubles, by a 16-bit histogram of their bit patterns (which order as the values do) and a
// selection inside one bucket: the same value, several times faster for large v. v is not changed.
double select_nonnegative(std::vector<double>& v, std::size_t r);

// n x m matrix of k(a_i, b_j) between the columns of A (d x n) and B (d x m).
arma::mat gram(const KernelSpec& k, const arma::mat& A, const arma::mat& B);

// Centring in feature space: K <- (I - 11'/n) K (I - 11'/n). The training statistics are kept so
// test kernels are centred with the *training* mean, as the out-of-sample map requires.
struct GramCentring {
  arma::vec row_mean;  // mean over training points of k(x_i, .), one per training point
  double mean = 0.0;   // mean of all entries of the training Gram matrix
};
GramCentring centre_gram(arma::mat& K);
// The centred training Gram matrix of X for the kernel the setting s describes, for solvers that
// read only the upper triangle (the lower one is left unspecified): `k` and `c` are set as
// kernel_from_setting and centre_gram would set them. The RBF kernel is done in one sweep over the
// upper triangle: one syrk serves both the relative width (the median over the pairs
// median_distance takes, so the width agrees with it up to round-off) and the kernel, and the
// row means are summed while the exponentials are taken (equal to centre_gram's up to round-off).
arma::mat centred_training_gram_upper(const KernelSetting& s, const arma::mat& X, KernelSpec& k,
                                      GramCentring& c);
// Kt: n_train x m kernel between training and new points; returns its centred version.
arma::mat centre_test_gram(const arma::mat& Kt, const GramCentring& c);

}  // namespace drbench
