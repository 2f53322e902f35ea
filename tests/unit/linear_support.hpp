#pragma once
// Small helpers shared by the [linear] tests: fitting a registered method by name and making
// labelled Gaussian blobs with the task RNG.
#include <armadillo>
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include "framework/support/build_info.hpp"

#include "framework/core/registry.hpp"

namespace drbench::testing {

inline std::unique_ptr<Method> fit_method(const std::string& name, const arma::mat& X,
                                          const arma::uvec* y, std::size_t C, arma::uword dim,
                                          const ParamSet& given = ParamSet(),
                                          std::uint64_t seed = 1) {
  const MethodInfo& info = Registry::instance().get(name);
  auto m = info.make(info.complete(given));
  Rng rng(seed);
  m->fit(FitInput{X, y, C, dim, rng, nullptr});
  return m;
}

// C Gaussian classes of `per` points in d dimensions, class c centred at `spread` * a random
// direction; labels 0..C-1 in blocks.
inline void blobs(Rng& rng, arma::uword d, arma::uword C, arma::uword per, double spread,
                  arma::mat& X, arma::uvec& y) {
  X.set_size(d, C * per);
  y.set_size(C * per);
  const arma::mat centres = spread * rng.randn(d, C);
  for (arma::uword c = 0; c < C; ++c)
    for (arma::uword i = 0; i < per; ++i) {
      X.col(c * per + i) = centres.col(c) + rng.randn(d, 1);
      y(c * per + i) = c;
    }
}

// Labelled points: X is d x n, y holds n labels.
struct Problem {
  arma::mat X;
  arma::uvec y;
};

// Labelled blobs as blobs() draws them from `rng`, which the test may go on drawing from.
inline Problem blob_problem(Rng& rng, arma::uword d, arma::uword C, arma::uword per,
                            double spread) {
  Problem p;
  blobs(rng, d, C, per, spread, p.X, p.y);
  return p;
}

// Labelled blobs with the data centred, as the neighbour-embedding tests want them (the methods
// centre too).
inline Problem make_problem(std::uint64_t seed, arma::uword D, arma::uword C, arma::uword per,
                            double spread) {
  Rng rng(seed);
  Problem p;
  blobs(rng, D, C, per, spread, p.X, p.y);
  p.X.each_col() -= arma::mean(p.X, 1);
  return p;
}

// A CSV written by scripts/make_linear_fixtures.py (numpy/scipy reference solutions).
inline arma::mat linear_fixture(const std::string& name) {
  arma::mat M;
  const std::string file =
      std::string(drbench::source_dir()) + "/tests/fixtures/linear/" + name + ".csv";
  REQUIRE(M.load(file, arma::csv_ascii));
  return M;
}

// The fixture data set: X (d x n) and labels.
inline Problem fixture_problem() {
  return {linear_fixture("X").t(),
          arma::conv_to<arma::uvec>::from(arma::vectorise(linear_fixture("y")))};
}

// Parameters with only `ridge` set.
inline ParamSet ridge(double r) {
  ParamSet p;
  p.set("ridge", r);
  return p;
}

// max |A - B| after flipping each column of B to the sign of the matching column of A.
inline double signed_column_diff(const arma::mat& A, const arma::mat& B) {
  if (A.n_rows != B.n_rows || A.n_cols != B.n_cols) return arma::datum::inf;
  double worst = 0.0;
  for (arma::uword j = 0; j < A.n_cols; ++j) {
    const double s = arma::dot(A.col(j), B.col(j)) < 0 ? -1.0 : 1.0;
    worst = std::max(worst, arma::abs(A.col(j) - s * B.col(j)).max());
  }
  return worst;
}

// Largest |cos| mismatch between matching columns: 0 when A and B span the same directions
// column by column up to sign.
inline double column_sign_mismatch(const arma::mat& A, const arma::mat& B) {
  double worst = 0.0;
  for (arma::uword j = 0; j < A.n_cols; ++j) {
    const double c = arma::dot(A.col(j), B.col(j)) / (arma::norm(A.col(j)) * arma::norm(B.col(j)));
    worst = std::max(worst, 1.0 - std::abs(c));
  }
  return worst;
}

// The fixture comparison of a method M that solves an eigenproblem: its eigenvalues against
// `<name>_values` (approx_equal by `how` within `tol`) and its projection against `<name>_A` up to
// column signs, within 1e-8.
template <class M>
void check_fixture_solution(const Method& m, const std::string& name, const char* how, double tol) {
  const auto& fitted = dynamic_cast<const M&>(m);
  CHECK(arma::approx_equal(fitted.eigenvalues(), arma::vectorise(linear_fixture(name + "_values")),
                           how, tol));
  CHECK(signed_column_diff(fitted.projection(), linear_fixture(name + "_A")) < 1e-8);
}

}  // namespace drbench::testing
