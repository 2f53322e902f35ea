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
  if (generator != "gaussian_blobs") return 8.0 * n * (3 + 2 + 2 + 1 + 1 + 3);
  // Blobs: the points and the latent centres copied per point (dim x n each), labels.
  const double dim = double(kDim(p)), classes = double(kClasses(p));
  return 8.0 * (2 * dim * n + n + dim * classes);
}

arma::mat generator_latent(const std::string& generator,
                           const std::map<std::string, ParamValue>& params, std::uint64_t seed) {
  if (generator != "swiss_roll" && generator != "s_curve" && generator != "swiss_roll_gmm")
    throw DataError("generator '" + generator +
                    "' has no manifold coordinates (fix: use swiss_roll or s_curve)");
  return generate(generator, params, seed).latent;
}

}  // namespace drbench
