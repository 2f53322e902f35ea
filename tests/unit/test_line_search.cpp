// Line searches and the optimiser seam: accepted steps meet the conditions the search promises,
// the table dispatches, directions from the objective are followed, callbacks stop and phases run.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "framework/optim/line_search.hpp"
#include "framework/optim/optimizer.hpp"
#include "tests/unit/optim_helpers.hpp"

using namespace drbench;

namespace {

using testing::rosenbrock;

arma::vec random_point(std::mt19937& gen, arma::uword n) {
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  arma::vec x(n);
  for (auto& v : x) v = u(gen);
  return x;
}

// Rosenbrock along steepest descent from a random point: the line a search walks and its origin.
struct DescentLine {
  FunctionObjective obj{rosenbrock};
  arma::vec x, g;
  double f;
  arma::vec p;
  int evals = 0;
  LineFunction phi;
  LinePoint p0;
  DescentLine(std::mt19937& gen, arma::uword n)
      : x(random_point(gen, n)),
        f(obj.evaluate(x, &g)),
        p(-g),
        phi(obj, x, p, evals),
        p0(phi.origin(f, g)) {}
};

// check(line, a, b) on 20 descent lines of dimension n for each pair (a, b) of option values, the
// lines drawn in turn from one generator seeded `seed`.
template <class A, class B, class F>
void on_descent_lines(unsigned seed, arma::uword n, std::initializer_list<A> as,
                      std::initializer_list<B> bs, F&& check) {
  std::mt19937 gen(seed);
  for (const A a : as)
    for (const B b : bs)
      for (int trial = 0; trial < 20; ++trial) {
        DescentLine l(gen, n);
        INFO("trial " << trial);
        check(l, a, b);
      }
}

}  // namespace

TEST_CASE("Wolfe searches return steps that meet their conditions", "[optim][line_search]") {
  on_descent_lines(7, 6, {true, false}, {0.1, 0.9}, [](DescentLine& l, bool strong, double c2) {
    WolfeOptions o;
    o.strong = strong;
    o.c2 = c2;
    LinePoint acc;
    REQUIRE(wolfe_search(l.phi, l.p0, 1.0 / arma::norm(l.p), o, acc));
    INFO("strong=" << strong << " c2=" << c2 << " a=" << acc.a);
    CHECK(satisfies_wolfe(l.p0, acc, o));
    CHECK(acc.f < l.f);
    // The point carries its own gradient, as the optimisers rely on.
    arma::vec g_acc;
    CHECK(l.obj.evaluate(l.x + acc.a * l.p, &g_acc) == acc.f);
    CHECK(arma::approx_equal(g_acc, acc.g, "absdiff", 0.0));
  });
}

TEST_CASE("Strong Wolfe is stricter than weak Wolfe", "[optim][line_search]") {
  // phi(a) = (a - 1)^2 - 1 along p = 1 from x = 0: phi'(0) = -2. At a = 1.9, phi' = 1.8 > 0:
  // weak curvature holds (1.8 >= -0.2), strong does not (|1.8| > 0.2).
  FunctionObjective obj([](const arma::vec& x, arma::vec* g) {
    if (g) *g = 2 * (x - 1);
    return arma::dot(x - 1, x - 1) - 1;
  });
  LinePoint p0{0.0, 0.0, -2.0, arma::vec{-2.0}};
  LinePoint pt{1.9, 0.81 - 1, 1.8, arma::vec{1.8}};
  WolfeOptions o;
  o.c2 = 0.1;
  o.strong = false;
  CHECK(satisfies_wolfe(p0, pt, o));
  o.strong = true;
  CHECK(!satisfies_wolfe(p0, pt, o));
}

TEST_CASE("Backtracking Armijo starts from the given step and shrinks by rho",
          "[optim][line_search]") {
  on_descent_lines(11, 4, {1e-4, 0.1}, {0.5, 0.8}, [](DescentLine& l, double c, double rho) {
    ArmijoOptions o;
    o.c = c;
    o.rho = rho;
    LinePoint acc;
    const double a0 = 1.0;  // far too long for Rosenbrock's gradient: must backtrack
    REQUIRE(armijo_search(l.phi, l.p0, a0, o, acc));
    CHECK(satisfies_armijo(l.p0, acc, c));
    // Accepted step is a0 rho^(evals-1), and the previous trial (a / rho) was rejected.
    CHECK(acc.a == Approx(a0 * std::pow(rho, l.evals - 1)).epsilon(1e-12));
    if (l.evals > 1) {
      LinePoint before = l.phi(acc.a / rho);
      CHECK(!satisfies_armijo(l.p0, before, c));
    }
  });
}

TEST_CASE("The optimiser table dispatches and refuses what it cannot honour", "[optim]") {
  for (const char* n : {"scg", "lbfgs", "gd", "cg", "descent"}) CHECK(find_optimizer(n));
  FunctionObjective obj(rosenbrock);
  CHECK_THROWS_WITH(minimize("newton", obj, arma::vec{0.0, 0.0}),
                    Catch::Contains("known: scg, lbfgs, gd, cg, descent"));
  CHECK_THROWS_WITH(minimize("descent", obj, arma::vec{0.0, 0.0}),
                    Catch::Contains("search direction"));
  OptimOptions o;
  o.phases = {{"a", 3, nullptr}, {"b", 3, nullptr}};
  CHECK_THROWS_WITH(minimize("lbfgs", obj, arma::vec{0.0, 0.0}, o), Catch::Contains("phases"));
}

TEST_CASE("gd, cg and descent minimise an ill-conditioned quadratic", "[optim]") {
  // f = 1/2 x'Ax - b'x; with the exact Newton direction -A^-1 g, descent takes one step of 1.
  arma::mat Q;
  arma::mat R;
  arma::qr_econ(Q, R, arma::reshape(arma::linspace(0.1, 3.0, 36), 6, 6) + arma::eye(6, 6));
  const arma::mat A = Q * arma::diagmat(arma::logspace(0, 2, 6)) * Q.t();
  const arma::vec b = arma::linspace(-1, 1, 6), xstar = arma::solve(A, b);
  FunctionObjective obj([&](const arma::vec& x, arma::vec* g) {
    if (g) *g = A * x - b;
    return 0.5 * arma::dot(x, A * x) - arma::dot(b, x);
  });
  OptimOptions o;
  o.max_iterations = 5000;
  o.x_tol = 0;
  o.f_tol = 0;
  o.g_tol = 1e-7;
  for (const char* n : {"gd", "cg"}) {
    Trace t;
    o.trace = &t;
    OptimResult r = minimize(n, obj, arma::zeros(6), o);
    INFO(n << " " << r.stop_reason << " " << r.iterations);
    CHECK(r.stop_reason == "gradient_tolerance");
    CHECK(arma::norm(r.x - xstar) < 1e-6 * arma::norm(xstar));
    CHECK(t.optimizer == n);
    for (std::size_t i = 1; i < t.rows.size(); ++i) {
      CHECK(t.rows[i].objective <= t.rows[i - 1].objective);
      CHECK(t.rows[i].step > 0);
    }
  }
  OptimOptions d = o;
  d.trace = nullptr;
  d.direction = [&](const arma::vec&, const arma::vec& g) { return arma::vec(-arma::solve(A, g)); };
  OptimResult r = minimize("descent", obj, arma::zeros(6), d);
  CHECK(r.iterations == 1);
  CHECK(arma::norm(r.x - xstar) < 1e-10 * arma::norm(xstar));
  // The same direction as a preconditioner makes CG converge in one step as well.
  r = minimize("cg", obj, arma::zeros(6), d);
  CHECK(r.iterations == 1);
}

TEST_CASE("A direction that is not downhill falls back to steepest descent", "[optim]") {
  FunctionObjective obj(rosenbrock);
  OptimOptions o;
  o.max_iterations = 50;
  Trace t;
  o.trace = &t;
  o.direction = [](const arma::vec&, const arma::vec& g) { return arma::vec(g); };  // uphill
  OptimResult r = minimize("descent", obj, arma::vec{-1.2, 1.0}, o);
  CHECK(r.f < rosenbrock(arma::vec{-1.2, 1.0}, nullptr));
  bool noted = false;
  for (const auto& [k, v] : t.notes) noted = noted || k == "steepest_descent_fallbacks";
  CHECK(noted);
}

TEST_CASE("Callbacks stop a run, phases re-evaluate the objective", "[optim]") {
  double scale = 10.0;  // the objective's "exaggeration", changed by the second phase
  int changed_at = -1;
  const arma::vec w{1.0, 3.0, 10.0};  // anisotropic, so no line search lands on 0 exactly
  FunctionObjective obj([&](const arma::vec& x, arma::vec* g) {
    if (g) *g = scale * (w % x);
    return 0.5 * scale * arma::dot(x, w % x);
  });
  OptimOptions o;
  o.x_tol = o.f_tol = 0;
  o.max_iterations = 20;
  Trace t;
  o.trace = &t;
  o.phases = {{"exaggerated", 4, [&] { scale = 10.0; }}, {"plain", 0, [&] { scale = 1.0; }}};
  int seen = 0;
  o.callback = [&](const IterationInfo& it) {
    if (changed_at < 0 && scale == 1.0) changed_at = it.iteration;
    return ++seen < 7;
  };
  OptimResult r = minimize("gd", obj, arma::vec{1.0, -2.0, 0.5}, o);
  CHECK(r.stop_reason == "callback");
  CHECK(r.iterations == 7);
  CHECK(changed_at == 5);
  int phase_notes = 0;
  for (const auto& [k, v] : t.notes) phase_notes += k == "phase";
  CHECK(phase_notes == 2);
  CHECK(t.notes[1].second == "plain@4");
}
