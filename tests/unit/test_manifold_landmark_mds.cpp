// Landmark MDS, which has no reference implementation on Debian: with every point a landmark it is
// classical MDS (mds), training and new points alike; on points that lie on a plane any dims + 1
// landmarks in general position place every point, new ones too, at its exact distances.
#include <catch2/catch.hpp>

#include <string>

#include "framework/linalg/distances.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::max_diff_up_to_sign;

TEST_CASE("landmark_mds with every point a landmark is classical MDS", "[manifold][landmark_mds]") {
  Rng rng(12);
  const arma::mat X = rng.randn(6, 40), Xnew = rng.randn(6, 7);
  auto cmds = fit_method("mds", {}, X, 3);
  for (const std::int64_t m : {std::int64_t(0), std::int64_t(40), std::int64_t(500)}) {
    INFO("landmarks " << m);
    auto l = fit_method("landmark_mds", {{"landmarks", m}}, X, 3);
    CHECK(max_diff_up_to_sign(l->embedding(), cmds->embedding()) < 1e-9);
    CHECK(max_diff_up_to_sign(l->transform(Xnew), cmds->transform(Xnew)) < 1e-9);
  }
}

TEST_CASE("landmark_mds triangulates a planar configuration exactly", "[manifold][landmark_mds]") {
  Rng rng(13);
  arma::mat Q, R;
  arma::qr_econ(Q, R, rng.randn(5, 5));
  const arma::mat T = 3.0 * rng.randn(2, 200), Tnew = 3.0 * rng.randn(2, 10);
  const arma::mat X = Q.head_cols(2) * T, Xnew = Q.head_cols(2) * Tnew;
  const arma::mat D = sq_distances(arma::join_rows(X, Xnew));
  for (const std::string choice : {"random", "maxmin"}) {
    INFO(choice);
    auto l = fit_method("landmark_mds",
                        {{"landmarks", std::int64_t(5)}, {"landmark_choice", choice}}, X, 2);
    const arma::mat Y = arma::join_rows(l->embedding(), l->transform(Xnew));
    CHECK(arma::abs(sq_distances(Y) - D).max() < 1e-8 * D.max());
    CHECK(arma::abs(l->transform(X) - l->embedding()).max() < 1e-12);
  }
  CHECK_THROWS_WITH(fit_method("landmark_mds", {{"landmarks", std::int64_t(2)}}, X, 2),
                    Catch::Contains("raise 'landmarks'"));
}
