#include "methods/linear/isometric_projection.hpp"

#include <cmath>
#include <utility>

#include "framework/core/keywords.hpp"

namespace drbench {

IsometricGraphKeys isometric_graph_keys() {
  return {keywords::neighbours(5, 1, 1000, "the kNN graph of the geodesics (papers: 2..20)"),
          keywords::disconnected("connect")};
}

GeodesicGraphSpec IsometricGraphKeys::graph(const ParamSet& p) const {
  return GeodesicGraphSpec::knn_graph(arma::uword(neighbours(p)), disconnected(p) == "connect");
}

double IsometricGraphKeys::cost(const DataShape& s, const ParamSet& p) const {
  return double(s.n) * s.n * (s.d + std::log2(double(s.n) + 1.0) * double(neighbours(p)));
}

Budget isometric_budget(TaskEstimate extra) {
  TaskEstimate cost = [geodesics = isometric_graph_keys()](const TaskSize& z) {
    return geodesics.cost(z.shape, z.p);
  };
  if (extra)
    cost = [geodesics = isometric_graph_keys(), extra](const TaskSize& z) {
      return geodesics.cost(z.shape, z.p) + extra(z);
    };
  return linear_budget(std::move(cost), [](const TaskSize& z) { return 8.0 * 2.5 * z.n * z.n; });
}

arma::mat oip_matrix(const arma::mat& Xc, const arma::mat& tau) {
  const arma::mat G = Xc * Xc.t();
  arma::mat M = G * G - 2.0 * (Xc * tau) * Xc.t();
  return 0.5 * (M + M.t());  // symmetric to round-off, exactly symmetric for the eigensolver
}

}  // namespace drbench
