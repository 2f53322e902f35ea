#include "methods/manifold/mixture_alignment.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "framework/support/time_limit.hpp"

namespace drbench {

RealKey mixture_tolerance() {
  return keywords::tolerance(
      1e-6, 1.0, "EM stops when the log-likelihood gains less than this x |log-likelihood|");
}

MixtureSetting mixture_setting(const ParamSet& p, const IntKey& analysers, const IntKey& iterations,
                               const RealKey& tolerance) {
  MixtureSetting s;
  s.components = arma::uword(analysers(p));
  s.iterations = arma::uword(iterations(p));
  s.tolerance = tolerance(p);
  return s;
}

void describe_mixture(MethodInfo& m) {
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.d > 0 ? s.d - 1 : 0, s.n > 2 ? s.n - 2 : 0);
  };
}

namespace {

// Row-wise log-sum-exp of an n x m matrix.
arma::vec log_sum_exp_rows(const arma::mat& L) {
  arma::vec out(L.n_rows);
  for (arma::uword i = 0; i < L.n_rows; ++i) {
    const double mx = L.row(i).max();
    out(i) = std::isfinite(mx) ? mx + std::log(arma::accu(arma::exp(L.row(i) - mx))) : mx;
  }
  return out;
}

}  // namespace

arma::mat AnalyserMixture::log_joint(const arma::mat& X) const {
  const arma::uword n = X.n_cols, d = X.n_rows, m = means_.n_cols;
  arma::mat L(n, m);
  const double log2pi = std::log(2.0 * arma::datum::pi);
  for (arma::uword k = 0; k < m; ++k) {
    const arma::mat E = X.each_col() - means_.col(k);
    const arma::mat& W = W_[k];
    const double s2 = sigma2_(k);
    // Woodbury: C^-1 = (I - W M^-1 W') / s2 and log|C| = (d - q) log s2 + log|M|.
    const arma::mat M = W.t() * W + s2 * arma::eye(q_, q_);
    const arma::mat P = W.t() * E;
    const arma::mat MP = arma::solve(M, P, arma::solve_opts::likely_sympd);
    double logdetM = 0.0, sign = 1.0;
    arma::log_det(logdetM, sign, M);
    const double logdetC = double(d - q_) * std::log(s2) + logdetM;
    const arma::rowvec quad = (arma::sum(arma::square(E), 0) - arma::sum(P % MP, 0)) / s2;
    L.col(k) = (logpi_(k) - 0.5 * (double(d) * log2pi + logdetC + quad)).t();
  }
  return L;
}

double AnalyserMixture::log_likelihood(const arma::mat& X) const {
  return arma::accu(log_sum_exp_rows(log_joint(X)));
}

arma::mat AnalyserMixture::responsibilities(const arma::mat& X) const {
  arma::mat L = log_joint(X);
  L.each_col() -= log_sum_exp_rows(L);
  return arma::exp(L);
}

std::vector<arma::mat> AnalyserMixture::local_coordinates(const arma::mat& X) const {
  std::vector<arma::mat> Z(means_.n_cols);
  for (arma::uword k = 0; k < means_.n_cols; ++k) {
    const arma::mat& W = W_[k];
    const arma::mat M = W.t() * W + sigma2_(k) * arma::eye(q_, q_);
    Z[k] = arma::solve(M, W.t() * (X.each_col() - means_.col(k)), arma::solve_opts::likely_sympd);
  }
  return Z;
}

arma::mat AnalyserMixture::stacked(const arma::mat& X) const {
  const arma::mat R = responsibilities(X);
  const std::vector<arma::mat> Z = local_coordinates(X);
  const arma::uword m = means_.n_cols, p = q_ + 1;
  arma::mat U(X.n_cols, m * p);
  for (arma::uword k = 0; k < m; ++k) {
    U.cols(k * p, k * p + q_ - 1) = Z[k].t();
    U.cols(k * p, k * p + q_ - 1).each_col() %= R.col(k);
    U.col(k * p + q_) = R.col(k);
  }
  return U;
}

void AnalyserMixture::m_step(const arma::mat& X, const arma::mat& R) {
  const arma::uword n = X.n_cols, d = X.n_rows, m = R.n_cols;
  for (arma::uword k = 0; k < m; ++k) {
    const double Nk = arma::accu(R.col(k));
    // A component nobody belongs to any more keeps its parameters at weight 0 (it then adds
    // nothing to the likelihood, which therefore still cannot fall).
    logpi_(k) = std::log(Nk / double(n));
    if (!(Nk > 1e-12)) continue;
    means_.col(k) = X * R.col(k) / Nk;
    arma::mat E = X.each_col() - means_.col(k);
    const arma::mat Ew = E.each_row() % arma::sqrt(R.col(k)).t();
    const arma::mat S = Ew * Ew.t() / Nk;
    const EigenPairs e = sym_eigs(S, q_, Spectrum::Largest);
    const double rest = arma::trace(S) - arma::accu(e.values);
    double s2 = d > q_ ? rest / double(d - q_) : 0.0;
    s2 = std::max(s2, floor_);
    sigma2_(k) = s2;
    W_[k] =
        e.vectors * arma::diagmat(arma::sqrt(arma::clamp(e.values - s2, 0.0, arma::datum::inf)));
  }
}

void AnalyserMixture::fit(const arma::mat& X, const MixtureSetting& s, Rng& rng, Trace* trace,
                          const std::string& who) {
  const arma::uword n = X.n_cols, d = X.n_rows;
  q_ = s.latent;
  if (q_ >= d)
    throw MethodError(who + ": the analysers' latent dimension (dims=" + std::to_string(q_) +
                      ") must be below the input's " + std::to_string(d));
  const arma::mat Xc = X.each_col() - arma::mean(X, 1);
  floor_ = std::max(s.min_variance * arma::accu(arma::square(Xc)) / double(n * d), 1e-300);
  // Start: distinct training points as means, each point with its nearest; components with fewer
  // than q + 2 points are dropped before EM starts (their covariance would be degenerate).
  // At most n / (q + 2) starting means, so that each has about q + 2 points of its own.
  arma::uword m = std::min<arma::uword>(s.components, std::max<arma::uword>(1, n / (q_ + 2)));
  const arma::uvec start = arma::sort(arma::uvec(rng.permutation(n).head(m)));
  const arma::mat D = sq_distances(X.cols(start), X);  // m x n
  const arma::urowvec owner = arma::index_min(D, 0);
  arma::uvec counts(m, arma::fill::zeros);
  for (arma::uword i = 0; i < n; ++i) ++counts(owner(i));
  const arma::uvec keep = arma::find(counts >= q_ + 2);
  if (keep.n_elem == 0)
    throw MethodError(who + ": no analyser has " + std::to_string(q_ + 2) +
                      " points to start from; lower 'analysers' or 'dims'");
  if (trace && keep.n_elem < s.components)
    trace->note("analysers_used", std::to_string(keep.n_elem));
  m = keep.n_elem;
  arma::mat R(n, m, arma::fill::zeros);
  {
    const arma::mat Dk = D.rows(keep);
    const arma::urowvec own = arma::index_min(Dk, 0);
    for (arma::uword i = 0; i < n; ++i) R(i, own(i)) = 1.0;
  }
  means_.set_size(d, m);
  W_.assign(m, arma::mat(d, q_, arma::fill::zeros));
  sigma2_.set_size(m);
  logpi_.set_size(m);
  m_step(X, R);
  history_.clear();
  const auto t0 = std::chrono::steady_clock::now();
  for (arma::uword it = 1; it <= s.iterations; ++it) {
    arma::mat L = log_joint(X);
    const arma::vec lse = log_sum_exp_rows(L);
    const double ll = arma::accu(lse);
    history_.push_back(ll);
    check_task_deadline(int(it), -ll, int(s.iterations));
    if (trace)
      trace->log(int(it), -ll, 0.0,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (history_.size() > 1 && ll - history_[history_.size() - 2] <= s.tolerance * std::abs(ll))
      break;
    L.each_col() -= lse;
    m_step(X, arma::exp(L));
  }
}

void MixtureAlignmentMethod::fit(const FitInput& in) {
  const arma::uword n = in.X.n_cols;
  MixtureSetting ms = s_;
  ms.latent = in.dim;
  mix_.fit(in.X, ms, in.rng, in.trace, name_);
  const arma::mat U = mix_.stacked(in.X);
  const arma::mat R = mix_.responsibilities(in.X);
  const std::vector<arma::mat> Z = mix_.local_coordinates(in.X);
  A_ = alignment_cost(in.X, U, R, Z);
  A_ = 0.5 * (A_ + A_.t());
  B_ = U.t() * U / double(n);
  if (U.n_cols < in.dim + 1)
    throw MethodError(name_ + ": " + std::to_string(mix_.components()) +
                      " analysers give too few coordinates for dims=" + std::to_string(in.dim) +
                      "; raise 'analysers'");
  EigenPairs e;
  try {
    e = gen_sym_eigs(A_, B_, in.dim + 1, Spectrum::Smallest, kEigenRidge, "ridge", "U'U");
  } catch (const MethodError&) {
    throw MethodError(name_ +
                      ": the mixture's coordinates U'U are singular (an analyser owns too "
                      "few points); lower 'analysers'");
  }
  // The first is the constant map (l_k = 1, L_k = 0), at eigenvalue 0.
  V_ = e.vectors.cols(1, in.dim);
  Y_ = (U * V_).t();
  for (arma::uword r = 0; r < in.dim; ++r)
    if (Y_(r, arma::index_max(arma::abs(Y_.row(r)))) < 0) {
      Y_.row(r) *= -1.0;
      V_.col(r) *= -1.0;
    }
}

arma::mat MixtureAlignmentMethod::transform(const arma::mat& Xnew) const {
  if (Xnew.n_rows != mix_.input_dim())
    throw MethodError(name_ + " transform: new points have " + std::to_string(Xnew.n_rows) +
                      " features, the training data " + std::to_string(mix_.input_dim()));
  return (mix_.stacked(Xnew) * V_).t();
}

Budget mixture_alignment_budget(const IntKey& analysers, const IntKey& iterations,
                                bool knn_search) {
  TaskEstimate cost = [=](const TaskSize& z) {
    const double n = z.n + z.n_test, d = z.d, a = double(analysers(z.p));
    const double pp = a * (z.q + 1.0);
    const double search = knn_search ? z.n * z.n * d : 0.0;
    return double(iterations(z.p)) * a * (n * d * d + d * d * d / 10.0) / 20.0 + search +
           n * pp * pp + pp * pp * pp;
  };
  TaskEstimate memory = [=](const TaskSize& z) {
    const double n = std::max(z.n, z.n_test), d = z.d, a = double(analysers(z.p));
    const double pp = a * (z.q + 1.0);
    const double search = knn_search ? n * std::min(n, 4096.0) : 0.0;
    return kProcessBaseBytes + 8.0 * (3.0 * n * d + 3.0 * d * d + 4.0 * n * a + 2.0 * n * pp +
                                      5.0 * pp * pp + search + 2.0 * n * z.q);
  };
  return make_budget(std::move(cost), std::move(memory));
}

}  // namespace drbench
