#pragma once
// In the framework because every neighbour embedding with a sparse path (t-SNE, EE, DEE, DSNE)
// reads the same four settings of it: how the gradient is computed (`gradient`, exact or on the
// neighbour graph with Barnes-Hut/FFT repulsion), the Barnes-Hut accuracy (`theta`), the graph's
// neighbours and how the graph is searched (`neighbour_graph`). Each method declares the keys with
// its own defaults and descriptions (keywords.hpp); this is the one place they are read.
#include <cstdint>
#include <string>
#include <utility>

#include "framework/core/method.hpp"
#include "framework/core/params.hpp"

namespace drbench {

struct GraphPathSetting {
  std::string gradient = "auto";  // the method's choices, auto resolved at fit time
  double theta = 0.5;
  std::int64_t neighbours = 0;           // the method's meaning of 0 (t-SNE, EE: 3 x perplexity)
  std::string neighbour_graph = "auto";  // parse_graph_kind's text
};

struct GraphPathKeys {
  ChoiceKey gradient;
  RealKey theta;
  IntKey neighbours;
  ChoiceKey neighbour_graph;
  void read(const ParamSet& p, GraphPathSetting& s) const {
    s.gradient = gradient(p);
    s.theta = theta(p);
    s.neighbours = neighbours(p);
    s.neighbour_graph = neighbour_graph(p);
  }
};

// A transductive embedding method (t-SNE, EE): fitted from its setting, its result the embedding.
template <class Setting>
class FittedEmbedding : public Method {
 public:
  explicit FittedEmbedding(Setting s) : s_(std::move(s)) {}
  arma::mat embedding() const override { return Y_; }

 protected:
  Setting s_;
  arma::mat Y_;
};

}  // namespace drbench
