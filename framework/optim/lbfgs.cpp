// L-BFGS with a strong-Wolfe line search, after Nocedal & Wright (2006), Algorithms 3.5, 3.6, 7.4
// and 7.5. Used where the GP-LVM papers' SCG is slow to converge and as an independent check that
// SCG reaches the same optimum.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>

#include "framework/core/time_limit.hpp"
#include "framework/optim/optimizer.hpp"

namespace drbench {

namespace {

struct Point {
  double a = 0.0;  // step length
  double f = 0.0;  // phi(a)
  double d = 0.0;  // phi'(a) = g(x + a p) . p
  arma::vec g;     // full gradient at x + a p
};

class LineSearch {
 public:
  LineSearch(Objective& obj, const arma::vec& x, const arma::vec& p, int& evals)
      : obj_(obj), x_(x), p_(p), evals_(evals) {}

  Point eval(double a) {
    Point pt;
    pt.a = a;
    pt.f = obj_.evaluate(x_ + a * p_, &pt.g);
    ++evals_;
    pt.d = std::isfinite(pt.f) ? arma::dot(pt.g, p_) : NAN;
    return pt;
  }

  // Returns true and the accepted point when the strong Wolfe conditions hold (or, failing that
  // after many trials, when at least sufficient decrease does).
  bool search(const Point& p0, double a1, Point& out) {
    const double c1 = 1e-4, c2 = 0.9, a_max = 1e10;
    Point prev = p0;
    double a = a1;
    for (int i = 1; i <= 25; ++i) {
      Point cur = eval(a);
      if (!std::isfinite(cur.f) || cur.f > p0.f + c1 * a * p0.d || (i > 1 && cur.f >= prev.f))
        return zoom(p0, prev, cur, out);
      if (std::abs(cur.d) <= -c2 * p0.d) {
        out = cur;
        return true;
      }
      if (cur.d >= 0) return zoom(p0, cur, prev, out);
      prev = cur;
      a = std::min(2.0 * a, a_max);
    }
    out = prev;
    return prev.a > 0;
  }

 private:
  bool zoom(const Point& p0, Point lo, Point hi, Point& out) {
    const double c1 = 1e-4, c2 = 0.9;
    for (int j = 0; j < 30; ++j) {
      double a = interpolate(lo, hi);
      Point cur = eval(a);
      if (!std::isfinite(cur.f) || cur.f > p0.f + c1 * a * p0.d || cur.f >= lo.f) {
        hi = cur;
      } else {
        if (std::abs(cur.d) <= -c2 * p0.d) {
          out = cur;
          return true;
        }
        if (cur.d * (hi.a - lo.a) >= 0) hi = lo;
        lo = cur;
      }
      if (std::abs(hi.a - lo.a) < 1e-16 * std::max(1.0, lo.a)) break;
    }
    // Interval collapsed: accept lo if it decreased the objective at all (sufficient decrease
    // holds for every lo by construction, except the initial a = 0).
    out = lo;
    return lo.a > 0;
  }

  // Safeguarded cubic interpolation (N&W eq. 3.59); bisection when the cubic is unusable.
  static double interpolate(const Point& lo, const Point& hi) {
    const double mid = 0.5 * (lo.a + hi.a);
    if (!std::isfinite(hi.f) || !std::isfinite(hi.d)) return mid;
    const double d1 = lo.d + hi.d - 3.0 * (lo.f - hi.f) / (lo.a - hi.a);
    const double disc = d1 * d1 - lo.d * hi.d;
    if (!(disc >= 0)) return mid;
    const double d2 = (hi.a > lo.a ? 1.0 : -1.0) * std::sqrt(disc);
    const double denom = hi.d - lo.d + 2.0 * d2;
    if (denom == 0) return mid;
    const double a = hi.a - (hi.a - lo.a) * (hi.d + d2 - d1) / denom;
    const double left = std::min(lo.a, hi.a), right = std::max(lo.a, hi.a);
    const double margin = 0.1 * (right - left);
    if (!std::isfinite(a) || a < left + margin || a > right - margin) return mid;
    return a;
  }

  Objective& obj_;
  const arma::vec& x_;
  const arma::vec& p_;
  int& evals_;
};

}  // namespace

OptimResult lbfgs(Objective& obj, const arma::vec& x0, const OptimOptions& opt, int memory) {
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  OptimResult res;
  arma::vec x = x0, g;
  double f = obj.evaluate(x, &g);
  res.evaluations = 1;
  if (opt.trace) {
    opt.trace->optimizer = "lbfgs";
    opt.trace->log(0, f, arma::norm(g), seconds());
  }
  auto finish = [&](const std::string& why) {
    res.x = x;
    res.f = f;
    res.stop_reason = why;
    if (opt.trace) opt.trace->note("stop_reason", why);
    return res;
  };
  if (!std::isfinite(f) || !g.is_finite()) return finish("failed");
  if (arma::abs(g).max() == 0) return finish("gradient_zero");

  std::deque<arma::vec> S, Y;
  std::deque<double> rho;
  for (int k = 1; k <= opt.max_iterations; ++k) {
    res.iterations = k;
    // Two-loop recursion: p = -H g.
    arma::vec q = g;
    std::vector<double> alpha(S.size());
    for (int i = int(S.size()) - 1; i >= 0; --i) {
      alpha[i] = rho[i] * arma::dot(S[i], q);
      q -= alpha[i] * Y[i];
    }
    if (!S.empty()) q *= arma::dot(S.back(), Y.back()) / arma::dot(Y.back(), Y.back());
    for (std::size_t i = 0; i < S.size(); ++i) {
      const double b = rho[i] * arma::dot(Y[i], q);
      q += (alpha[i] - b) * S[i];
    }
    arma::vec p = -q;
    Point p0;
    p0.f = f;
    p0.d = arma::dot(g, p);
    if (!(p0.d < 0)) {  // not a descent direction (numerical trouble): restart from -g
      S.clear();
      Y.clear();
      rho.clear();
      p = -g;
      p0.d = -arma::dot(g, g);
    }
    const double a1 = S.empty() ? std::min(1.0, 1.0 / arma::norm(g)) : 1.0;
    LineSearch ls(obj, x, p, res.evaluations);
    Point acc;
    if (!ls.search(p0, a1, acc)) {
      if (opt.trace) opt.trace->log(k, f, arma::norm(g), seconds());
      return finish("line_search_failed");
    }
    const arma::vec s = acc.a * p;
    const arma::vec y = acc.g - g;
    const double f_prev = f;
    x += s;
    f = acc.f;
    g = acc.g;
    if (opt.trace) opt.trace->log(k, f, arma::norm(g), seconds());
    check_task_deadline(k);

    const double sy = arma::dot(s, y);
    if (sy > 1e-10 * arma::norm(s) * arma::norm(y)) {  // keep H positive definite
      S.push_back(s);
      Y.push_back(y);
      rho.push_back(1.0 / sy);
      if (int(S.size()) > memory) {
        S.pop_front();
        Y.pop_front();
        rho.pop_front();
      }
    }
    if (arma::abs(g).max() == 0) return finish("gradient_zero");
    if (opt.g_tol > 0 && arma::abs(g).max() < opt.g_tol) return finish("gradient_tolerance");
    if (arma::abs(s).max() < opt.x_tol && std::abs(f - f_prev) < opt.f_tol)
      return finish("x_and_f_tolerance");
  }
  return finish("max_iterations");
}

}  // namespace drbench
