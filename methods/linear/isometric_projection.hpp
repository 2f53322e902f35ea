#pragma once
// What the isometric projections of the OIP paper (IP, IP+SR, OIP, SOIP) share: the kNN geodesic
// graph their settings describe, its cost and memory, and OIP's matrix.
#include <armadillo>

#include "framework/budget/budget.hpp"
#include "framework/core/params.hpp"
#include "framework/core/registry.hpp"
#include "framework/neighbours/geodesic.hpp"

namespace drbench {

// `neighbours` (5) and `disconnected` (connect): the kNN graph of the geodesics.
struct IsometricGraphKeys {
  IntKey neighbours;
  ChoiceKey disconnected;
  GeodesicGraphSpec graph(const ParamSet& p) const;
  // The graph and its all-pairs shortest paths: n^2 (d + log2(n + 1) k).
  double cost(const DataShape& s, const ParamSet& p) const;
};
IsometricGraphKeys isometric_graph_keys();

// The budget of them all: the graph's cost (IsometricGraphKeys::cost) plus `extra` where given;
// memory: the geodesic distances and the isometric kernel, two dense n x n (2.5 with the
// shortest-path work arrays), then a linear map.
Budget isometric_budget(TaskEstimate extra = nullptr);

// M of OIP's Algorithm 1, step 3, for centred data Xc (d x n) and tau (n x n):
// M = (Xc Xc^T)^2 - 2 Xc tau Xc^T, never forming the n x n matrix Xc^T Xc.
arma::mat oip_matrix(const arma::mat& Xc, const arma::mat& tau);

}  // namespace drbench
