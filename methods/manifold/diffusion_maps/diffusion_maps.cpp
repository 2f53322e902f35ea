#include "methods/manifold/diffusion_maps/diffusion_maps.hpp"

#include <cmath>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/kernel_matrix.hpp"

namespace drbench {

void DiffusionMaps::fit(const FitInput& in) {
  X_ = in.X;
  const arma::uword dim = in.dim;
  sigma_ = s_.relative ? s_.sigma * median_distance(in.X) : s_.sigma;
  if (!(sigma_ > 0))
    throw MethodError(
        "diffusion_maps: the kernel width is 0 (all points equal?); set "
        "'kernel_width' with 'width: absolute'");
  arma::mat K = arma::exp(sq_distances(in.X) / (-2.0 * sigma_ * sigma_));
  p_ = arma::sum(K, 1);
  const arma::vec pa = arma::pow(p_, -s_.alpha);
  K = arma::diagmat(pa) * K * arma::diagmat(pa);
  const arma::vec d = arma::sum(K, 1);
  const arma::vec dh = 1.0 / arma::sqrt(d);
  arma::mat A = arma::diagmat(dh) * K * arma::diagmat(dh);
  A = 0.5 * (A + A.t());
  const EigenPairs e = sym_eigs(A, dim + 1, Spectrum::Largest);
  lambda_ = e.values;
  // A second eigenvalue 1: the kernel graph falls apart (too narrow a kernel); eigenvalues 0 up to
  // `dim`: the kernel sees every pair as neighbours (too wide), and the axes are noise.
  if (lambda_(1) > 1.0 - 1e-10)
    throw MethodError(
        "diffusion_maps: the kernel connects the points in several pieces "
        "(eigenvalue 1 repeated); raise 'kernel_width'");
  if (lambda_(dim) <= 1e-12)
    throw MethodError("diffusion_maps: the Markov matrix has fewer than dims=" +
                      std::to_string(dim) + " non-zero eigenvalues beyond 1; lower 'kernel_width'");
  // Right eigenvectors of P: psi = D^-1/2 v, scaled so that sum_i pi_i psi(i)^2 = 1 with the
  // stationary distribution pi = d / sum(d), i.e. psi_0 = 1.
  const double total = arma::accu(d);
  Psi_ = arma::diagmat(dh) * e.vectors.cols(1, dim) * std::sqrt(total);
  arma::mat V = Psi_;
  fix_signs(V);
  for (arma::uword j = 0; j < dim; ++j)
    if (arma::dot(V.col(j), Psi_.col(j)) < 0) Psi_.col(j) *= -1;
  Y_ = (Psi_ * arma::diagmat(arma::pow(lambda_.subvec(1, dim), s_.time))).t();
}

arma::mat DiffusionMaps::markov_rows(const arma::mat& Xq) const {
  arma::mat K = arma::exp(sq_distances(Xq, X_) / (-2.0 * sigma_ * sigma_));  // m x n
  const arma::vec pq = arma::sum(K, 1);
  K = arma::diagmat(arma::pow(pq, -s_.alpha)) * K * arma::diagmat(arma::pow(p_, -s_.alpha));
  K.each_col() /= arma::sum(K, 1);
  return K;
}

arma::mat DiffusionMaps::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != X_.n_rows)
    throw MethodError("diffusion_maps transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(X_.n_rows));
  const arma::uword dim = Psi_.n_cols;
  // psi_j(x) = P(x, .) psi_j / l_j, times l_j^t: l_j^(t-1) P(x, .) psi_j.
  const arma::vec scale = arma::pow(lambda_.subvec(1, dim), s_.time - 1.0);
  return (markov_rows(Xnew) * Psi_ * arma::diagmat(scale)).t();
}

namespace {

MethodInfo diffusion_maps_info() {
  MethodInfo m = describe_method(
      "diffusion_maps", "manifold",
      "diffusion maps: Markov-chain eigenvectors scaled by l^t; Nystroem out-of-sample map",
      "Coifman & Lafon 2006, ACHA 21, sections 2.1-2.5 and 3 (drtoolbox diffusion_maps)");
  const RealKey kernel_width = keywords::kernel_width(1.0, "the median pairwise training distance");
  const ChoiceKey width = keywords::width("relative", "the median pairwise training distance");
  const RealKey alpha = ParamSpec::real(
      "density_normalisation", 1.0, 0.0, 1.0,
      "a of K / (p p')^a: 0 graph Laplacian, 0.5 Fokker-Planck, 1 Laplace-Beltrami");
  const RealKey time =
      ParamSpec::real("diffusion_time", 1.0, 0.0, std::nullopt, "t of the scaling l^t");
  m.params = {kernel_width, width, alpha, time};
  m.transform_reproduces_embedding = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.n > 1 ? s.n - 2 : 0; };
  m.make = [=](const ParamSet& p) {
    return std::make_unique<DiffusionMaps>(
        DiffusionMapSetting{kernel_width(p), width(p) == "relative", alpha(p), time(p)});
  };
  return m;
}

}  // namespace
// Distances, kernel and the symmetric matrix with LAPACK's copy; then the test rows.
DRBENCH_METHOD(
    diffusion_maps_info,
    make_budget([](const TaskSize& z) { return z.n * z.n * z.d + 5.0 * z.n * z.n * z.n; },
                [](const TaskSize& z) { return memory_dense(z.shape, z.dim + 1, 4.0, 1.0); }))
}  // namespace drbench
