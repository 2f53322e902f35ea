#include "framework/linalg/kernel_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/linalg/distances.hpp"

extern "C" {
// BLAS symmetric rank-k update (OpenBLAS, gfortran convention with hidden string lengths).
void dsyrk_(const char* uplo, const char* trans, const arma::blas_int* n, const arma::blas_int* k,
            const double* alpha, const double* a, const arma::blas_int* lda, const double* beta,
            double* c, const arma::blas_int* ldc, std::size_t, std::size_t);
}

namespace drbench {

const KernelKeys& kernel_keys() {
  static const KernelKeys keys{
      ParamSpec::choice(
          "kernel", "rbf", {"rbf", "poly", "linear"},
          "kernel function: rbf exp(-|x-y|^2/(2 kernel_width^2)), poly (x'y + offset)^degree, "
          "linear x'y"),
      keywords::kernel_width(1.0, "the median pairwise training distance (TPSLVM: 0.3..3.75)"),
      keywords::width("relative", "the median pairwise training distance"),
      ParamSpec::integer("degree", 2, 1, 10, "polynomial kernel degree"),
      ParamSpec::real("offset", 1.0, 0.0, std::nullopt,
                      "polynomial kernel offset (>= 0 keeps it PSD)"),
  };
  return keys;
}

KernelSetting KernelKeys::operator()(const ParamSet& p) const {
  KernelSetting s;
  const std::string t = kernel(p);
  s.type = t == "linear" ? KernelSpec::Type::Linear
                         : (t == "poly" ? KernelSpec::Type::Poly : KernelSpec::Type::Rbf);
  s.width = {kernel_width(p), width(p) == "relative"};
  s.degree = static_cast<int>(degree(p));
  s.offset = offset(p);
  return s;
}

double median_distance(const arma::mat& X) {
  const arma::uword n = X.n_cols;
  if (n < 2) throw MethodError("kernel width: need at least 2 training points for width: relative");
  const arma::uword stride = std::max<arma::uword>(1, (n + 999) / 1000);
  const arma::mat S = X.cols(arma::regspace<arma::uvec>(0, stride, n - 1));
  const arma::mat D = sq_distances(S);
  std::vector<double> v;
  v.reserve(S.n_cols * (S.n_cols - 1) / 2);
  for (arma::uword j = 0; j < S.n_cols; ++j)
    for (arma::uword i = 0; i < j; ++i) v.push_back(D(i, j));
  auto mid = v.begin() + v.size() / 2;
  std::nth_element(v.begin(), mid, v.end());
  const double med = std::sqrt(*mid);
  if (!(med > 0))
    throw MethodError(
        "kernel width: median training distance is 0 (duplicate points); use "
        "width: absolute with an explicit kernel_width");
  return med;
}

KernelSpec kernel_from_setting(const KernelSetting& s, const arma::mat& X) {
  KernelSpec k;
  k.type = s.type;
  k.sigma = s.width.sigma;
  if (k.type == KernelSpec::Type::Rbf && s.width.relative) k.sigma *= median_distance(X);
  k.degree = s.degree;
  k.offset = s.offset;
  return k;
}

namespace {

// exp(-max(|a_i|^2 + |b_j|^2 - 2 a_i'b_j, 0) / (2 sigma^2)), written into the one n x m buffer
// that holds A'B. For the training Gram (A and B the same matrix) dsyrk fills the upper triangle
// only, the exp runs on it (half the calls), and one blocked pass mirrors it: the result is
// exactly symmetric and the n x n matrix is traversed by column, never by row.
arma::mat rbf_gram(const arma::mat& A, const arma::mat& B, double sigma) {
  const bool same = &A == &B;
  const double g = -0.5 / (sigma * sigma);
  const arma::rowvec a2 = arma::sum(arma::square(A), 0);
  if (!same) {
    arma::mat K = A.t() * B;
    const arma::rowvec b2 = arma::sum(arma::square(B), 0);
    for (arma::uword j = 0; j < K.n_cols; ++j) {
      double* kj = K.colptr(j);
      for (arma::uword i = 0; i < K.n_rows; ++i)
        kj[i] = std::exp(std::max(a2[i] + b2[j] - 2.0 * kj[i], 0.0) * g);
    }
    return K;
  }
  const arma::uword n = A.n_cols;
  arma::mat K(n, n);
  if (n == 0) return K;
  const arma::blas_int N = static_cast<arma::blas_int>(n),
                       D = static_cast<arma::blas_int>(A.n_rows);
  const double alpha = -2.0, beta = 0.0;
  dsyrk_("U", "T", &N, &D, &alpha, A.memptr(), &D, &beta, K.memptr(), &N, 1, 1);
  for (arma::uword j = 0; j < n; ++j) {
    double* kj = K.colptr(j);
    for (arma::uword i = 0; i <= j; ++i) kj[i] = std::exp(std::max(a2[i] + a2[j] + kj[i], 0.0) * g);
  }
  const arma::uword bs = 64;
  for (arma::uword jb = 0; jb < n; jb += bs)
    for (arma::uword ib = 0; ib <= jb; ib += bs)
      for (arma::uword j = jb; j < std::min(n, jb + bs); ++j)
        for (arma::uword i = ib; i < std::min(j, ib + bs); ++i) K(j, i) = K(i, j);
  return K;
}

}  // namespace

arma::mat gram(const KernelSpec& k, const arma::mat& A, const arma::mat& B) {
  if (A.n_rows != B.n_rows)
    throw MethodError("kernel: new points have " + std::to_string(B.n_rows) +
                      " features, the training data " + std::to_string(A.n_rows));
  switch (k.type) {
    case KernelSpec::Type::Linear:
      return A.t() * B;
    case KernelSpec::Type::Poly:
      return arma::pow(A.t() * B + k.offset, k.degree);
    case KernelSpec::Type::Rbf:
      return rbf_gram(A, B, k.sigma);
  }
  return {};
}

GramCentring centre_gram(arma::mat& K) {
  GramCentring c;
  c.row_mean = arma::mean(K, 1);
  c.mean = arma::mean(c.row_mean);
  // K is symmetric, so the column means equal the row means. One pass, in the order of the
  // three broadcasts it replaces ((K - r_i) - r_j) + m, so the same bits.
  const double* r = c.row_mean.memptr();
  for (arma::uword j = 0; j < K.n_cols; ++j) {
    double* kj = K.colptr(j);
    const double rj = r[j];
    for (arma::uword i = 0; i < K.n_rows; ++i) kj[i] = ((kj[i] - r[i]) - rj) + c.mean;
  }
  return c;
}

double select_nonnegative(std::vector<double>& v, std::size_t r) {
  if (r >= v.size()) throw Error("select_nonnegative: rank beyond the values");
  auto key = [](double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return static_cast<std::uint32_t>((b & ~(std::uint64_t(1) << 63)) >> 48);  // -0 as +0
  };
  std::vector<std::size_t> count(std::size_t(1) << 16, 0);
  for (const double x : v) ++count[key(x)];
  std::uint32_t bucket = 0;
  std::size_t below = 0;
  while (below + count[bucket] <= r) below += count[bucket++];
  std::vector<double> in;
  in.reserve(count[bucket]);
  for (const double x : v)
    if (key(x) == bucket) in.push_back(x);
  auto mid = in.begin() + static_cast<std::ptrdiff_t>(r - below);
  std::nth_element(in.begin(), mid, in.end());
  return *mid;
}

arma::mat centred_training_gram_upper(const KernelSetting& s, const arma::mat& X, KernelSpec& k,
                                      GramCentring& c) {
  const keywords::KernelWidth w = s.width;
  const arma::uword n = X.n_cols;
  if (s.type != KernelSpec::Type::Rbf || n == 0) {
    k = kernel_from_setting(s, X);
    arma::mat K = gram(k, X, X);
    c = centre_gram(K);
    return K;
  }
  k = KernelSpec{};
  k.type = KernelSpec::Type::Rbf;
  k.degree = s.degree;
  k.offset = s.offset;
  arma::mat K(n, n);
  const arma::blas_int N = static_cast<arma::blas_int>(n),
                       D = static_cast<arma::blas_int>(X.n_rows);
  const double alpha = -2.0, beta = 0.0;
  dsyrk_("U", "T", &N, &D, &alpha, X.memptr(), &D, &beta, K.memptr(), &N, 1, 1);
  const arma::rowvec a2 = arma::sum(arma::square(X), 0);
  // Squared distances as the kernel sees them (rbf_gram's expression), on the upper triangle.
  auto sq = [&](arma::uword i, arma::uword j) { return std::max(a2[i] + a2[j] + K(i, j), 0.0); };
  k.sigma = w.sigma;
  if (w.relative) {
    if (n < 2)
      throw MethodError("kernel width: need at least 2 training points for width: relative");
    // median_distance's pairs: those of every stride-th column.
    const arma::uword stride = std::max<arma::uword>(1, (n + 999) / 1000);
    std::vector<double> v;
    const arma::uword m = (n - 1) / stride + 1;
    v.reserve(m * (m - 1) / 2);
    for (arma::uword j = 0; j < n; j += stride)
      for (arma::uword i = 0; i < j; i += stride) v.push_back(sq(i, j));
    const double med = std::sqrt(select_nonnegative(v, v.size() / 2));
    if (!(med > 0))
      throw MethodError(
          "kernel width: median training distance is 0 (duplicate points); use "
          "width: absolute with an explicit kernel_width");
    k.sigma *= med;
  }
  const double g = -0.5 / (k.sigma * k.sigma);
  arma::vec sums(n, arma::fill::zeros);
  double* rs = sums.memptr();
  for (arma::uword j = 0; j < n; ++j) {
    double* kj = K.colptr(j);
    double sj = 0.0;
    for (arma::uword i = 0; i < j; ++i) {
      const double e = std::exp(std::max(a2[i] + a2[j] + kj[i], 0.0) * g);
      kj[i] = e;
      rs[i] += e;
      sj += e;
    }
    kj[j] = std::exp(std::max(a2[j] + a2[j] + kj[j], 0.0) * g);
    rs[j] += sj + kj[j];
  }
  c.row_mean = sums / double(n);
  c.mean = arma::mean(c.row_mean);
  const double* r = c.row_mean.memptr();
  for (arma::uword j = 0; j < n; ++j) {
    double* kj = K.colptr(j);
    const double rj = r[j];
    for (arma::uword i = 0; i <= j; ++i) kj[i] = ((kj[i] - r[i]) - rj) + c.mean;
  }
  return K;
}

arma::mat centre_test_gram(const arma::mat& Kt, const GramCentring& c) {
  arma::mat Kc = Kt;
  Kc.each_col() -= c.row_mean;
  Kc.each_row() -= arma::mean(Kt, 0);
  Kc += c.mean;
  return Kc;
}

}  // namespace drbench
