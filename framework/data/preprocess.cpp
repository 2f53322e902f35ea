#include "framework/data/preprocess.hpp"

#include <cmath>
#include <sstream>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/pca.hpp"

namespace drbench {

std::string PreprocStep::describe() const {
  std::ostringstream os;
  os.precision(12);
  switch (kind) {
    case Kind::Center:
      os << "center";
      break;
    case Kind::Standardize:
      os << "standardize";
      break;
    case Kind::MinMax:
      os << (per_feature ? "minmax" : "minmax(global)");
      break;
    case Kind::UnitNorm:
      os << "unit_norm";
      break;
    case Kind::Pca:
      if (components > 0)
        os << "pca(components=" << components << ")";
      else
        os << "pca(variance=" << variance << ")";
      break;
  }
  return os.str();
}

namespace {

// Principal axes of the centred training data Xc (d x n), largest variance first, with their
// variances: the one PCA (framework/linalg/pca.hpp), cut at its numerical rank, signs fixed so the
// projection does not flip between LAPACK builds.
void principal_axes(const arma::mat& Xc, arma::mat& axes, arma::vec& var) {
  PcaBasis b;
  try {
    b = pca_of_centred(Xc);
  } catch (const MethodError& e) {
    throw DataError(std::string("pca preprocessing: ") + e.what());
  }
  const arma::uword r = pca_rank(b, Xc.n_cols);
  axes = b.W.head_cols(r);
  var = b.variances.head(r);
  fix_signs(axes);
}

}  // namespace

arma::mat Pipeline::fit_apply(arma::mat X) {
  if (X.n_cols == 0) throw DataError("preprocessing: no training points to fit on");
  fitted_.clear();
  for (const auto& step : steps_) {
    Fitted f;
    bool centred = false;
    switch (step.kind) {
      case PreprocStep::Kind::Center:
        f.shift = arma::mean(X, 1);
        f.scale = arma::ones(1);
        break;
      case PreprocStep::Kind::Standardize: {
        f.shift = arma::mean(X, 1);
        f.scale = arma::stddev(X, 1, 1);  // population std, as sklearn's StandardScaler
        f.scale.replace(0.0, 1.0);        // constant features stay 0 instead of NaN
        break;
      }
      case PreprocStep::Kind::UnitNorm:
        break;  // per point: nothing to learn from the training set
      case PreprocStep::Kind::MinMax:
        if (step.per_feature) {
          f.shift = arma::min(X, 1);
          f.scale = arma::max(X, 1) - f.shift;
        } else {
          f.shift = arma::vec{X.min()};
          f.scale = arma::vec{X.max() - X.min()};
        }
        f.scale.replace(0.0, 1.0);
        break;
      case PreprocStep::Kind::Pca: {
        f.shift = arma::mean(X, 1);
        f.scale = arma::ones(1);
        // Centred in place: apply_step below then subtracts nothing more (`centred`) and
        // projects, the same operations on the same values as centring a copy.
        X.each_col() -= f.shift;
        centred = true;
        arma::mat axes;
        arma::vec var;
        principal_axes(X, axes, var);
        arma::uword k = 0;
        if (step.components > 0) {
          if (step.components > X.n_rows)
            throw DataError("preprocessing " + step.describe() +
                            ": asks for more components than the " + std::to_string(X.n_rows) +
                            " features (fix: lower components)");
          if (step.components > axes.n_cols)
            throw DataError("preprocessing " + step.describe() + ": the " +
                            std::to_string(X.n_cols) + " training points span only " +
                            std::to_string(axes.n_cols) +
                            " directions (fix: lower components or use variance=...)");
          k = step.components;
        } else {
          if (!(step.variance > 0 && step.variance <= 1))
            throw DataError("preprocessing " + step.describe() +
                            ": variance must lie in (0, 1] (fix: e.g. pca(variance=0.95))");
          const double total = arma::accu(var);
          double acc = 0;
          // Smallest k reaching the fraction; the relative slack keeps variance=1 from asking for
          // axes that only carry rounding noise.
          while (k < var.n_elem && (k == 0 || acc < step.variance * total * (1 - 1e-12)))
            acc += var(k++);
        }
        f.proj = axes.head_cols(k);
        break;
      }
    }
    fitted_.push_back(f);
    apply_step(fitted_.size() - 1, X, centred);
  }
  return X;
}

void Pipeline::apply_step(std::size_t i, arma::mat& X, bool centred) const {
  const Fitted& f = fitted_[i];
  if (steps_[i].kind == PreprocStep::Kind::UnitNorm) {
    X = unit_columns(X);
    return;
  }
  if (centred) {
    // fit_apply centred the points in place already.
  } else if (f.shift.n_elem == 1)
    X -= f.shift(0);
  else {
    if (f.shift.n_elem != X.n_rows)
      throw DataError("preprocessing " + steps_[i].describe() + ": fitted on " +
                      std::to_string(f.shift.n_elem) + " features, applied to " +
                      std::to_string(X.n_rows));
    X.each_col() -= f.shift;
  }
  if (f.scale.n_elem == 1)
    X /= f.scale(0);
  else
    X.each_col() /= f.scale;
  if (!f.proj.is_empty()) X = f.proj.t() * X;
}

arma::mat Pipeline::apply(arma::mat X) const {
  if (fitted_.size() != steps_.size()) throw Error("internal: Pipeline::apply called before fit");
  for (std::size_t i = 0; i < fitted_.size(); ++i) apply_step(i, X, false);
  return X;
}

}  // namespace drbench
