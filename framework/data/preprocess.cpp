#include "framework/data/preprocess.hpp"

#include <cmath>
#include <sstream>

#include "framework/core/error.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/linalg/eigen.hpp"
#include "framework/linalg/pca.hpp"
#include "framework/linalg/sparse_pca.hpp"

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

arma::uword Pipeline::pca_components(const PreprocStep& step, const arma::mat& axes,
                                     const arma::vec& var, double total, arma::uword d,
                                     arma::uword n) const {
  arma::uword k = 0;
  if (step.components > 0) {
    if (step.components > d)
      throw DataError("preprocessing " + step.describe() + ": asks for more components than the " +
                      std::to_string(d) + " features (fix: lower components)");
    if (step.components > axes.n_cols)
      throw DataError("preprocessing " + step.describe() + ": the " + std::to_string(n) +
                      " training points span only " + std::to_string(axes.n_cols) +
                      " directions (fix: lower components or use variance=...)");
    return step.components;
  }
  if (!(step.variance > 0 && step.variance <= 1))
    throw DataError("preprocessing " + step.describe() +
                    ": variance must lie in (0, 1] (fix: e.g. pca(variance=0.95))");
  double acc = 0;
  // Smallest k reaching the fraction; the relative slack keeps variance=1 from asking for
  // axes that only carry rounding noise.
  while (k < var.n_elem && (k == 0 || acc < step.variance * total * (1 - 1e-12))) acc += var(k++);
  return k;
}

arma::mat Pipeline::fit_apply(arma::mat X) {
  if (X.n_cols == 0) throw DataError("preprocessing: no training points to fit on");
  fitted_.clear();
  return fit_from(0, std::move(X));
}

arma::mat Pipeline::fit_from(std::size_t first, arma::mat X) {
  for (std::size_t i = first; i < steps_.size(); ++i) {
    const PreprocStep& step = steps_[i];
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
        f.proj =
            axes.head_cols(pca_components(step, axes, var, arma::accu(var), X.n_rows, X.n_cols));
        break;
      }
    }
    fitted_.push_back(f);
    apply_step(fitted_.size() - 1, X, centred);
  }
  return X;
}

bool Pipeline::sparse_runs(const std::vector<PreprocStep>& steps) {
  for (const auto& s : steps) {
    if (s.kind == PreprocStep::Kind::Pca) return true;
    if (s.kind != PreprocStep::Kind::UnitNorm) return false;
  }
  return false;
}

namespace {

void unit_columns_sparse(arma::sp_mat& X) {
  X.sync();
  const arma::uvec rows(X.row_indices, X.n_nonzero), ptrs(X.col_ptrs, X.n_cols + 1);
  arma::vec vals(X.values, X.n_nonzero);
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    double s = 0;
    for (arma::uword p = ptrs(j); p < ptrs(j + 1); ++p) s += vals(p) * vals(p);
    if (s == 0) continue;  // a zero point stays zero, as unit_columns leaves it
    const double norm = std::sqrt(s);
    for (arma::uword p = ptrs(j); p < ptrs(j + 1); ++p) vals(p) /= norm;
  }
  X = arma::sp_mat(rows, ptrs, vals, X.n_rows, X.n_cols);
}

// P' (X - shift 1') for sparse X without the dense centred matrix: P' X - (P' shift) 1'.
arma::mat project_sparse(const arma::mat& P, const arma::vec& shift, const arma::sp_mat& X) {
  arma::mat Z = P.t() * X;
  Z.each_col() -= P.t() * shift;
  return Z;
}

}  // namespace

arma::mat Pipeline::fit_apply(const arma::sp_mat& X) {
  if (X.n_cols == 0) throw DataError("preprocessing: no training points to fit on");
  if (!sparse_runs(steps_)) return fit_apply(arma::mat(X));
  fitted_.clear();
  arma::sp_mat Xw(X);
  std::size_t i = 0;
  for (; steps_[i].kind == PreprocStep::Kind::UnitNorm; ++i) {
    unit_columns_sparse(Xw);
    fitted_.push_back(Fitted{});
  }
  const PreprocStep& step = steps_[i];
  SparsePca sp;
  try {
    sp = pca_of_sparse(Xw, step.components, step.variance);
  } catch (const MethodError& e) {
    throw DataError(std::string("pca preprocessing: ") + e.what());
  }
  PcaBasis& b = sp.basis;
  const arma::uword r = pca_rank(b, Xw.n_cols);
  arma::mat axes = b.W.head_cols(r);
  const arma::vec var = b.variances.head(r);
  fix_signs(axes);
  // With every direction computed the total is theirs, as the dense path counts it.
  const double total = sp.all ? arma::accu(var) : b.total_variance;
  Fitted f;
  f.shift = b.mean;
  f.scale = arma::ones(1);
  f.proj = axes.head_cols(pca_components(step, axes, var, total, Xw.n_rows, Xw.n_cols));
  arma::mat Z = project_sparse(f.proj, f.shift, Xw);
  fitted_.push_back(std::move(f));
  return fit_from(i + 1, std::move(Z));
}

arma::mat Pipeline::apply(const arma::sp_mat& X) const {
  if (!sparse_runs(steps_)) return apply(arma::mat(X));
  if (fitted_.size() != steps_.size()) throw Error("internal: Pipeline::apply called before fit");
  arma::sp_mat Xw(X);
  std::size_t i = 0;
  for (; steps_[i].kind == PreprocStep::Kind::UnitNorm; ++i) unit_columns_sparse(Xw);
  const Fitted& f = fitted_[i];
  if (f.shift.n_elem != Xw.n_rows)
    throw DataError("preprocessing " + steps_[i].describe() + ": fitted on " +
                    std::to_string(f.shift.n_elem) + " features, applied to " +
                    std::to_string(Xw.n_rows));
  arma::mat Z = project_sparse(f.proj, f.shift, Xw);
  for (++i; i < fitted_.size(); ++i) apply_step(i, Z, false);
  return Z;
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
