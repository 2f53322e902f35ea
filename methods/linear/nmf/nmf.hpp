#pragma once
// Non-negative matrix factorisation with the Frobenius loss, as scikit-learn's NMF (1.2): the
// n x d data X' ~ W H with W (n x dim) and H (dim x d) non-negative, started by NNDSVD (Boutsidis
// & Gallopoulos 2008; `nndsvda` fills its zeros with the data's mean, `nndsvd` leaves them, and
// `random` draws |N(0, mean/dim)| from the task's engine) and fitted by cyclic coordinate descent
// (Cichocki & Phan 2009, scikit-learn's solver='cd', stopped when the projected-gradient violation
// falls to `tolerance` of the first sweep's) or by Lee & Seung's multiplicative updates (2001,
// solver='mu', stopped when the error measured every tenth iteration fell by less than
// `tolerance` of the start's). The embedding is W; a new point is its non-negative code for the
// fixed H (the same solver on W alone, as scikit-learn's transform), so the training points'
// transform is a fresh solve, close to W but not bit-equal. NNDSVD takes the exact thin SVD where
// scikit-learn takes a randomized one (identical when dim + 10 reaches min(n, d)).
#include <armadillo>
#include <string>

#include "framework/core/method.hpp"

namespace drbench {

struct NmfSetting {
  std::string solver = "cd";     // cd | mu
  std::string init = "nndsvda";  // nndsvda | nndsvd | random
  arma::uword iterations = 200;
  double tolerance = 1e-4;
  // Negative entries: refused (scikit-learn), or every feature shifted by its training minimum
  // (new points shifted the same and clipped at 0), for data already standardised.
  bool shift = false;
};

// One sweep of coordinate descent over the columns of W (n x k) for min |X - W H|^2, W >= 0, given
// HHt = H H' and XHt = X H' (scikit-learn's _update_cdnmf_fast); returns the sum of |projected
// gradient| before each coordinate's update.
double nmf_cd_sweep(arma::mat& W, const arma::mat& HHt, const arma::mat& XHt);

// NNDSVD of non-negative X (n x d) with k components: W (n x k), H (k x d); `fill_mean` is
// nndsvda.
void nndsvd(const arma::mat& X, arma::uword k, bool fill_mean, arma::mat& W, arma::mat& H);

class Nmf final : public Method {
 public:
  explicit Nmf(const NmfSetting& s) : s_(s) {}
  void fit(const FitInput& in) override;
  arma::mat embedding() const override { return W_.t(); }
  arma::mat transform(const arma::mat& Xnew) const override;
  const arma::mat& components() const { return H_; }  // dim x d
  // |X' - W H|_F of the training data (scikit-learn's reconstruction_err_).
  double reconstruction_error() const { return error_; }
  arma::uword iterations_run() const { return iterations_run_; }

 private:
  // n x d data, shifted when the setting says so; refuses negative entries otherwise.
  arma::mat prepare(const arma::mat& X, bool training) const;
  NmfSetting s_;
  arma::vec shift_;
  arma::mat W_, H_;
  double error_ = 0;
  arma::uword iterations_run_ = 0;
};

}  // namespace drbench
