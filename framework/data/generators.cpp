// Synthetic manifolds (sklearn's make_swiss_roll / make_s_curve parametrisation) and Gaussian
// blobs. Manifold labels are quantile bins of the coordinate along the manifold, so every class
// has the same size and kNN error measures how well an embedding keeps that coordinate ordered.
#include "framework/data/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "framework/core/error.hpp"

namespace drbench {
namespace {

const double kPi = arma::datum::pi;

// The generators' parameters as typed keys (declared with the manifolds' defaults; the blobs
// declare their own, and a key reads any declaration of its name and type).
const IntKey kN = ParamSpec::integer("n", 1000, 2, 10000000, "number of points");
const RealKey kNoise =
    ParamSpec::real("noise", 0.0, 0.0, std::nullopt, "std of isotropic Gaussian noise added");
const IntKey kClasses = ParamSpec::integer(
    "classes", 4, 1, 1000, "labels: equal-size bins of the coordinate along the manifold");
const IntKey kDim = ParamSpec::integer("dim", 10, 1, 100000, "ambient dimension");
const RealKey kSeparation =
    ParamSpec::real("separation", 5.0, 0.0, std::nullopt,
                    "std of the blob centres (drawn from N(0, separation^2 I))");

const ChoiceKey kLabels = ParamSpec::choice(
    "labels", "bins", {"bins", "checkerboard"},
    "bins: `classes` equal-size bins of the first manifold coordinate; checkerboard: the two "
    "classes of van der Maaten's toolbox (generate_data.m), which the 2009 review scores");

// The review's manifolds (van der Maaten, Postma & van den Herik 2009, appendix; the toolbox's
// generate_data.m): helix, twin peaks, broken swiss roll and the 5-D manifold in 10-D.
std::vector<ParamSpec> review_params() {
  return {kN, kNoise.with([](ParamSpec& s) { s.default_value = 0.05; }), kClasses, kLabels};
}

std::vector<ParamSpec> manifold_params() {
  return {kN, kNoise, kClasses};
}

// Binds user values to the generator's specs, filling defaults; names key and valid range on error.
ParamSet bind(const GeneratorInfo& g, const std::map<std::string, ParamValue>& given) {
  ParamSet ps;
  for (const auto& s : g.params) ps.set(s.name, s.default_value);
  for (const auto& kv : given) {
    const std::string& k = kv.first;
    const ParamValue& v = kv.second;
    const auto it = std::find_if(g.params.begin(), g.params.end(),
                                 [&](const ParamSpec& s) { return s.name == k; });
    if (it == g.params.end()) {
      std::string valid;
      for (const auto& s : g.params) valid += (valid.empty() ? "" : ", ") + s.name;
      throw DataError("generator '" + g.name + "': unknown parameter '" + k + "' (valid: " + valid +
                      ")");
    }
    const std::string problem = it->check(v);
    if (!problem.empty()) throw DataError("generator '" + g.name + "': '" + k + "': " + problem);
    ps.set(k, v);
  }
  return ps;
}

const GeneratorInfo& find_generator(const std::string& name) {
  for (const auto& g : generators())
    if (g.name == name) return g;
  std::string valid;
  for (const auto& g : generators()) valid += (valid.empty() ? "" : ", ") + g.name;
  throw DataError("unknown generator '" + name + "' (valid: " + valid + ")");
}

// Class c for the point whose coordinate t has rank r among n: floor(r * C / n).
arma::uvec quantile_labels(const arma::vec& t, arma::uword classes) {
  const arma::uvec order = arma::stable_sort_index(t);
  arma::uvec y(t.n_elem);
  for (arma::uword r = 0; r < order.n_elem; ++r) y(order(r)) = r * classes / t.n_elem;
  return y;
}

struct Generated {
  Dataset ds;
  arma::mat latent;
};

bool is_review_manifold(const std::string& name) {
  return name == "helix" || name == "twin_peaks" || name == "broken_swiss_roll" ||
         name == "swiss_roll_review" || name == "high_dim";
}

// The toolbox's two-class labels: a checkerboard over the manifold coordinates (the helix:
// alternating arcs; twin peaks: bands of height; the high-dimensional set: the parity of the
// rounded coordinates).
arma::uvec checkerboard(const std::string& name, const arma::mat& X, const arma::mat& latent) {
  const arma::uword n = X.n_cols;
  arma::uvec y(n);
  for (arma::uword i = 0; i < n; ++i) {
    long s = 0;
    if (name == "helix") {
      s = std::lround(1.5 * latent(0, i));
    } else if (name == "twin_peaks") {
      for (arma::uword c = 0; c < 3; ++c) s += std::lround((X(c, i) + X.row(c).min()) / 10.0);
    } else if (name == "broken_swiss_roll" || name == "swiss_roll_review") {
      s = std::lround(latent(0, i) / 2.0) + std::lround(latent(1, i) / 12.0);
    } else {
      for (arma::uword c = 0; c < latent.n_rows; ++c) s += 1 + std::lround(latent(c, i));
    }
    y(i) = arma::uword(std::labs(s) % 2);
  }
  return y;
}

// Points (d x n) and manifold coordinates of the review's manifolds. Helix: t = 2 pi i / n,
// (2 + cos 8t)(cos t, sin t) and sin 8t. Twin peaks: (x, y) uniform on [-1, 1]^2, height
// 10 sin(pi x) tanh(3 y) (the noise on the height scaled by 10 with it, as the toolbox does).
// Broken swiss roll: the toolbox's roll (t in [1.5 pi, 4.5 pi], height in [0, 30]) with
// t = 1.5 pi (1 + 2u), u uniform on [0, 0.4] for the first ceil(n/2) points and on [0.6, 1]
// for the rest; the review's unbroken roll (the toolbox's 'swiss') draws u uniform on [0, 1]
// (sklearn's roll, `swiss_roll`, is 21 high, not 30). High-dimensional set: t uniform on [0, 1]^5
// (the toolbox uses a grid of round(n^(1/5))^5 points) mapped to (cos t1, tanh 3 t2, t1 + t3, t4
// sin t2, sin(t1 + t5), t5 cos t2, t5 + t4, t2, t3 t4, t1).
void review_manifold(const std::string& name, arma::uword n, double noise, Rng& rng,
                     Generated& out) {
  arma::mat& X = out.ds.X;
  arma::mat& T = out.latent;
  if (name == "helix") {
    const arma::rowvec t = arma::regspace<arma::rowvec>(1, double(n)) * (2.0 * kPi / double(n));
    X.set_size(3, n);
    X.row(0) = (2.0 + arma::cos(8.0 * t)) % arma::cos(t);
    X.row(1) = (2.0 + arma::cos(8.0 * t)) % arma::sin(t);
    X.row(2) = arma::sin(8.0 * t);
    T = t;
    X += noise * rng.randn(3, n);
  } else if (name == "twin_peaks") {
    T = 1.0 - 2.0 * rng.randu(2, n);
    X = arma::join_cols(T, arma::sin(kPi * T.row(0)) % arma::tanh(3.0 * T.row(1)));
    X += noise * rng.randn(3, n);
    X.row(2) *= 10.0;
  } else if (name == "broken_swiss_roll" || name == "swiss_roll_review") {
    arma::rowvec t(n), h(n);
    const bool broken = name == "broken_swiss_roll";
    const arma::uword first = (n + 1) / 2;
    for (arma::uword i = 0; i < n; ++i) {
      const double u = broken ? 0.4 * rng.uniform() + (i < first ? 0.0 : 0.6) : rng.uniform();
      t(i) = 1.5 * kPi * (1.0 + 2.0 * u);
    }
    for (arma::uword i = 0; i < n; ++i) h(i) = 30.0 * rng.uniform();
    X.set_size(3, n);
    X.row(0) = t % arma::cos(t);
    X.row(1) = h;
    X.row(2) = t % arma::sin(t);
    T = arma::join_cols(t, h);
    X += noise * rng.randn(3, n);
  } else {  // high_dim
    T = rng.randu(5, n);
    const arma::rowvec t1 = T.row(0), t2 = T.row(1), t3 = T.row(2), t4 = T.row(3), t5 = T.row(4);
    X.set_size(10, n);
    X.row(0) = arma::cos(t1);
    X.row(1) = arma::tanh(3.0 * t2);
    X.row(2) = t1 + t3;
    X.row(3) = t4 % arma::sin(t2);
    X.row(4) = arma::sin(t1 + t5);
    X.row(5) = t5 % arma::cos(t2);
    X.row(6) = t5 + t4;
    X.row(7) = t2;
    X.row(8) = t3 % t4;
    X.row(9) = t1;
    X += noise * rng.randn(10, n);
  }
}

Generated generate(const std::string& name, const std::map<std::string, ParamValue>& given,
                   std::uint64_t seed) {
  const GeneratorInfo& g = find_generator(name);
  const ParamSet p = bind(g, given);
  const arma::uword n = static_cast<arma::uword>(kN(p));
  // swiss_roll_gmm has no `classes`: its labels are its 4 mixture components.
  const arma::uword classes = p.has(kClasses.name()) ? static_cast<arma::uword>(kClasses(p)) : 4;
  const double noise = kNoise(p);
  if (classes > n)
    throw DataError("generator '" + name + "': classes=" + std::to_string(classes) +
                    " exceeds n=" + std::to_string(n) + " (fix: lower classes or raise n)");
  Rng rng(seed);
  Generated out;
  Dataset& ds = out.ds;
  ds.name = name;
  ds.source = "generator " + name + "(" + p.canonical() + ", seed=" + std::to_string(seed) + ")";
  ds.n_classes = classes;
  if (name == "swiss_roll_gmm") {
    // TPSLVM's swiss roll (Sec. IV-C): the roll's parameters (u, v) in the unit square drawn from
    // a mixture of four Gaussians with means along the roll, labelled by component. The paper
    // gives neither means nor widths: we place them at u = 1/8, 3/8, 5/8, 7/8 (alternately low
    // and high, v = 0.3 / 0.7), std 0.05 in u and 0.1 in v, n/4 points each (the first n mod 4
    // components get one more), and map them through the sklearn roll of the generator above.
    arma::vec t(n), h(n);
    ds.y.set_size(n);
    ds.n_classes = 4;
    for (arma::uword i = 0; i < n; ++i) {
      const arma::uword k = i * 4 / n;
      ds.y(i) = k;
      t(i) = (2.0 * double(k) + 1.0) / 8.0 + 0.05 * rng.normal();
      h(i) = (k % 2 == 0 ? 0.3 : 0.7) + 0.1 * rng.normal();
    }
    t = 1.5 * kPi * (1.0 + 2.0 * t);
    h *= 21.0;
    ds.X.set_size(3, n);
    ds.X.row(0) = (t % arma::cos(t)).t();
    ds.X.row(1) = h.t();
    ds.X.row(2) = (t % arma::sin(t)).t();
    out.latent = arma::join_cols(t.t(), h.t());
    if (noise > 0) ds.X += noise * rng.randn(3, n);
  } else if (is_review_manifold(name)) {
    review_manifold(name, n, noise, rng, out);
    if (kLabels(p) == "checkerboard") {
      ds.y = checkerboard(name, ds.X, out.latent);
      ds.n_classes = 2;
    } else {
      ds.y = quantile_labels(out.latent.row(0).t(), classes);
    }
  } else if (name == "swiss_roll" || name == "s_curve") {
    arma::vec t(n), h(n);
    for (arma::uword i = 0; i < n; ++i) {
      t(i) = rng.uniform();
      h(i) = rng.uniform();
    }
    ds.X.set_size(3, n);
    if (name == "swiss_roll") {
      t = 1.5 * kPi * (1.0 + 2.0 * t);
      h *= 21.0;
      ds.X.row(0) = (t % arma::cos(t)).t();
      ds.X.row(1) = h.t();
      ds.X.row(2) = (t % arma::sin(t)).t();
    } else {
      t = 3.0 * kPi * (t - 0.5);
      h *= 2.0;
      ds.X.row(0) = arma::sin(t).t();
      ds.X.row(1) = h.t();
      ds.X.row(2) = (arma::sign(t) % (arma::cos(t) - 1.0)).t();
    }
    out.latent = arma::join_cols(t.t(), h.t());
    ds.y = quantile_labels(t, classes);
    if (noise > 0) ds.X += noise * rng.randn(3, n);
  } else {  // gaussian_blobs
    const arma::uword dim = static_cast<arma::uword>(kDim(p));
    const arma::mat centres = kSeparation(p) * rng.randn(dim, classes);
    ds.X.set_size(dim, n);
    ds.y.set_size(n);
    for (arma::uword i = 0; i < n; ++i) {
      ds.y(i) = i * classes / n;  // contiguous, equal-size classes
      ds.X.col(i) = centres.col(ds.y(i)) + std::max(noise, 0.0) * rng.randn(dim, 1);
    }
    out.latent = centres.cols(ds.y);
  }
  return out;
}

}  // namespace

const std::vector<GeneratorInfo>& generators() {
  static const std::vector<GeneratorInfo> list = [] {
    std::vector<GeneratorInfo> g;
    g.push_back({"swiss_roll",
                 "3-D swiss roll (sklearn make_swiss_roll): t in [1.5pi, 4.5pi], height in [0, 21]",
                 manifold_params()});
    std::vector<ParamSpec> gmm = manifold_params();
    gmm[0].default_value = std::int64_t(400);
    gmm.pop_back();  // labels are the mixture components
    g.push_back({"swiss_roll_gmm",
                 "TPSLVM's swiss roll: roll parameters from a 4-component Gaussian mixture, "
                 "labelled by component (400 points)",
                 gmm});
    g.push_back({"s_curve",
                 "3-D S curve (sklearn make_s_curve): t in [-1.5pi, 1.5pi], height in [0, 2]",
                 manifold_params()});
    g.push_back({"helix", "3-D helix (van der Maaten et al. 2009): a closed curve wound 8 times",
                 review_params()});
    g.push_back({"twin_peaks",
                 "3-D twin peaks (van der Maaten et al. 2009): height 10 sin(pi x) tanh(3 y)",
                 review_params()});
    g.push_back({"broken_swiss_roll",
                 "3-D swiss roll with a gap along the roll (van der Maaten et al. 2009)",
                 review_params()});
    g.push_back({"swiss_roll_review",
                 "3-D swiss roll of van der Maaten et al. 2009 (the toolbox's 'swiss'): t in "
                 "[1.5pi, 4.5pi], height in [0, 30]",
                 review_params()});
    g.push_back({"high_dim",
                 "5-D manifold in 10-D (van der Maaten et al. 2009, the high-dimensional set)",
                 review_params()});
    std::vector<ParamSpec> blobs = {kN, kNoise.with([](ParamSpec& s) {
                                      s.default_value = 1.0;
                                      s.doc = "std of each blob around its centre";
                                    }),
                                    kClasses.with([](ParamSpec& s) {
                                      s.default_value = std::int64_t(3);
                                      s.doc = "number of blobs (one class each)";
                                    }),
                                    kDim, kSeparation};
    g.push_back(
        {"gaussian_blobs", "isotropic Gaussian clusters, one class each, equal sizes", blobs});
    return g;
  }();
  return list;
}

Dataset generate_dataset(const std::string& generator,
                         const std::map<std::string, ParamValue>& params, std::uint64_t seed) {
  return generate(generator, params, seed).ds;
}

double generated_bytes(const std::string& generator,
                       const std::map<std::string, ParamValue>& params) {
  const ParamSet p = bind(find_generator(generator), params);
  const double n = double(kN(p));
  // The manifolds: 3 x n points, 2 x n latent coordinates, t and h, labels, their sort order and
  // the 3 x n noise draw.
  if (generator == "high_dim") return 8.0 * n * (10 + 5 + 10 + 10 + 2);
  if (generator != "gaussian_blobs") return 8.0 * n * (3 + 2 + 2 + 1 + 1 + 3);
  // Blobs: the points and the latent centres copied per point (dim x n each), labels.
  const double dim = double(kDim(p)), classes = double(kClasses(p));
  return 8.0 * (2 * dim * n + n + dim * classes);
}

arma::mat generator_latent(const std::string& generator,
                           const std::map<std::string, ParamValue>& params, std::uint64_t seed) {
  if (generator != "swiss_roll" && generator != "s_curve" && generator != "swiss_roll_gmm" &&
      !is_review_manifold(generator))
    throw DataError("generator '" + generator +
                    "' has no manifold coordinates (fix: use swiss_roll or s_curve)");
  return generate(generator, params, seed).latent;
}

}  // namespace drbench
