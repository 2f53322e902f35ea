#pragma once
// The contract of a linear projection without parameters (pca, ppca, truncated_svd,
// random_projection): family "linear", new points by the fitted map, so transform(training
// points) == embedding(), and M made by its default constructor. The method adds its max_dim where
// the registry's default min(n - 1, d) does not fit it.
#include <memory>
#include <string>
#include <utility>

#include "framework/core/registry.hpp"

namespace drbench {

template <class M>
MethodInfo describe_plain_projection(std::string name, std::string summary, std::string reference) {
  MethodInfo m =
      describe_method(std::move(name), "linear", std::move(summary), std::move(reference));
  m.transform_reproduces_embedding = true;
  m.make = [](const ParamSet&) { return std::make_unique<M>(); };
  return m;
}

}  // namespace drbench
