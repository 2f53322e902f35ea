#include "methods/linear/mmpa/mmpa.hpp"

#include <cmath>

#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"

namespace drbench {

void mmpa_graphs(const arma::mat& X, const arma::uvec& labels, double& eps_w, double& eps_b,
                 arma::mat& W_intra, arma::mat& W_inter) {
  const arma::uword n = X.n_cols;
  const arma::mat D = arma::sqrt(sq_distances(X));
  const arma::umat same = arma::repmat(labels, 1, n) == arma::repmat(labels.t(), n, 1);
  const arma::umat off = 1 - arma::eye<arma::umat>(n, n);
  const arma::umat intra = same % off, inter = 1 - same;
  const double n_intra = arma::accu(intra), n_inter = arma::accu(inter);
  if (n_intra == 0 || n_inter == 0)
    throw MethodError("mmpa needs at least two classes and a class with two or more points");
  if (eps_w <= 0) eps_w = arma::accu(D % intra) / n_intra;
  if (eps_b <= 0) eps_b = arma::accu(D % inter) / n_inter;
  W_intra = arma::conv_to<arma::mat>::from(intra % (D > eps_w));
  W_inter = arma::conv_to<arma::mat>::from(inter % (D < eps_b));
}

void Mmpa::fit(const FitInput& in) {
  const arma::uvec& y = require_labels(in);
  require_dim(in.dim, in.X.n_rows, "at most d projection directions");
  double ew = eps_w_, eb = eps_b_;
  arma::mat Ww, Wb;
  mmpa_graphs(in.X, y, ew, eb, Ww, Wb);
  eps_w_used_ = ew;
  eps_b_used_ = eb;
  if (arma::accu(Wb) == 0)
    throw MethodError("mmpa: no pair of different classes is closer than eps_b=" +
                      std::to_string(eb) + "; raise 'eps_b' (0 = average inter-class distance)");
  const arma::vec mean = arma::mean(in.X, 1);
  const arma::mat Xc = in.X.each_col() - mean;
  auto quad = [&](const arma::mat& W) {
    arma::mat XD = Xc;
    XD.each_row() %= arma::sum(W, 0);
    arma::mat Q = XD * Xc.t() - (Xc * W) * Xc.t();
    return arma::mat(0.5 * (Q + Q.t()));
  };
  EigenPairs e = gen_sym_eigs(quad(Ww), quad(Wb), in.dim, Spectrum::Smallest, sigma_, "sigma",
                              "inter-class Laplacian term X L_inter X^T");
  fix_signs(e.vectors);
  values_ = e.values;
  set_projection(in.X, mean, e.vectors);
}

namespace {

MethodInfo mmpa_info() {
  MethodInfo m;
  m.name = "mmpa";
  m.family = "linear";
  m.summary =
      "min-max projection analysis: shrink far same-class pairs, spread near other-class pairs";
  m.reference =
      "Zheng et al., Comput. Math. Methods Med. 2014, section 2.3, eq. 9 (MMPA as compared in DEE)";
  m.params = {
      ParamSpec::real("eps_w", 0.0, 0.0, 1e12,
                      "same-class pairs farther than this are pulled together; 0 = average "
                      "intra-class distance"),
      ParamSpec::real("eps_b", 0.0, 0.0, 1e12,
                      "different-class pairs nearer than this are pushed apart; 0 = average "
                      "inter-class distance"),
      ParamSpec::real("sigma", 1e-3, 0.0, 1e3,
                      "regulariser added to X L_inter X^T, relative to its trace/dim")};
  m.supervised = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) { return s.d; };
  m.cost = [](const DataShape& s, const ParamSet&, arma::uword) {
    return 2.0 * double(s.n) * s.n * s.d;
  };
  m.make = [](const ParamSet& p) {
    return std::make_unique<Mmpa>(p.real("eps_w"), p.real("eps_b"), p.real("sigma"));
  };
  return m;
}

}  // namespace
DRBENCH_REGISTER_METHOD(mmpa_info)
}  // namespace drbench
