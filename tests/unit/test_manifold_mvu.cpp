// Maximum variance unfolding and landmark MVU, which have no reference implementation on Debian,
// against what the SDP's answer must be: on a chain (points along a curve whose nearest-neighbour
// graph is a path) the most spread-out configuration with the edge lengths kept is the straight
// line, so the embedding's distances are the graph's geodesics; on a rolled-up flat sheet MVU
// unrolls it; the edge lengths hold to the solver's tolerance, the input's own Gram matrix is
// feasible so trace(K) is at least its trace, and landmark MVU with every point a landmark is MVU.
#include <catch2/catch.hpp>

#include <cmath>

#include "framework/budget/budget.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/geodesic.hpp"
#include "methods/manifold/landmark_mvu/landmark_mvu.hpp"
#include "methods/manifold/mvu/mvu.hpp"
#include "methods/manifold/sdp_solver.hpp"
#include "tests/unit/nonlinear_helpers.hpp"

using namespace drbench;
using drbench::testing::fit_method;
using drbench::testing::max_diff_up_to_sign;

namespace {

// n points on a helix arc, their spacing growing along it, so each point's nearest neighbour is
// the one before it and the symmetrised 1-NN graph is the path 0-1-...-(n-1).
arma::mat helix_chain(arma::uword n) {
  arma::mat X(3, n);
  double t = 0.0;
  for (arma::uword i = 0; i < n; ++i) {
    X.col(i) = arma::vec{std::cos(t), std::sin(t), 0.4 * t};
    t += 0.12 * (1.0 + 0.01 * double(i));
  }
  return X;
}

// A flat 4 x 1 sheet rolled 270 degrees around the z axis (radius 4 / (1.5 pi)), sampled at random;
// `flat` receives the unrolled coordinates, whose distances are the sheet's geodesics.
arma::mat rolled_sheet(Rng& rng, arma::uword n, arma::mat& flat) {
  const double r = 4.0 / (1.5 * arma::datum::pi);
  flat = arma::join_cols(4.0 * rng.randu(1, n), rng.randu(1, n));
  arma::mat X(3, n);
  for (arma::uword i = 0; i < n; ++i) {
    const double a = flat(0, i) / r;
    X.col(i) = arma::vec{r * std::cos(a), r * std::sin(a), flat(1, i)};
  }
  return X;
}

double centred_trace(const arma::mat& X) {
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  return arma::accu(arma::square(Xc));
}

}  // namespace

TEST_CASE("the rank-one SDP solver agrees with its dual and keeps its constraints",
          "[manifold][mvu][sdp]") {
  // max <C, K> s.t. K_ii = 1 (the max-cut relaxation): primal and dual meet, K is PSD.
  Rng rng(3);
  const arma::mat A = rng.randn(6, 6), C = A + A.t();
  std::vector<RankOneConstraint> cons;
  for (int i = 0; i < 6; ++i) cons.push_back({{i}, {1.0}, 1.0, false});
  const SdpSolution s = solve_rank_one_sdp(6, C, cons, SdpOptions{}, nullptr, "test");
  CHECK(s.stop == "converged");
  CHECK(std::abs(s.primal - arma::accu(C % s.K)) < 1e-6 * std::abs(s.primal));
  CHECK(std::abs(s.primal - s.dual) < 1e-5 * std::abs(s.primal));
  CHECK(arma::abs(s.K.diag() - 1.0).max() < 1e-6);
  CHECK(arma::eig_sym(s.K).min() > -1e-6);
  // As inequalities with C = I the optimum is trace 6 with every K_ii at its bound.
  for (auto& c : cons) c.inequality = true;
  const SdpSolution t = solve_rank_one_sdp(6, arma::mat(), cons, SdpOptions{}, nullptr, "test");
  CHECK(std::abs(arma::trace(t.K) - 6.0) < 1e-5);
  CHECK(t.max_violation < 1e-6);
}

TEST_CASE("mvu straightens a chain: embedding distances are the graph's geodesics",
          "[manifold][mvu]") {
  const arma::mat X = helix_chain(40);
  auto m = fit_method("mvu", {{"neighbours", std::int64_t(1)}}, X, 1);
  const auto& mvu = dynamic_cast<const Mvu&>(*m);
  const arma::sp_mat G = geodesic_graph(X, GeodesicGraphSpec::knn_graph(1, false), "test", nullptr);
  REQUIRE(G.n_nonzero == 2 * 39);  // the path
  const arma::mat Dg = geodesic_distances(G);
  const arma::mat Dy = arma::sqrt(sq_distances(m->embedding()));
  CHECK(arma::abs(Dy - Dg).max() < 1e-3 * Dg.max());
  CHECK(mvu.max_violation() < 1e-5);
  // All of K's variance is on the line, and K beats the input's own (feasible) Gram matrix.
  const arma::vec ev = arma::eig_sym(mvu.gram());
  CHECK(ev.max() > 0.999 * arma::sum(arma::clamp(ev, 0.0, arma::datum::inf)));
  CHECK(arma::trace(mvu.gram()) >= centred_trace(X));
  CHECK(std::abs(arma::accu(mvu.gram())) < 1e-5 * arma::trace(mvu.gram()));
}

TEST_CASE("mvu unrolls a rolled-up sheet", "[manifold][mvu]") {
  Rng rng(5);
  arma::mat flat;
  const arma::mat X = rolled_sheet(rng, 150, flat);
  auto m = fit_method("mvu", {{"neighbours", std::int64_t(6)}}, X, 2);
  const auto& mvu = dynamic_cast<const Mvu&>(*m);
  CHECK(mvu.max_violation() < 1e-5);
  // Every kNN edge keeps its length (relative to the mean squared edge, DSDP's unit).
  const arma::sp_mat G = geodesic_graph(X, GeodesicGraphSpec::knn_graph(6, true), "test", nullptr);
  const arma::mat& K = mvu.gram();
  double worst = 0.0, mean_sq = 0.0;
  for (auto it = G.begin(); it != G.end(); ++it) {
    const arma::uword i = it.row(), j = it.col();
    worst = std::max(worst, std::abs(K(i, i) + K(j, j) - 2 * K(i, j) - (*it) * (*it)));
    mean_sq += (*it) * (*it) / double(G.n_nonzero);
  }
  CHECK(worst < 1e-4 * mean_sq);
  CHECK(arma::trace(K) >= centred_trace(X));
  // The embedding's distances are the sheet's geodesics (up to the chords' shortening of the
  // local edges), where the 3-D distances across the roll are far from them.
  const arma::mat Df = arma::sqrt(sq_distances(flat)),
                  Dy = arma::sqrt(sq_distances(m->embedding()));
  const arma::mat Dx = arma::sqrt(sq_distances(X));
  const double err = arma::abs(Dy - Df).max() / Df.max();
  CHECK(err < 0.08);
  CHECK(arma::abs(Dx - Df).max() / Df.max() > 0.5);
  // 2-D: the top two eigenvalues carry nearly all of trace(K).
  const arma::vec ev = arma::sort(arma::eig_sym(K), "descend");
  CHECK(ev(0) + ev(1) > 0.99 * arma::trace(K));
}

TEST_CASE("landmark_mvu with every point a landmark is mvu", "[manifold][mvu][landmark_mvu]") {
  const arma::mat X = helix_chain(40);
  auto full = fit_method("mvu", {{"neighbours", std::int64_t(1)}}, X, 1);
  auto lm = fit_method("landmark_mvu",
                       {{"neighbours", std::int64_t(1)}, {"landmarks", std::int64_t(0)}}, X, 1);
  const double scale = arma::abs(full->embedding()).max();
  CHECK(max_diff_up_to_sign(lm->embedding(), full->embedding()) < 1e-3 * scale);
  Rng rng(5);
  arma::mat flat;
  const arma::mat S = rolled_sheet(rng, 120, flat);
  // On the sheet some edges end up shorter when they may: compare like with like, and the
  // equalities too.
  auto full2 = fit_method("mvu", {{"edge_lengths", std::string("at_most")}}, S, 2);
  auto lm2 = fit_method("landmark_mvu", {{"landmarks", std::int64_t(0)}}, S, 2);
  const double scale2 = arma::abs(full2->embedding()).max();
  // Both maximise the same trace over the same constraints: the same K.
  const arma::mat K1 = full2->embedding().t() * full2->embedding();
  const arma::mat K2 = lm2->embedding().t() * lm2->embedding();
  CHECK(arma::abs(K1 - K2).max() < 1e-2 * scale2 * scale2);
  auto full3 = fit_method("mvu", {}, S, 2);
  auto lm3 =
      fit_method("landmark_mvu",
                 {{"landmarks", std::int64_t(0)}, {"edge_lengths", std::string("kept")}}, S, 2);
  const arma::mat K3 = full3->embedding().t() * full3->embedding();
  const arma::mat K4 = lm3->embedding().t() * lm3->embedding();
  CHECK(arma::abs(K3 - K4).max() < 1e-2 * scale2 * scale2);
}

TEST_CASE("landmark_mvu: reconstruction from the landmarks, kept edges, new points",
          "[manifold][mvu][landmark_mvu]") {
  Rng rng(7);
  arma::mat flat;
  const arma::mat X = rolled_sheet(rng, 300, flat);
  // Q: landmarks map to themselves, every row sums to 1 (the weights are affine), and points on
  // a plane are reconstructed from the landmarks nearly exactly.
  const arma::uvec idx = arma::regspace<arma::uvec>(0, 10, 299);
  const arma::mat Q = landmark_reconstruction(X, idx, 6, 1e-3);
  CHECK(arma::abs(Q.rows(idx) - arma::eye(idx.n_elem, idx.n_elem)).max() < 1e-12);
  CHECK(arma::abs(arma::sum(Q, 1) - 1.0).max() < 1e-9);
  arma::mat P, R;
  arma::qr_econ(P, R, rng.randn(5, 5));
  const arma::mat Xp = P.head_cols(2) * flat;
  const arma::mat Qp = landmark_reconstruction(Xp, idx, 6, 1e-6);
  CHECK(arma::abs(Xp.cols(idx) * Qp.t() - Xp).max() < 1e-3);

  auto m = fit_method("landmark_mvu", {{"landmarks", std::int64_t(30)}}, X, 2);
  const auto& lm = dynamic_cast<const LandmarkMvu&>(*m);
  CHECK(lm.max_violation() < 1e-5);
  const arma::mat Y = m->embedding();
  CHECK(Y.is_finite());
  CHECK(arma::abs(m->transform(X) - Y).max() < 1e-12);
  // The landmark embedding still unrolls the sheet, more loosely than MVU (every point is tied to
  // the landmarks' reconstruction).
  const arma::mat Df = arma::sqrt(sq_distances(flat)), Dy = arma::sqrt(sq_distances(Y));
  CHECK(arma::abs(Dy - Df).max() / Df.max() < 0.25);
  // Equalities through 30 landmarks cannot hold on the sheet: refused with the fix.
  CHECK_THROWS_WITH(
      fit_method("landmark_mvu",
                 {{"landmarks", std::int64_t(30)}, {"edge_lengths", std::string("kept")}}, X, 2),
      Catch::Contains("set 'edge_lengths: at_most'"));
  // maxmin landmarks too.
  auto mm = fit_method(
      "landmark_mvu", {{"landmarks", std::int64_t(30)}, {"landmark_choice", std::string("maxmin")}},
      X, 2);
  CHECK(mm->embedding().is_finite());
}

TEST_CASE("mvu and landmark_mvu estimates refuse SDPs that cannot fit", "[manifold][mvu]") {
  const MethodInfo& mvu = Registry::instance().get("mvu");
  const ParamSet p = mvu.complete({});
  DataShape small{200, 10, 0, 0}, big{20000, 10, 0, 0};
  CHECK(memory_of(mvu, small, p, 2) < 1e9);
  // 20,000 points: a 120,000 x 120,000 Schur matrix (107 GiB) besides the 20,000^2 K.
  CHECK(memory_of(mvu, big, p, 2) > 100e9);
  CHECK(!mvu.advise(big, p).empty());
  CHECK(mvu.advise(small, p).empty());
  CHECK(cost_of(mvu, big, p, 2) > 1e3 * cost_of(mvu, small, p, 2));
  // Landmark MVU still has a constraint per edge: its estimate is of the same order.
  const MethodInfo& lm = Registry::instance().get("landmark_mvu");
  const ParamSet q = lm.complete({});
  CHECK(memory_of(lm, small, q, 2) < memory_of(mvu, small, p, 2) * 2);
  CHECK(memory_of(lm, big, q, 2) > 100e9);
}
