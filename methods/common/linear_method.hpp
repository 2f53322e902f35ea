#pragma once
// What every linear projection method shares: after fitting it is a mean and a d x dim matrix A,
// the embedding of x is A^T (x - mean), and new points map the same way. Keeping the one formula
// here is what makes "transform(training X) == embedding()" hold for every method by design.
#include <armadillo>
#include <string>
#include <utility>

#include "framework/core/error.hpp"
#include "framework/core/method.hpp"

namespace drbench {

class LinearMethod : public Method {
 public:
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override {
    if (Xnew.n_rows != mean_.n_elem)
      throw MethodError(name_ + ": new points have dimension " + std::to_string(Xnew.n_rows) +
                        ", the model was fitted on dimension " + std::to_string(mean_.n_elem));
    return A_.t() * (Xnew.each_col() - mean_);
  }
  const arma::mat& projection() const { return A_; }  // d x dim
  const arma::vec& mean() const { return mean_; }

 protected:
  explicit LinearMethod(std::string name) : name_(std::move(name)) {}
  // Stores the map and the training embedding (computed with the same formula as transform).
  void set_projection(const arma::mat& X, arma::vec mean, arma::mat A) {
    mean_ = std::move(mean);
    A_ = std::move(A);
    Y_ = A_.t() * (X.each_col() - mean_);
  }
  // Common argument checks; `what` is the method name for messages.
  void require_dim(arma::uword dim, arma::uword limit, const std::string& why) const {
    if (dim == 0 || dim > limit)
      throw MethodError(name_ + ": dims=" + std::to_string(dim) + " must be in 1.." +
                        std::to_string(limit) + " (" + why + "); lower 'dims'");
  }
  const arma::uvec& require_labels(const FitInput& in) const {
    if (!in.labels || in.labels->n_elem != in.X.n_cols)
      throw MethodError(name_ + " is supervised: it needs one label per training point");
    return *in.labels;
  }
  std::string name_;

 private:
  arma::vec mean_;
  arma::mat A_;
  arma::mat Y_;
};

// A linear method whose directions solve an eigenproblem, which keeps the eigenvalues of its
// fitted directions (in the order of A's columns) beside the map.
class EigenProjection : public LinearMethod {
 public:
  const arma::vec& eigenvalues() const { return values_; }

 protected:
  using LinearMethod::LinearMethod;
  // set_projection, with the eigenvalues that go with A's columns.
  void set_eigen_projection(const arma::mat& X, arma::vec mean, arma::mat A, arma::vec values) {
    values_ = std::move(values);
    set_projection(X, std::move(mean), std::move(A));
  }

 private:
  arma::vec values_;
};

}  // namespace drbench
