// No transformation: the "1-NN in the original space" row of every table. The embedding is the
// (preprocessed) data itself, so `dims` is ignored and reported as the input dimension.
#include "framework/budget/budget.hpp"
#include "framework/core/registry.hpp"

namespace drbench {
namespace {

class Identity final : public Method {
 public:
  void fit(const FitInput& in) override { X_ = in.X; }
  arma::mat embedding() const override { return X_; }
  arma::mat transform(const arma::mat& Xnew) const override { return Xnew; }

 private:
  arma::mat X_;
};

MethodInfo identity_info() {
  MethodInfo m = describe_method("identity", "baseline",
                                 "no transformation (kNN in the input space); dims are ignored",
                                 "the 1NN row of GPLRF Table 1");
  // Any requested dim is accepted: the embedding is the input whatever it says.
  m.max_dim = [](const DataShape&, const ParamSet&) { return arma::uword(-1); };
  m.transform_reproduces_embedding = true;
  m.make = [](const ParamSet&) { return std::make_unique<Identity>(); };
  return m;
}

}  // namespace
// The data itself is the embedding: copies of the training and test points, no n x n matrix.
DRBENCH_METHOD(identity_info, linear_budget([](const TaskSize& z) { return z.n * z.d; }))
}  // namespace drbench
