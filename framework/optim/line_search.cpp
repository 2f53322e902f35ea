#include "framework/optim/line_search.hpp"

#include <algorithm>
#include <cmath>

namespace drbench {

LinePoint LineFunction::operator()(double a) {
  LinePoint pt;
  pt.a = a;
  pt.f = obj_.evaluate(x_ + a * p_, &pt.g);
  ++evals_;
  pt.d = std::isfinite(pt.f) ? arma::dot(pt.g, p_) : NAN;
  return pt;
}

LinePoint LineFunction::origin(double f, const arma::vec& g) const {
  LinePoint pt;
  pt.a = 0.0;
  pt.f = f;
  pt.d = arma::dot(g, p_);
  pt.g = g;
  return pt;
}

bool satisfies_armijo(const LinePoint& p0, const LinePoint& pt, double c) {
  return std::isfinite(pt.f) && pt.f <= p0.f + c * pt.a * p0.d;
}

namespace {

bool curvature_ok(const LinePoint& p0, const LinePoint& pt, const WolfeOptions& opt) {
  return opt.strong ? std::abs(pt.d) <= -opt.c2 * p0.d : pt.d >= opt.c2 * p0.d;
}

// Safeguarded cubic interpolation (N&W eq. 3.59); bisection when the cubic is unusable.
double interpolate(const LinePoint& lo, const LinePoint& hi) {
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

bool zoom(LineFunction& phi, const LinePoint& p0, LinePoint lo, LinePoint hi,
          const WolfeOptions& opt, LinePoint& out) {
  for (int j = 0; j < opt.max_zoom; ++j) {
    const double a = interpolate(lo, hi);
    LinePoint cur = phi(a);
    if (!satisfies_armijo(p0, cur, opt.c1) || cur.f >= lo.f) {
      hi = cur;
    } else {
      if (curvature_ok(p0, cur, opt)) {
        out = cur;
        return true;
      }
      if (cur.d * (hi.a - lo.a) >= 0) hi = lo;
      lo = cur;
    }
    if (std::abs(hi.a - lo.a) < 1e-16 * std::max(1.0, lo.a)) break;
  }
  // Interval collapsed: lo met sufficient decrease by construction, unless it is still a = 0.
  out = lo;
  return lo.a > 0;
}

}  // namespace

bool satisfies_wolfe(const LinePoint& p0, const LinePoint& pt, const WolfeOptions& opt) {
  return satisfies_armijo(p0, pt, opt.c1) && curvature_ok(p0, pt, opt);
}

bool wolfe_search(LineFunction& phi, const LinePoint& p0, double a1, const WolfeOptions& opt,
                  LinePoint& out) {
  LinePoint prev = p0;
  double a = a1;
  for (int i = 1; i <= opt.max_bracket; ++i) {
    LinePoint cur = phi(a);
    if (!satisfies_armijo(p0, cur, opt.c1) || (i > 1 && cur.f >= prev.f))
      return zoom(phi, p0, prev, cur, opt, out);
    if (curvature_ok(p0, cur, opt)) {
      out = cur;
      return true;
    }
    if (cur.d >= 0) return zoom(phi, p0, cur, prev, opt, out);
    prev = cur;
    a = std::min(2.0 * a, opt.a_max);
  }
  out = prev;
  return prev.a > 0;
}

bool armijo_search(LineFunction& phi, const LinePoint& p0, double a0, const ArmijoOptions& opt,
                   LinePoint& out) {
  double a = a0;
  for (int i = 0; i < opt.max_steps; ++i) {
    out = phi(a);
    if (satisfies_armijo(p0, out, opt.c)) return true;
    a *= opt.rho;
  }
  return false;
}

}  // namespace drbench
