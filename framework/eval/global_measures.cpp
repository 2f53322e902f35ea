#include "framework/eval/global_measures.hpp"

#include <random>
#include <string>

#include "framework/core/error.hpp"
#include "framework/core/rng.hpp"
#include "framework/linalg/column_distance.hpp"
#include "framework/linalg/pca.hpp"

namespace drbench {

namespace {

void same_points(const arma::mat& high, const arma::mat& low, const char* what) {
  if (high.n_cols != low.n_cols)
    throw Error(std::string(what) + ": the input holds " + std::to_string(high.n_cols) +
                " points but the embedding " + std::to_string(low.n_cols));
}

}  // namespace

arma::umat sample_random_triplets(arma::uword n, arma::uword per_point, std::uint64_t seed) {
  if (n < 3) throw Error("random triplets need at least 3 points, got " + std::to_string(n));
  Rng rng(seed);
  std::uniform_int_distribution<arma::uword> pick_j(0, n - 2), pick_k(0, n - 3);
  arma::umat t(3, n * per_point);
  arma::uword c = 0;
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword s = 0; s < per_point; ++s, ++c) {
      // j uniform over the n - 1 others, k over the n - 2 left: skip past the excluded indices.
      arma::uword j = pick_j(rng.engine());
      if (j >= i) ++j;
      arma::uword k = pick_k(rng.engine());
      const arma::uword lo = std::min(i, j), hi = std::max(i, j);
      if (k >= lo) ++k;
      if (k >= hi) ++k;
      t(0, c) = i, t(1, c) = j, t(2, c) = k;
    }
  return t;
}

double random_triplet_accuracy(const arma::mat& high, const arma::mat& low,
                               const arma::umat& triplets, arma::vec* per_anchor) {
  same_points(high, low, "random_triplet");
  if (triplets.n_rows != 3 || triplets.n_cols == 0)
    throw Error("random_triplet: needs a 3 x T matrix of triplets");
  if (triplets.max() >= high.n_cols)
    throw Error("random_triplet: a triplet names a point beyond the " +
                std::to_string(high.n_cols) + " given");
  arma::vec agree(high.n_cols, arma::fill::zeros), count(high.n_cols, arma::fill::zeros);
  for (arma::uword c = 0; c < triplets.n_cols; ++c) {
    const arma::uword i = triplets(0, c), j = triplets(1, c), k = triplets(2, c);
    const bool h = column_sq_distance(high, i, j) < column_sq_distance(high, i, k);
    const bool l = column_sq_distance(low, i, j) < column_sq_distance(low, i, k);
    agree(i) += (h == l) ? 1.0 : 0.0;
    count(i) += 1.0;
  }
  if (per_anchor) {
    const arma::uvec has = arma::find(count > 0);
    *per_anchor = agree.elem(has) / count.elem(has);
  }
  return arma::accu(agree) / double(triplets.n_cols);
}

double centroid_triplet_accuracy(const arma::mat& high, const arma::mat& low,
                                 const arma::uvec& labels) {
  same_points(high, low, "centroid_triplet");
  if (labels.n_elem != high.n_cols)
    throw Error("centroid_triplet: " + std::to_string(labels.n_elem) + " labels for " +
                std::to_string(high.n_cols) + " points");
  const arma::uvec classes = arma::unique(labels);
  const arma::uword c = classes.n_elem;
  if (c < 3)
    throw Error("centroid_triplet needs at least 3 classes among the scored points, got " +
                std::to_string(c) + " (fix: drop it from evaluation.quality for this dataset)");
  arma::mat ch(high.n_rows, c), cl(low.n_rows, c);
  for (arma::uword a = 0; a < c; ++a) {
    const arma::uvec idx = arma::find(labels == classes(a));
    ch.col(a) = arma::mean(high.cols(idx), 1);
    cl.col(a) = arma::mean(low.cols(idx), 1);
  }
  std::vector<double> dh, dl;  // distances of the class pairs, in one order for both spaces
  for (arma::uword a = 0; a < c; ++a)
    for (arma::uword b = a + 1; b < c; ++b) {
      dh.push_back(column_sq_distance(ch, a, b));
      dl.push_back(column_sq_distance(cl, a, b));
    }
  // Squared distances order as distances do. A tie counts as "not greater" in both spaces, as in
  // the authors' evaluation code.
  double agree = 0, all = 0;
  for (std::size_t p = 0; p < dh.size(); ++p)
    for (std::size_t q = p + 1; q < dh.size(); ++q) {
      agree += ((dh[p] > dh[q]) == (dl[p] > dl[q])) ? 1.0 : 0.0;
      all += 1.0;
    }
  return agree / all;
}

double global_score(const arma::mat& high, const arma::mat& low) {
  same_points(high, low, "global_score");
  const arma::uword q = low.n_rows;
  const arma::mat Xc = high.each_col() - arma::mean(high, 1);
  const arma::mat Yc = low.each_col() - arma::mean(low, 1);
  const double total = arma::accu(arma::square(Xc));
  // Best rank-q linear reconstruction (PCA): what is left beyond the top q eigenvalues.
  const PcaBasis pb = pca_basis(high, std::min<arma::uword>(q, high.n_rows));
  const double n1 = double(high.n_cols) - 1.0;
  const double loss_pca = total - n1 * arma::accu(pb.variances);
  if (!(loss_pca > 1e-12 * total))
    throw Error("global_score: the input's rank is at most the embedding's " + std::to_string(q) +
                " dimensions, so PCA reconstructs it exactly and the score is undefined (fix: "
                "drop global_score from evaluation.quality for this setting)");
  // Least squares from the embedding: project the input onto the span of the embedding's
  // centred coordinates (an orthonormal basis, directions of numerically zero spread dropped).
  arma::mat U, V;
  arma::vec s;
  if (!arma::svd_econ(U, s, V, Yc.t(), "left"))
    throw Error("global_score: the SVD of the embedding failed");
  const arma::uvec keep = arma::find(s > s.max() * 1e-12 * double(high.n_cols));
  const arma::mat B = U.cols(keep);  // N x r
  const double explained = arma::accu(arma::square(Xc * B));
  const double loss = total - explained;
  return std::exp(-(loss - loss_pca) / loss_pca);
}

}  // namespace drbench
