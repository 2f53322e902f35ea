#include "methods/linear/pca_models.hpp"

#include <algorithm>
#include <utility>

namespace drbench {

void describe_pca_models(MethodInfo& m) {
  m.transform_reproduces_embedding = true;
}

}  // namespace drbench
