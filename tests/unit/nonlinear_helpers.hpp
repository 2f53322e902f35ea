#pragma once
// Helpers for the kernel/manifold method tests: build a method from the registry and fit it.
#include <armadillo>
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>

#include "framework/core/registry.hpp"
#include "framework/support/build_info.hpp"

namespace drbench::testing {

// A whitespace-separated matrix under tests/fixtures/ (the scripts/make_*_fixture.py outputs).
inline arma::mat sklearn_fixture(const std::string& name) {
  arma::mat F;
  REQUIRE(F.load(std::string(drbench::source_dir()) + "/tests/fixtures/" + name, arma::raw_ascii));
  return F;
}

inline std::unique_ptr<Method> fit_method(const std::string& name,
                                          const std::map<std::string, ParamValue>& given,
                                          const arma::mat& X, arma::uword dim,
                                          const arma::uvec* labels = nullptr,
                                          std::size_t n_classes = 0, Trace* trace = nullptr,
                                          std::uint64_t seed = 1) {
  const MethodInfo& info = Registry::instance().get(name);
  ParamSet ps;
  for (const auto& [k, v] : given) ps.set(k, v);
  auto m = info.make(info.complete(ps));
  Rng rng(seed);
  FitInput in{X, labels, n_classes, dim, rng, trace};
  m->fit(in);
  return m;
}

// Gaussian blobs: C classes of m points each in d dimensions, class means `sep` apart on average.
inline arma::mat blobs(Rng& rng, arma::uword d, std::size_t C, arma::uword m, double sep,
                       arma::uvec& y) {
  arma::mat centres = sep * rng.randn(d, C);
  arma::mat X(d, C * m);
  y.set_size(C * m);
  for (std::size_t c = 0; c < C; ++c)
    for (arma::uword i = 0; i < m; ++i) {
      X.col(c * m + i) = centres.col(c) + rng.randn(d, 1);
      y(c * m + i) = c;
    }
  return X;
}

// Labelled points: X is d x n, y holds n labels.
struct Labelled {
  arma::mat X;
  arma::uvec y;
};

// blobs() with its labels.
inline Labelled labelled_blobs(Rng& rng, arma::uword d, std::size_t C, arma::uword m, double sep) {
  Labelled l;
  l.X = blobs(rng, d, C, m, sep, l.y);
  return l;
}

// The same from a fresh engine seeded `seed`.
inline Labelled labelled_blobs(std::uint64_t seed, arma::uword d, std::size_t C, arma::uword m,
                               double sep) {
  Rng rng(seed);
  return labelled_blobs(rng, d, C, m, sep);
}

// A kernel method's linear special case: `name` with the linear kernel and `ridge`, fitted to
// `dim` dims on X with its labels y (C classes).
inline std::unique_ptr<Method> fit_linear_kernel(const std::string& name, double ridge,
                                                 const arma::mat& X, arma::uword dim,
                                                 const arma::uvec& y, std::size_t C) {
  return fit_method(name, {{"kernel", std::string("linear")}, {"ridge", ridge}}, X, dim, &y, C);
}

// Cosines of the principal angles between the row spaces of A and B (both k x n).
inline arma::vec subspace_cosines(const arma::mat& A, const arma::mat& B) {
  arma::mat Qa, Qb, Ra, Rb;
  arma::qr_econ(Qa, Ra, A.t());
  arma::qr_econ(Qb, Rb, B.t());
  return arma::svd(Qa.t() * Qb);
}

// Largest |difference| after flipping each row of A to match the sign of the same row of B.
inline double max_diff_up_to_sign(const arma::mat& A, const arma::mat& B) {
  double worst = 0;
  for (arma::uword r = 0; r < A.n_rows; ++r) {
    const double s = arma::dot(A.row(r), B.row(r)) < 0 ? -1.0 : 1.0;
    worst = std::max(worst, arma::abs(s * A.row(r) - B.row(r)).max());
  }
  return worst;
}

// Fraction of test points whose nearest training point (Euclidean, first on ties) has another
// label: the 1-NN test error the supervised metric-learning tests compare.
inline double one_nn_error(const arma::mat& Ytr, const arma::uvec& ytr, const arma::mat& Yte,
                           const arma::uvec& yte) {
  arma::uword wrong = 0;
  for (arma::uword q = 0; q < Yte.n_cols; ++q) {
    const arma::rowvec d2 = arma::sum(arma::square(Ytr.each_col() - Yte.col(q)), 0);
    if (ytr(d2.index_min()) != yte(q)) ++wrong;
  }
  return double(wrong) / double(Yte.n_cols);
}

}  // namespace drbench::testing
