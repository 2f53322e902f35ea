// The eigensolver options for KPCA's few leading components (docs/benchmarks.md, "Residual speed
// rows"): the centred RBF Gram matrix of the 2,000 USPS points of benchmarks/usps_2000.hpp at the
// median width (what `kpca` with its defaults decomposes), its k largest eigenpairs by
//   lanczos   extreme_eigs_sym: single-vector Lanczos (newarp), one dsymv per product
//   early     largest_eigs_sym: Lanczos with full reorthogonalisation, stopping at convergence
// (A block Lanczos with one dsymm per block of k + 1 vectors was tried and dropped: OpenBLAS packs
// the matrix in every dsymm, and at k = 2 it took 52 against newarp's 20 ms CPU.)
//   dsyevr    LAPACK dsyevr with an index range (tridiagonal reduction, then only k vectors)
// One thread: OPENBLAS_NUM_THREADS=1 build/benchmarks/bench_kpca_eigs
//   --benchmark_enable_random_interleaving=true --benchmark_repetitions=5
// (interleaving puts the load of other jobs on a shared machine on every solver alike).
#include <benchmark/benchmark.h>

#include "benchmarks/usps_2000.hpp"
#include "framework/linalg/dense_eigs.hpp"
#include "framework/linalg/kernel_matrix.hpp"

extern "C" void dsyevr_(const char* jobz, const char* range, const char* uplo,
                        const arma::blas_int* n, double* a, const arma::blas_int* lda,
                        const double* vl, const double* vu, const arma::blas_int* il,
                        const arma::blas_int* iu, const double* abstol, arma::blas_int* m,
                        double* w, double* z, const arma::blas_int* ldz, arma::blas_int* isuppz,
                        double* work, const arma::blas_int* lwork, arma::blas_int* iwork,
                        const arma::blas_int* liwork, arma::blas_int* info, std::size_t,
                        std::size_t, std::size_t);

namespace {

const arma::mat& centred_gram() {
  static const arma::mat K = [] {
    drbench::KernelSetting s;  // rbf, width 1 x the median distance: kpca's defaults
    drbench::KernelSpec spec;
    drbench::GramCentring c;
    return arma::mat(arma::symmatu(
        drbench::centred_training_gram_upper(s, drbench::bench::usps_2000().X, spec, c)));
  }();
  return K;
}

void lanczos(benchmark::State& state) {
  const arma::mat& K = centred_gram();
  arma::vec v;
  arma::mat V;
  for (auto _ : state) drbench::extreme_eigs_sym(v, V, K, arma::uword(state.range(0)), true);
  state.counters["lambda_k"] = v(v.n_elem - 1);
}

void early(benchmark::State& state) {
  const arma::mat& K = centred_gram();
  arma::vec v;
  arma::mat V;
  arma::uword products = 0;
  for (auto _ : state) drbench::largest_eigs_sym(v, V, K, arma::uword(state.range(0)), &products);
  state.counters["lambda_k"] = v(v.n_elem - 1);
  state.counters["products"] = double(products);
  // How far the vectors are from newarp's (up to sign), relative to their largest entry: the two
  // solvers' tolerance, not round-off, separates them.
  arma::vec v0;
  arma::mat V0;
  drbench::extreme_eigs_sym(v0, V0, K, V.n_cols, true);
  double diff = 0.0;
  for (arma::uword j = 0; j < V.n_cols; ++j)
    diff = std::max(diff, std::min(arma::abs(V.col(j) - V0.col(j)).max(),
                                   arma::abs(V.col(j) + V0.col(j)).max()) /
                              arma::abs(V0.col(j)).max());
  state.counters["vec_diff"] = diff;
  state.counters["val_diff"] = arma::abs(v - v0).max() / std::abs(v0(0));
}

void dsyevr(benchmark::State& state) {
  const arma::mat& K = centred_gram();
  const arma::blas_int n = static_cast<arma::blas_int>(K.n_rows);
  const arma::blas_int k = static_cast<arma::blas_int>(state.range(0));
  const arma::blas_int il = n - k + 1, iu = n, lwork = 26 * n, liwork = 10 * n;
  arma::vec w(n);
  arma::mat Z(n, k);
  arma::Col<arma::blas_int> isuppz(2 * k), iwork(liwork);
  arma::vec work(lwork);
  const double zero = 0.0;
  arma::blas_int m = 0, info = 0;
  for (auto _ : state) {
    arma::mat A = K;  // dsyevr destroys its input
    dsyevr_("V", "I", "U", &n, A.memptr(), &n, &zero, &zero, &il, &iu, &zero, &m, w.memptr(),
            Z.memptr(), &n, isuppz.memptr(), work.memptr(), &lwork, iwork.memptr(), &liwork, &info,
            1, 1, 1);
  }
  state.counters["lambda_k"] = w(0);
}

}  // namespace

BENCHMARK(lanczos)->Arg(2)->Arg(9)->Unit(benchmark::kMillisecond);
BENCHMARK(early)->Arg(2)->Arg(9)->Unit(benchmark::kMillisecond);
BENCHMARK(dsyevr)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
