#pragma once
// The budget shape dee and dsne share: a dense path of n x n matrices and a linear-time one
// (Barnes-Hut), which linear_embedding_uses_barnes_hut picks for a setting, n and dim.
#include <utility>

#include "framework/budget/budget.hpp"
#include "methods/neighbour/linear_embedding.hpp"

namespace drbench {

// Dense: `dense_cost`, memory_dense with `dense_fit` n x n while fitting and none kept. Linear
// time: `bh_cost` and `bh_memory`.
inline Budget linear_embedding_budget(const LinearEmbeddingKeys& k, TaskEstimate dense_cost,
                                      double dense_fit, TaskEstimate bh_cost,
                                      TaskEstimate bh_memory) {
  const auto barnes_hut = [gradient = k.gradient](const TaskSize& z) {
    return linear_embedding_uses_barnes_hut(gradient(z.p), z.shape.n, z.dim);
  };
  return make_budget([=](const TaskSize& z) { return barnes_hut(z) ? bh_cost(z) : dense_cost(z); },
                     [=](const TaskSize& z) {
                       return barnes_hut(z) ? bh_memory(z)
                                            : memory_dense(z.shape, z.dim, dense_fit, 0.0);
                     });
}

}  // namespace drbench
