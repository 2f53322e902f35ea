#include "methods/neighbour/linear_embedding.hpp"

#include <string>

#include "framework/affinity/weights.hpp"
#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"

namespace drbench {

namespace {

// The heat width whose t = 2 sigma^2 is the mean squared same-class distance (relative 1).
const char* const kSameClassReference = "the width whose t is the mean squared same-class distance";

constexpr arma::uword kAutoBarnesHut = 5000;

}  // namespace

namespace {

void require_class_pairs(double same_pairs, double different_pairs, const std::string& method) {
  if (!(same_pairs > 0) || !(different_pairs > 0))
    throw MethodError(method +
                      " needs at least two classes and a class with two or more training points");
}

}  // namespace

double same_class_heat_t(const keywords::KernelWidth& width, double same_total, double same_pairs,
                         double different_pairs, const std::string& method) {
  require_class_pairs(same_pairs, different_pairs, method);
  const double t = width.heat_t(width.relative ? same_total / same_pairs : 0.0);
  if (!(t > 0) || !std::isfinite(t))
    throw MethodError(method + ": same-class points coincide; set 'width: absolute'");
  return t;
}

ClassPairDistances class_pair_distances(const arma::mat& X, const arma::uvec& labels,
                                        const keywords::KernelWidth& width,
                                        const std::string& method) {
  const arma::uword n = X.n_cols;
  if (labels.n_elem != n)
    throw MethodError(method + ": " + std::to_string(labels.n_elem) + " labels for " +
                      std::to_string(n) + " training points");
  ClassPairDistances c;
  c.same = class_mask(labels, ClassPairs::Same);
  c.different = class_mask(labels, ClassPairs::Different);
  const double same_pairs = arma::accu(c.same), different_pairs = arma::accu(c.different);
  require_class_pairs(same_pairs, different_pairs, method);  // before the n x n distances
  c.D2 = sq_distances(X);
  c.t = same_class_heat_t(width, arma::accu(c.D2 % c.same), same_pairs, different_pairs, method);
  return c;
}

bool linear_embedding_uses_barnes_hut(const std::string& g, arma::uword n, arma::uword dim) {
  if (g != "auto") return g == "barnes_hut";
  return n >= kAutoBarnesHut && dim <= 3;
}

void require_barnes_hut_dims(const std::string& method, arma::uword dim) {
  if (dim > 3)
    throw MethodError(method + ": gradient: barnes_hut works in 1 to 3 dimensions, asked for " +
                      std::to_string(dim) + " (fix: 'gradient: exact' or dims <= 3)");
}

void note_class_graph(Trace& trace, const arma::mat& X, arma::uword neighbours,
                      const GraphOptions& go, const std::string& edges_key, arma::uword edges) {
  trace.note("neighbours", std::to_string(neighbours));
  trace.note(edges_key, std::to_string(edges));
  trace.note("neighbour_graph",
             use_approximate(X.n_cols, X.n_rows, neighbours, go.kind) ? "approximate" : "exact");
}

void LinearEmbeddingKeys::read(const ParamSet& p, LinearEmbeddingSettings& s) const {
  s.kernel_width = {kernel_width(p), width(p) == "relative"};
  s.iterations = int(iterations(p));
  s.tolerance = tolerance(p);
  s.pca_start = init(p) == "pca";
  GraphPathKeys::read(p, s);
}

arma::uword LinearEmbeddingKeys::max_dim(const DataShape& s, const ParamSet& p) const {
  return gradient(p) == "barnes_hut" ? std::min<arma::uword>(3, s.d) : s.d;
}

LinearEmbeddingKeys linear_embedding_keys(const LinearEmbeddingText& text) {
  return LinearEmbeddingKeys{
      {keywords::gradient("auto", {"exact", "barnes_hut", "auto"}, text.gradient)
           .with(keywords::unkeyed),
       keywords::theta(0.5).with(keywords::unkeyed),
       keywords::neighbours(30, 1, 1000000, text.neighbours).with(keywords::unkeyed),
       keywords::neighbour_graph().with(keywords::unkeyed)},
      keywords::kernel_width(1.0, kSameClassReference),
      keywords::width("relative", kSameClassReference),
      keywords::iterations(1000, 1000000, text.iterations),
      keywords::tolerance(1e-3, 1.0, text.tolerance),
      ParamSpec::choice("init", "random", {"random", "pca"}, text.init)};
}

MethodInfo linear_embedding_info(const std::string& name, const std::string& summary,
                                 const std::string& reference, const LinearEmbeddingKeys& keys) {
  MethodInfo m;
  m.name = name;
  m.family = "neighbour";
  m.summary = summary;
  m.reference = reference;
  m.supervised = true;
  m.iterative = true;
  m.transform_reproduces_embedding = true;
  m.max_dim = [keys](const DataShape& s, const ParamSet& p) { return keys.max_dim(s, p); };
  return m;
}

}  // namespace drbench
