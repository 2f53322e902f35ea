#include "framework/core/keywords.hpp"

#include <utility>
#include <vector>

#include "framework/core/registry.hpp"

namespace drbench::keywords {

IntKey neighbours(std::int64_t def, std::int64_t lo, std::int64_t hi, const std::string& what) {
  return ParamSpec::integer("neighbours", def, double(lo), double(hi),
                            "neighbours per point in the graph: " + what);
}

IntKey iterations(std::int64_t def, std::int64_t hi, const std::string& what) {
  return ParamSpec::integer("iterations", def, 1, double(hi), "iteration cap: " + what);
}

RealKey tolerance(double def, std::optional<double> hi, const std::string& what) {
  return ParamSpec::real("tolerance", def, 0.0, hi, "stop before the iteration cap " + what);
}

RealKey objective_tolerance(double def, const std::string& what) {
  return ParamSpec::real("objective_tolerance", def, 0.0, std::nullopt,
                         "stop when the objective fell by at most this fraction of max(|f|, 1) "
                         "over the last `tolerance_window` iterations (0: off) " +
                             what);
}

IntKey tolerance_window(std::int64_t def, const std::string& what) {
  return ParamSpec::integer(
      "tolerance_window", def, 1, 1e6,
      "iterations over which `objective_tolerance` measures the decrease " + what);
}

RealKey gradient_tolerance(double def, const std::string& what) {
  return ParamSpec::real(
      "gradient_tolerance", def, 0.0, std::nullopt,
      "stop when the gradient's largest component falls below this (0: off) " + what);
}

// Added after the published tables: unkeyed, so their task keys still match.
ChoiceKey kernel_scale(const std::string& what) {
  return ChoiceKey(ParamSpec::choice("kernel_scale", "median", {"median", "graph"},
                                     "what a relative kernel_width multiplies: the median pairwise "
                                     "training distance, or the root mean squared edge length of "
                                     "the kNN graph (smaller as n grows): " +
                                         what))
      .with(unkeyed);
}

// Added after the published tables: unkeyed, so their task keys still match.
ChoiceKey projection_norm(const std::string& what) {
  return ChoiceKey(ParamSpec::choice("projection_norm", "constraint", {"constraint", "unit"},
                                     "scale of the projection vectors: as the eigenproblem's "
                                     "constraint leaves them, or unit length in input space (Deng "
                                     "Cai's code); it weights the latent axes in a kNN distance: " +
                                         what))
      .with(unkeyed);
}

ChoiceKey weights(const std::string& what) {
  return ParamSpec::choice("weights", "heat", {"heat", "binary"},
                           "graph edge weights, heat exp(-|xi-xj|^2/t) or binary 1: " + what);
}

ChoiceKey weights(const std::string& def, std::vector<std::string> choices,
                  const std::string& what) {
  return ParamSpec::choice("weights", def, std::move(choices), "graph edge weights: " + what);
}

RealKey kernel_width(double def, const std::string& reference) {
  return ParamSpec::real("kernel_width", def, 0.0, std::nullopt,
                         "sigma of exp(-r^2/(2 sigma^2)); " +
                             (reference.empty() ? std::string("in input units")
                                                : "width: relative multiplies " + reference),
                         true);
}

ChoiceKey width(const std::string& def, const std::string& reference) {
  ParamSpec s = ParamSpec::choice("width", def, {"relative", "absolute"},
                                  "how kernel_width is read: in multiples of " + reference +
                                      " (relative) or in input units (absolute)");
  s.renamed_choices = {{"median", "relative"}};
  return s;
}

RealKey heat_width(double def) {
  return ParamSpec::real("heat_width", def, 0.0, std::nullopt,
                         "relative sigma of the graph's heat weights: t = heat_width^2 x the mean "
                         "squared edge length",
                         true);
}

ChoiceKey disconnected(const std::string& def) {
  ParamSpec s = ParamSpec::choice("disconnected", def, {"error", "connect"},
                                  "a disconnected neighbour graph fails the task (error) or gets "
                                  "an edge between the closest points of every pair of "
                                  "components (connect, noted in the trace)");
  s.renamed_choices = {{"bridge", "connect"}};
  return s;
}

ChoiceKey graph(const std::string& def) {
  return ParamSpec::choice("graph", def, {"knn", "epsilon"},
                           "neighbour graph: the 'neighbours' nearest points, or every point "
                           "within 'epsilon'");
}

RealKey epsilon(double def) {
  return ParamSpec::real("epsilon", def, 0.0, std::nullopt,
                         "radius of the epsilon graph, in input units (graph: epsilon)", true);
}

ChoiceKey neighbour_graph(const std::string& def) {
  return ParamSpec::choice("neighbour_graph", def, {"exact", "approximate", "auto"},
                           "neighbour search: exact (k-d tree or blocked brute force), "
                           "approximate (HNSW, recall reported in benchmarks), or auto "
                           "(approximate from 200,000 points above 20 dimensions)");
}

IntKey landmarks(std::int64_t def, const std::string& what) {
  return ParamSpec::integer("landmarks", def, 0, std::nullopt,
                            "landmark points (0 = none, the full method): " + what);
}

RealKey perplexity(double def, const std::string& what) {
  return ParamSpec::real("perplexity", def, 1.0, std::nullopt,
                         "effective neighbours of the calibrated Gaussian affinities: " + what);
}

RealKey lambda(double def, std::optional<double> hi, bool positive, const std::string& what) {
  return ParamSpec::real("lambda", def, 0.0, hi, "weight of " + what, positive);
}

ChoiceKey gradient(const std::string& def, std::vector<std::string> choices,
                   const std::string& what) {
  return ParamSpec::choice("gradient", def, std::move(choices),
                           "how the gradient is computed: " + what);
}

ChoiceKey optimizer(const std::string& def, std::vector<std::string> choices,
                    const std::string& what) {
  return ParamSpec::choice("optimizer", def, std::move(choices), "optimiser: " + what);
}

ChoiceKey approximation(const std::string& def, std::vector<std::string> choices,
                        const std::string& what) {
  return ParamSpec::choice("approximation", def, std::move(choices),
                           "likelihood of the Gaussian process: " + what);
}

IntKey inducing(std::int64_t def, const std::string& what) {
  return ParamSpec::integer("inducing", def, 1, 1e6,
                            "number of inducing points of a sparse approximation: " + what);
}

ChoiceKey inducing_init(const std::string& def, std::vector<std::string> choices,
                        const std::string& what) {
  return ParamSpec::choice("inducing_init", def, std::move(choices),
                           "start of the inducing inputs of a sparse approximation: " + what);
}

RealKey inducing_jitter(double def, const std::string& what) {
  return ParamSpec::real("inducing_jitter", def, 0.0, 1e-2,
                         "jitter added to the diagonal of K_uu at every evaluation, relative to "
                         "its mean diagonal: " +
                             what);
}

RealKey min_dist(double def, const std::string& what) {
  return ParamSpec::real("min_dist", def, 0.0, std::nullopt,
                         "embedding distance within which similarities stay maximal: " + what);
}

RealKey spread(double def, const std::string& what) {
  return ParamSpec::real("spread", def, 0.0, std::nullopt,
                         "scale of the fall-off of similarities beyond min_dist: " + what, true);
}

RealKey negative_sample_rate(double def, const std::string& what) {
  return ParamSpec::real("negative_sample_rate", def, 0.0, std::nullopt,
                         "random non-neighbours per sampled edge: " + what, true);
}

ChoiceKey init(const std::string& def, std::vector<std::string> choices, const std::string& what) {
  return ParamSpec::choice("init", def, std::move(choices), "start of the embedding: " + what);
}

RealKey learning_rate(double def, const std::string& what) {
  return ParamSpec::real("learning_rate", def, 0.0, std::nullopt, "step size: " + what, true);
}

RealKey ridge(double def, double lo, std::optional<double> hi, bool lo_exclusive,
              const std::string& what) {
  return ParamSpec::real("ridge", def, lo, hi, "ridge: " + what, lo_exclusive);
}

RealKey theta(double def) {
  return ParamSpec::real("theta", def, 0.0, std::nullopt,
                         "Barnes-Hut opening angle: a cell is taken whole when its largest side "
                         "< theta x its distance (0 = exact sum on the tree)");
}

double KernelWidth::heat_t(double reference_t) const {
  return relative ? sigma * sigma * reference_t : 2.0 * sigma * sigma;
}

namespace {

struct Retired {
  const char* old_name;
  const char* new_name;
  const char* how;  // how to convert a value; empty when it carries over unchanged
};

// Ordered: the first entry whose new name the method declares wins (mmpa's old `sigma` was a
// ridge, the kernel methods' a width).
const std::vector<Retired>& retired() {
  static const std::vector<Retired> table = {
      {"k", "neighbours", ""},
      {"neighbors", "neighbours", ""},
      {"max_iter", "iterations", ""},
      {"weight", "weights", ""},
      {"k_w", "neighbours_within", ""},
      {"k_b", "neighbours_between", ""},
      {"sigma", "ridge", ""},
      {"reg", "ridge", ""},
      {"lle_reg", "ridge", ""},
      {"tol", "tolerance", ""},
      {"sigma", "kernel_width", ""},
      {"heat", "heat_width", "heat_width = sqrt(heat)"},
      {"heat", "kernel_width", "kernel_width = sqrt(heat) with width: relative"},
      {"t", "kernel_width",
       "t: 0 (automatic) is kernel_width: 1 with width: relative; an absolute t is kernel_width = "
       "sqrt(t/2) with width: absolute"},
      {"gamma", "kernel_width", "kernel_width = 1/sqrt(gamma), e.g. gamma 0.01 is kernel_width 10"},
      {"inv_width", "kernel_width", "kernel_width = 1/sqrt(inv_width)"},
  };
  return table;
}

}  // namespace

std::string retired_name_fix(const MethodInfo& m, const std::string& key) {
  // The method's own former names first (ParamSpec::former_name): they say exactly which
  // parameter an old name became (ip_sr's alpha is a ridge, the GP-LVM priors' alpha a lambda).
  for (const auto& s : m.params)
    if (!s.former_name.empty() && key == s.former_name)
      return "'" + key + "' is now called '" + s.name + "': use " + s.name +
             " (docs/parameters.md)";
  for (const auto& r : retired())
    if (key == r.old_name && m.param(r.new_name)) {
      std::string fix = "'" + key + "' is now called '" + r.new_name + "' (docs/parameters.md)";
      if (*r.how) fix += std::string("; ") + r.how;
      return fix;
    }
  return "";
}

ChoiceKey landmark_choice() {
  return ParamSpec::choice("landmark_choice", "random", {"random", "maxmin"},
                           "landmarks drawn at random, or by MaxMin (each next one the point "
                           "farthest from those chosen)");
}

IntKey analysers(std::int64_t def, const std::string& what) {
  return ParamSpec::integer("analysers", def, 1, std::nullopt,
                            "local linear models of a mixture, fitted by EM: " + what);
}

}  // namespace drbench::keywords
