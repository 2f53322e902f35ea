// Linear-time DEE and DSNE: the class-split Barnes-Hut sums against brute force, the objectives at
// theta = 0 against the dense objectives of the same (sparse) model, finite differences, the
// error at theta = 0.5, the class-restricted sparse weights against the dense ones, fits that
// separate blobs with the same bits on 1 and 2 threads, validation and the memory model.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>

#include "framework/affinity/class_neighbour_graph.hpp"
#include "framework/affinity/weights.hpp"
#include "framework/budget/budget.hpp"
#include "framework/eval/knn.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/nbody/class_split_repulsion.hpp"
#include "framework/optim/grad_check.hpp"
#include "methods/neighbour/dee/dee.hpp"
#include "methods/neighbour/dee/dee_bh_objective.hpp"
#include "methods/neighbour/dee/dee_objective.hpp"
#include "methods/neighbour/dsne/dsne.hpp"
#include "methods/neighbour/dsne/dsne_bh_objective.hpp"
#include "methods/neighbour/dsne/dsne_objective.hpp"
#include "methods/neighbour/linear_embedding.hpp"
#include "unit/linear_support.hpp"
#include "unit/neighbour_helpers.hpp"

using namespace drbench;
using drbench::testing::exact_graph;
using drbench::testing::make_problem;
using drbench::testing::Problem;

namespace {

// At theta = 0 the linear-time objective must equal the dense one of the same sparse model at a,
// and its gradient must be the exact gradient of its own E; returns the dense E and gradient.
template <class Dense, class Bh>
double check_theta_zero(Dense& dense, Bh& bh, const arma::vec& a, arma::vec& gd) {
  arma::vec gb;
  const double Ed = dense.evaluate(a, &gd), Eb = bh.evaluate(a, &gb);
  CHECK(Eb == Approx(Ed).epsilon(1e-11));
  CHECK(arma::abs(gb - gd).max() < 1e-10 * arma::abs(gd).max());
  CHECK(check_gradient(bh, a, 1e-4).max_rel_error < 1e-6);
  return Ed;
}

// Brute-force class-split sums, straight from their definitions.
void brute_elastic(const arma::mat& Y, const arma::mat& X, const arma::uvec& y, arma::vec& e,
                   arma::mat& F) {
  const arma::uword n = Y.n_cols;
  e.zeros(n);
  F.zeros(Y.n_rows, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) {
      if (y(i) == y(j)) continue;
      const double k = arma::accu(arma::square(X.col(i) - X.col(j))) *
                       std::exp(-arma::accu(arma::square(Y.col(i) - Y.col(j))));
      e(i) += k;
      F.col(i) += k * (Y.col(i) - Y.col(j));
    }
}

ClassSplitStudentSums brute_student(const arma::mat& Y, const arma::uvec& y) {
  const arma::uword n = Y.n_cols;
  ClassSplitStudentSums s;
  s.z_same.zeros(n);
  s.z_diff.zeros(n);
  s.f_same.zeros(Y.n_rows, n);
  s.f_diff.zeros(Y.n_rows, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j) {
      if (i == j) continue;
      const double u = 1.0 / (1.0 + arma::accu(arma::square(Y.col(i) - Y.col(j))));
      if (y(i) == y(j)) {
        s.z_same(i) += u;
        s.f_same.col(i) += u * u * (Y.col(i) - Y.col(j));
      } else {
        s.z_diff(i) += u;
        s.f_diff.col(i) += u * u * (Y.col(i) - Y.col(j));
      }
    }
  return s;
}

double rel_max(const arma::mat& a, const arma::mat& b) {
  return arma::abs(a - b).max() / arma::abs(b).max();
}

// The dense DEE objective of the same sparse model: w+ densified, w- = |x_nm|^2 on
// different-class pairs, lambda the raw one (any balancing scale included).
DeeObjective dee_dense_twin(const Problem& p, const arma::sp_mat& Wp, double lambda,
                            arma::uword dim) {
  arma::mat Wm = sq_distances(p.X) % class_mask(p.y, ClassPairs::Different);
  return DeeObjective(p.X, arma::mat(Wp), Wm, lambda, dim);
}

}  // namespace

TEST_CASE("class-split Barnes-Hut sums: theta 0 is the brute-force sum, theta 0.5 close",
          "[dee_bh][linalg]") {
  const Problem p = make_problem(11, 7, 4, 60, 2.0);
  Rng rng(12);
  for (arma::uword dim : {1u, 2u, 3u}) {
    INFO("dim " << dim);
    const arma::mat Y = 2.0 * rng.randn(dim, p.X.n_cols);
    arma::vec eb, e0, e5;
    arma::mat Fb, F0, F5;
    brute_elastic(Y, p.X, p.y, eb, Fb);
    elastic_repulsion_between_classes(Y, p.X, p.y, 4, 0.0, 1, e0, F0);
    CHECK(rel_max(e0, eb) < 1e-12);
    CHECK(rel_max(F0, Fb) < 1e-12);
    elastic_repulsion_between_classes(Y, p.X, p.y, 4, 0.5, 1, e5, F5);
    CHECK(std::abs(arma::accu(e5) / arma::accu(eb) - 1.0) < 2e-2);
    CHECK(rel_max(F5, Fb) < 0.1);
    const ClassSplitStudentSums sb = brute_student(Y, p.y);
    const ClassSplitStudentSums s0 = student_t_sums_by_class(Y, p.y, 4, 0.0, 1);
    CHECK(rel_max(s0.z_same, sb.z_same) < 1e-12);
    CHECK(rel_max(s0.z_diff, sb.z_diff) < 1e-12);
    CHECK(rel_max(s0.f_same, sb.f_same) < 1e-12);
    CHECK(rel_max(s0.f_diff, sb.f_diff) < 1e-12);
    const ClassSplitStudentSums s5 = student_t_sums_by_class(Y, p.y, 4, 0.5, 2);
    CHECK(std::abs(arma::accu(s5.z_same) / arma::accu(sb.z_same) - 1.0) < 1e-2);
    CHECK(std::abs(arma::accu(s5.z_diff) / arma::accu(sb.z_diff) - 1.0) < 1e-2);
    CHECK(rel_max(s5.f_same, sb.f_same) < 0.05);
    CHECK(rel_max(s5.f_diff, sb.f_diff) < 0.05);
    // Threads: the same bits.
    const ClassSplitStudentSums s1 = student_t_sums_by_class(Y, p.y, 4, 0.5, 1);
    CHECK(arma::abs(s1.f_diff - s5.f_diff).max() == 0.0);
    arma::vec e52;
    arma::mat F52;
    elastic_repulsion_between_classes(Y, p.X, p.y, 4, 0.5, 2, e52, F52);
    CHECK(arma::abs(F52 - F5).max() == 0.0);
  }
}

TEST_CASE("pair distance totals equal the dense sums", "[dee_bh]") {
  const Problem p = make_problem(13, 5, 3, 17, 1.0);
  const arma::mat D2 = sq_distances(p.X);
  const arma::mat same = class_mask(p.y, ClassPairs::Same);
  const PairDistanceTotals t = pair_distance_totals(p.X, p.y);
  CHECK(t.all == Approx(arma::accu(D2)).epsilon(1e-12));
  CHECK(t.same == Approx(arma::accu(D2 % same)).epsilon(1e-12));
  CHECK(t.same_pairs == arma::accu(same));
  CHECK(t.all_pairs == double(p.X.n_cols) * (p.X.n_cols - 1));
}

TEST_CASE("class neighbour graphs: edges stay in (or across) classes and are the nearest",
          "[dee_bh][linalg]") {
  const Problem p = make_problem(14, 6, 3, 20, 1.0);
  const arma::mat D2 = sq_distances(p.X);
  const arma::uword k = 4;
  for (ClassPairs which : {ClassPairs::Same, ClassPairs::Different}) {
    const GraphOptions go = exact_graph();
    const arma::sp_mat G = class_neighbour_graph(p.X, p.y, 3, k, which, go);
    const arma::mat mask = class_mask(p.y, which);
    CHECK(arma::approx_equal(arma::mat(G), arma::mat(G.t()), "absdiff", 0.0));
    for (arma::sp_mat::const_iterator it = G.begin(); it != G.end(); ++it) {
      CHECK(mask(it.row(), it.col()) == 1.0);
      CHECK(*it == Approx(D2(it.row(), it.col())).epsilon(1e-10));
    }
    // Each point's k nearest candidates are among its edges.
    for (arma::uword i = 0; i < p.X.n_cols; ++i) {
      arma::vec d = D2.col(i);
      d.elem(arma::find(mask.col(i) == 0)).fill(arma::datum::inf);
      const arma::uvec nearest = arma::sort_index(d);
      for (arma::uword t = 0; t < k; ++t) CHECK(G(nearest(t), i) > 0);
    }
  }
}

TEST_CASE("sparse DEE and DSNE weights equal the dense ones on their edges", "[dee_bh]") {
  const Problem p = make_problem(15, 6, 3, 15, 1.5);
  const GraphOptions go = exact_graph();
  double sigma = 0.0;
  const DeeWeights dense = dee_weights(p.X, p.y, keywords::KernelWidth{});
  const arma::sp_mat W = dee_sparse_weights(p.X, p.y, 3, 5, keywords::KernelWidth{}, go, &sigma);
  CHECK(sigma == Approx(dense.kernel_width).epsilon(1e-12));
  for (arma::sp_mat::const_iterator it = W.begin(); it != W.end(); ++it)
    CHECK(*it == Approx(dense.Wp(it.row(), it.col())).epsilon(1e-10));
  // With every same-class point a neighbour the sparse w+ is the dense one.
  const arma::sp_mat Wall =
      dee_sparse_weights(p.X, p.y, 3, 100, keywords::KernelWidth{}, go, nullptr);
  CHECK(arma::abs(arma::mat(Wall) - dense.Wp).max() < 1e-12);
  // DSNE: each group sums to one; with all pairs kept the sparse P is the dense P.
  const arma::sp_mat P = dsne_sparse_similarities(p.X, p.y, 3, 5, keywords::KernelWidth{}, go);
  const arma::mat Pd(P);
  CHECK(arma::accu(Pd % class_mask(p.y, ClassPairs::Same)) == Approx(1.0).epsilon(1e-12));
  CHECK(arma::accu(Pd % class_mask(p.y, ClassPairs::Different)) == Approx(1.0).epsilon(1e-12));
  const arma::sp_mat Pall =
      dsne_sparse_similarities(p.X, p.y, 3, 1000, keywords::KernelWidth{}, go);
  const arma::mat Pdense = dsne_input_similarities(p.X, p.y, keywords::KernelWidth{});
  CHECK(arma::abs(arma::mat(Pall) - Pdense).max() < 1e-12 * Pdense.max());
}

TEST_CASE("linear-time DEE: theta 0 equals the dense objective; finite differences; theta 0.5",
          "[neighbour][dee][dee_bh]") {
  const Problem p = make_problem(16, 6, 3, 40, 2.0);
  const GraphOptions go = exact_graph();
  const arma::sp_mat Wp = dee_sparse_weights(p.X, p.y, 3, 5, keywords::KernelWidth{}, go, nullptr);
  const double lambda = 0.3;
  Rng rng(17);
  for (arma::uword dim : {1u, 2u, 3u}) {
    INFO("dim " << dim);
    DeeObjective dense = dee_dense_twin(p, Wp, lambda, dim);
    DeeBhObjective bh(p.X, p.y, 3, Wp, lambda, dim, 0.0, 1);
    const arma::vec a = 0.4 * arma::vectorise(rng.randn(dim, p.X.n_rows));
    arma::vec gd;
    const double Ed = check_theta_zero(dense, bh, a, gd);
    // theta = 0.5: the Barnes-Hut estimate, within 1 % in E and 5 % of the largest component.
    DeeBhObjective half(p.X, p.y, 3, Wp, lambda, dim, 0.5, 2);
    arma::vec gh;
    const double Eh = half.evaluate(a, &gh);
    CHECK(std::abs(Eh / Ed - 1.0) < 1e-2);
    CHECK(arma::abs(gh - gd).max() < 5e-2 * arma::abs(gd).max());
  }
  // The directions: the same M as the dense objective of the same w+.
  DeeObjective dense = dee_dense_twin(p, Wp, lambda, 2);
  DeeBhObjective bh(p.X, p.y, 3, Wp, lambda, 2, 0.0, 1);
  const arma::vec g = arma::vectorise(rng.randn(2, p.X.n_rows));
  for (int which = 0; which < 2; ++which) {
    const double m1 = which ? dense.factor_fixed_point(1e-3) : dense.factor_laplacian(1e-3);
    const double m2 = which ? bh.factor_fixed_point(1e-3) : bh.factor_laplacian(1e-3);
    CHECK(m2 == Approx(m1).epsilon(1e-10));
    const arma::vec d1 = dense.preconditioned_direction(g), d2 = bh.preconditioned_direction(g);
    CHECK(arma::abs(d1 - d2).max() < 1e-8 * arma::abs(d1).max());
  }
}

TEST_CASE("linear-time DSNE: theta 0 equals the dense objective; finite differences; theta 0.5",
          "[neighbour][dsne][dee_bh]") {
  const Problem p = make_problem(18, 6, 3, 40, 2.0);
  const GraphOptions go = exact_graph();
  const arma::sp_mat P = dsne_sparse_similarities(p.X, p.y, 3, 6, keywords::KernelWidth{}, go);
  Rng rng(19);
  for (arma::uword dim : {1u, 2u, 3u}) {
    INFO("dim " << dim);
    DsneObjective dense(p.X, p.y, arma::mat(P), dim);
    DsneBhObjective bh(p.X, p.y, 3, P, dim, 0.0, 1);
    const arma::vec a = 0.4 * arma::vectorise(rng.randn(dim, p.X.n_rows));
    arma::vec gd;
    const double Ed = check_theta_zero(dense, bh, a, gd);
    DsneBhObjective half(p.X, p.y, 3, P, dim, 0.5, 2);
    arma::vec gh;
    const double Eh = half.evaluate(a, &gh);
    CHECK(std::abs(Eh - Ed) < 1e-2 * std::abs(Ed));
    CHECK(arma::abs(gh - gd).max() < 5e-2 * arma::abs(gd).max());
  }
}

TEST_CASE("linear-time DEE and DSNE separate blobs, same bits on 1 and 2 threads",
          "[neighbour][dee][dsne][dee_bh]") {
  const Problem p = make_problem(20, 10, 4, 60, 6.0);
  for (const char* name : {"dee", "dsne"}) {
    const MethodInfo& info = Registry::instance().get(name);
    arma::mat Y[2];
    for (unsigned threads : {1u, 2u}) {
      ParamSet ps;
      ps.set("gradient", std::string("barnes_hut"));
      ps.set("neighbours", std::int64_t(8));
      auto m = info.make(info.complete(ps));
      Rng r(7);
      Trace trace;
      FitInput in{p.X, &p.y, 4, 2, r, &trace};
      in.threads = threads;
      m->fit(in);
      Y[threads - 1] = m->embedding();
      INFO(name << " threads " << threads);
      REQUIRE(trace.rows.size() >= 2);
      CHECK(trace.optimizer.find("barnes_hut") != std::string::npos);
      CHECK(trace.rows.back().objective < trace.rows.front().objective);
      // Both are linear maps: the training embedding is A x, and so is a new point's.
      CHECK(arma::approx_equal(m->transform(p.X), Y[threads - 1], "absdiff", 1e-10));
      CHECK(knn_loo_errors(Y[threads - 1], p.y, {1})[0] <= 0.1);
    }
    CHECK(arma::abs(Y[0] - Y[1]).max() == 0.0);
  }
}

TEST_CASE("linear-time DEE and DSNE: validation, auto, memory model", "[dee_bh]") {
  for (const char* name : {"dee", "dsne"}) {
    INFO(name);
    const MethodInfo& info = Registry::instance().get(name);
    ParamSet bh;
    bh.set("gradient", std::string("barnes_hut"));
    CHECK(info.dim_limit(DataShape{100, 10, 2}, info.complete(bh)) == 3);
    CHECK(info.dim_limit(DataShape{100, 10, 2}, info.complete(ParamSet{})) == 10);
    const ParamSet def = info.complete(ParamSet{});
    // The defaults leave the task keys as they were before the linear-time path existed.
    CHECK(def.canonical().find("gradient") == std::string::npos);
    CHECK(def.canonical().find("theta") == std::string::npos);
    // 60,000 x 50-D, 2-D: the dense path needs over 100 GB, the linear-time one under 1 GB.
    const DataShape big{60000, 50, 10, 10000};
    ParamSet ex;
    ex.set("gradient", std::string("exact"));
    CHECK(memory_of(info, big, info.complete(ex), 2) > 1e11);
    CHECK(memory_of(info, big, def, 2) < 1e9);  // auto: barnes_hut at this size
    CHECK(memory_of(info, big, def, 2) > 60000.0 * 50 * 8);
  }
  // DEE's and DSNE's one rule (linear_embedding.hpp).
  CHECK_FALSE(linear_embedding_uses_barnes_hut("auto", 4999, 2));
  CHECK(linear_embedding_uses_barnes_hut("auto", 5000, 2));
  CHECK(linear_embedding_uses_barnes_hut("auto", 5000, 3));
  CHECK_FALSE(linear_embedding_uses_barnes_hut("auto", 5000, 4));
  CHECK_FALSE(linear_embedding_uses_barnes_hut("exact", 50000, 2));
  CHECK(linear_embedding_uses_barnes_hut("barnes_hut", 10, 2));
  // A fit asked for 4 dimensions on Barnes-Hut is refused, naming the fix.
  const Problem p = make_problem(21, 6, 2, 10, 2.0);
  ParamSet bh;
  bh.set("gradient", std::string("barnes_hut"));
  CHECK_THROWS_WITH(testing::fit_method("dee", p.X, &p.y, 2, 4, bh),
                    Catch::Contains("gradient: exact"));
}

TEST_CASE("linear-time DEE, attraction all_pairs: the dense model's scatter; theta 0 is dense DEE",
          "[neighbour][dee][dee_bh]") {
  // Several column blocks per class (kBlock 512), so the blocking itself is checked.
  const Problem p = make_problem(22, 5, 2, 600, 2.0);
  const DeeWeights w = dee_weights(p.X, p.y, keywords::KernelWidth{});
  arma::mat S, Sd;
  double total = 0.0, sigma = 0.0;
  dee_all_pairs_scatter(p.X, p.y, 2, keywords::KernelWidth{}, S, Sd, &total, &sigma);
  const arma::rowvec deg = arma::sum(w.Wp, 0);
  const arma::mat Sd_ref = (p.X.each_row() % deg) * p.X.t();
  const arma::mat S_ref = Sd_ref - (p.X * w.Wp) * p.X.t();
  CHECK(sigma == Approx(w.kernel_width).epsilon(1e-12));
  CHECK(total == Approx(arma::accu(w.Wp)).epsilon(1e-11));
  CHECK(rel_max(Sd, Sd_ref) < 1e-11);
  CHECK(rel_max(S, S_ref) < 1e-11);
  // The objective at theta 0 is the dense path's (balanced scale included).
  // (Dee::fit gives the dense objective w- scaled and lambda 1, the linear-time one the scale.)
  const double lambda = arma::accu(w.Wp) / arma::accu(w.Wm);
  DeeObjective dense_scaled(p.X, w.Wp, w.Wm * lambda, 1.0, 2);
  DeeBhObjective bh(p.X, p.y, 2, S, Sd, lambda, 2, 0.0, 1);
  Rng rng(23);
  const arma::vec a = 0.3 * arma::vectorise(rng.randn(2, p.X.n_rows));
  arma::vec gd, gb;
  const double Ed = dense_scaled.evaluate(a, &gd), Eb = bh.evaluate(a, &gb);
  CHECK(Eb == Approx(Ed).epsilon(1e-10));
  CHECK(arma::abs(gb - gd).max() < 1e-9 * arma::abs(gd).max());
  // Validation: all_pairs belongs to the linear-time path.
  const MethodInfo& info = Registry::instance().get("dee");
  ParamSet bad;
  bad.set("gradient", std::string("exact"));
  bad.set("attraction", std::string("all_pairs"));
  CHECK_THAT(info.check_setting(info.complete(bad)), Catch::Contains("gradient: barnes_hut"));
  // A fit on it separates blobs.
  const Problem q = make_problem(24, 10, 4, 60, 6.0);
  ParamSet ps;
  ps.set("gradient", std::string("barnes_hut"));
  ps.set("attraction", std::string("all_pairs"));
  Trace trace;
  Rng r(3);
  auto m = info.make(info.complete(ps));
  m->fit(FitInput{q.X, &q.y, 4, 2, r, &trace});
  CHECK(knn_loo_errors(m->embedding(), q.y, {1})[0] <= 0.1);
  CHECK(trace.rows.back().objective < trace.rows.front().objective);
}
