#include "framework/linalg/dense_eigs.hpp"

#include <string>

#include "framework/core/error.hpp"

namespace drbench {

namespace {

template <int Rule>
bool lanczos(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k) {
  const arma::uword n = A.n_rows;
  const arma::uword ncv = std::min<arma::uword>(n, std::max<arma::uword>(2 * k + 1, 20));
  try {
    arma::newarp::DenseGenMatProd<double> op(A);
    arma::newarp::SymEigsSolver<double, Rule, arma::newarp::DenseGenMatProd<double>> eigs(op, k,
                                                                                          ncv);
    eigs.init();  // fixed internal seed: the result does not depend on any global RNG state
    const arma::uword nconv = eigs.compute(3000, 1e-12);
    if (nconv < k) return false;
    values = eigs.eigenvalues();
    vectors = eigs.eigenvectors();
  } catch (const std::exception&) {
    return false;
  }
  return values.n_elem == k && vectors.n_cols == k;
}

}  // namespace

void extreme_eigs_sym(arma::vec& values, arma::mat& vectors, const arma::mat& A, arma::uword k,
                      bool largest) {
  const arma::uword n = A.n_rows;
  if (A.n_cols != n) throw Error("extreme_eigs_sym: matrix is not square");
  if (k == 0 || k > n)
    throw MethodError("requested " + std::to_string(k) + " eigenvectors of a " + std::to_string(n) +
                      " x " + std::to_string(n) + " matrix; lower dims");
  if (n > 800 && 10 * k < n) {
    const bool ok = largest
                        ? lanczos<arma::newarp::EigsSelect::LARGEST_ALGE>(values, vectors, A, k)
                        : lanczos<arma::newarp::EigsSelect::SMALLEST_ALGE>(values, vectors, A, k);
    if (ok) {
      // newarp may return the pairs in either order; sort from the extreme inwards.
      const arma::uvec order = arma::sort_index(values, largest ? "descend" : "ascend");
      values = values(order);
      vectors = vectors.cols(order);
      return;
    }
    // Lanczos failed to converge (clustered spectrum): the full decomposition always works.
  }
  arma::vec ev;
  arma::mat V;
  if (!arma::eig_sym(ev, V, A, "dc") && !arma::eig_sym(ev, V, A, "std"))
    throw MethodError("symmetric eigendecomposition failed (non-finite input?)");
  if (largest) {
    values = arma::flipud(ev.tail(k));
    vectors = arma::fliplr(V.tail_cols(k));
  } else {
    values = ev.head(k);
    vectors = V.head_cols(k);
  }
}

}  // namespace drbench
