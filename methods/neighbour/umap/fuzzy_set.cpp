#include "methods/neighbour/umap/fuzzy_set.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "framework/support/parallel.hpp"

namespace drbench::umap {

namespace {
constexpr double kSmoothTolerance = 1e-5;
constexpr double kMinDistScale = 1e-3;
constexpr int kBisections = 64;
}  // namespace

SmoothKnn smooth_knn(const arma::mat& dist, double target, double local_connectivity,
                     unsigned threads) {
  const arma::uword k = dist.n_rows, n = dist.n_cols;
  SmoothKnn s;
  s.rho.zeros(n);
  s.sigma.zeros(n);
  const double mean_all = dist.n_elem > 0 ? arma::mean(arma::vectorise(dist)) : 0.0;
  // Each column writes its own rho and sigma: the same bits for any thread count.
  parallel_for(n, threads, [&](std::size_t i) {
    const double* d = dist.colptr(i);
    std::vector<double> nz;
    nz.reserve(k);
    for (arma::uword j = 0; j < k; ++j)
      if (d[j] > 0.0) nz.push_back(d[j]);
    double rho = 0.0;
    if (double(nz.size()) >= local_connectivity) {
      const auto index = static_cast<std::size_t>(std::floor(local_connectivity));
      const double interp = local_connectivity - double(index);
      if (index > 0) {
        rho = nz[index - 1];
        if (interp > kSmoothTolerance) rho += interp * (nz[index] - nz[index - 1]);
      } else if (!nz.empty()) {
        rho = interp * nz[0];
      }
    } else if (!nz.empty()) {
      rho = nz.back();
    }
    double lo = 0.0, hi = std::numeric_limits<double>::infinity(), mid = 1.0;
    for (int it = 0; it < kBisections; ++it) {
      double psum = 0.0;
      for (arma::uword j = 0; j < k; ++j) psum += membership(d[j], rho, mid);
      if (std::fabs(psum - target) < kSmoothTolerance) break;
      if (psum > target) {
        hi = mid;
        mid = 0.5 * (lo + hi);
      } else {
        lo = mid;
        mid = std::isinf(hi) ? 2.0 * mid : 0.5 * (lo + hi);
      }
    }
    // A floor keeps a point whose neighbours all sit at rho from a zero bandwidth.
    double mean_i = 0.0;
    for (arma::uword j = 0; j < k; ++j) mean_i += d[j];
    mean_i /= double(k);
    const double floor = kMinDistScale * (rho > 0.0 ? mean_i : mean_all);
    if (mid < floor) mid = floor;
    s.rho(i) = rho;
    s.sigma(i) = mid;
  });
  return s;
}

arma::mat memberships(const NeighbourGraph& g, const SmoothKnn& s) {
  arma::mat W(g.k(), g.n());
  for (arma::uword i = 0; i < g.n(); ++i)
    for (arma::uword j = 0; j < g.k(); ++j)
      W(j, i) = membership(g.dist(j, i), s.rho(i), s.sigma(i));
  return W;
}

arma::sp_mat fuzzy_union(const NeighbourGraph& g, const arma::mat& W) {
  const arma::uword n = g.n(), k = g.k();
  // A(j, i): i's membership of j; locations built column by column, batch-inserted.
  arma::umat loc(2, n * k);
  arma::vec val(n * k);
  arma::uword e = 0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < k; ++j) {
      if (W(j, i) <= 0.0) continue;
      loc(0, e) = g.index(j, i);
      loc(1, e) = i;
      val(e) = W(j, i);
      ++e;
    }
  if (e == 0) return arma::sp_mat(n, n);
  const arma::sp_mat A(loc.cols(0, e - 1), val.head(e), n, n, true, true);
  const arma::sp_mat At = A.t();
  return A + At - A % At;
}

CurveAb fit_ab(double spread, double min_dist) {
  constexpr int kPoints = 300;
  arma::vec x = arma::linspace(0.0, 3.0 * spread, kPoints), y(kPoints);
  for (int i = 0; i < kPoints; ++i)
    y(i) = x(i) < min_dist ? 1.0 : std::exp(-(x(i) - min_dist) / spread);
  // Residuals and Jacobian of r(a, b) = 1 / (1 + a x^(2b)) - y.
  auto eval = [&](double a, double b, arma::vec& r, arma::mat* J) {
    r.set_size(kPoints);
    if (J) J->set_size(kPoints, 2);
    for (int i = 0; i < kPoints; ++i) {
      const double p = x(i) > 0.0 ? std::pow(x(i), 2.0 * b) : 0.0;
      const double f = 1.0 / (1.0 + a * p);
      r(i) = f - y(i);
      if (J) {
        (*J)(i, 0) = -p * f * f;
        (*J)(i, 1) = x(i) > 0.0 ? -a * p * 2.0 * std::log(x(i)) * f * f : 0.0;
      }
    }
    return arma::dot(r, r);
  };
  double a = 1.0, b = 1.0, lambda = 1e-3;
  arma::vec r, rn;
  arma::mat J;
  double cost = eval(a, b, r, &J);
  for (int it = 0; it < 500; ++it) {
    const arma::mat JtJ = J.t() * J;
    const arma::vec g = J.t() * r;
    bool improved = false;
    for (int tries = 0; tries < 30 && !improved; ++tries) {
      arma::mat M = JtJ;
      M.diag() *= 1.0 + lambda;  // Marquardt's scaling, as MINPACK's lmdif
      arma::vec step;
      if (!arma::solve(step, M, -g, arma::solve_opts::no_approx)) {
        lambda *= 10.0;
        continue;
      }
      const double an = a + step(0), bn = b + step(1);
      const double cn = eval(an, bn, rn, nullptr);
      if (std::isfinite(cn) && cn < cost) {
        const bool done = cost - cn <= 1e-15 * std::max(1.0, cost);
        a = an;
        b = bn;
        cost = eval(a, b, r, &J);
        lambda = std::max(lambda / 10.0, 1e-12);
        improved = true;
        if (done) return {a, b};
      } else {
        lambda *= 10.0;
      }
    }
    if (!improved) break;
  }
  return {a, b};
}

arma::uword components(const arma::sp_mat& G) {
  const arma::uword n = G.n_cols;
  std::vector<char> seen(n, 0);
  std::vector<arma::uword> stack;
  arma::uword count = 0;
  for (arma::uword s = 0; s < n; ++s) {
    if (seen[s]) continue;
    ++count;
    seen[s] = 1;
    stack.push_back(s);
    while (!stack.empty()) {
      const arma::uword v = stack.back();
      stack.pop_back();
      for (auto it = G.begin_col(v); it != G.end_col(v); ++it)
        if (!seen[it.row()]) {
          seen[it.row()] = 1;
          stack.push_back(it.row());
        }
    }
  }
  return count;
}

}  // namespace drbench::umap
