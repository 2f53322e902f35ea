// Landmark MDS (de Silva & Tenenbaum, "Sparse multidimensional scaling using landmark points",
// 2004, section 3): classical MDS of the squared Euclidean distances among m landmarks only, then
// every point, training or new, placed by distance-based triangulation from its squared distances
// to the landmarks, y = -1/2 L# (delta_x - delta_mean) with L# = diag(1/sqrt(lambda)) V'. That is
// Gower's formula on the landmarks, so with every point a landmark it is classical MDS (`mds`).
// Memory and time are O(n m) instead of O(n^2). Landmarks are drawn at random (the paper's first
// choice) or by MaxMin (its second: each next landmark the point farthest from those chosen, the
// first at random). The optional PCA re-alignment of the paper's step 4 is left out: it rotates
// the embedding, which no distance-based score sees.
#include <algorithm>
#include <string>

#include "framework/budget/budget.hpp"
#include "framework/core/error.hpp"
#include "framework/core/keywords.hpp"
#include "framework/core/registry.hpp"
#include "framework/linalg/distances.hpp"
#include "framework/neighbours/graph_memory.hpp"
#include "methods/common/landmarks.hpp"

namespace drbench {

namespace {

// Points placed per block, so the squared distances to the landmarks stay m x block.
constexpr arma::uword kPlaceBlock = 4096;

class LandmarkMds final : public Method {
 public:
  LandmarkMds(arma::uword landmarks, bool maxmin) : m_(landmarks), maxmin_(maxmin) {}

  void fit(const FitInput& in) override {
    const arma::uword n = in.X.n_cols, m = m_ == 0 ? n : std::min(m_, n);
    if (in.trace && m < m_) in.trace->note("landmarks_used", std::to_string(m));
    if (in.dim >= m)
      throw MethodError("landmark_mds: dims=" + std::to_string(in.dim) + " needs more than " +
                        std::to_string(in.dim) + " landmarks; raise 'landmarks'");
    // Ascending, so that m = n takes the points in their own order (classical MDS exactly).
    arma::uvec idx;
    if (m == n)
      idx = arma::regspace<arma::uvec>(0, n - 1);
    else if (maxmin_)
      idx = arma::sort(maxmin_landmarks(in.X, m, in.rng));
    else
      idx = arma::sort(arma::uvec(in.rng.permutation(n).head(m)));
    L_ = in.X.cols(idx);
    triangulation_.fit(sq_distances(L_), in.dim, "landmark_mds");
    Y_ = place(in.X);
  }
  arma::mat embedding() const override { return Y_; }
  arma::mat transform(const arma::mat& Xnew) const override {
    if (Xnew.n_rows != L_.n_rows)
      throw MethodError("landmark_mds transform: new points have " + std::to_string(Xnew.n_rows) +
                        " features, the training data " + std::to_string(L_.n_rows));
    return place(Xnew);
  }

 private:
  // Triangulation, block by block.
  arma::mat place(const arma::mat& X) const {
    arma::mat Y(triangulation_.dim(), X.n_cols);
    for (arma::uword s = 0; s < X.n_cols; s += kPlaceBlock) {
      const arma::uword e = std::min<arma::uword>(X.n_cols, s + kPlaceBlock);
      Y.cols(s, e - 1) = triangulation_.place(sq_distances(L_, X.cols(s, e - 1)));
    }
    return Y;
  }
  arma::uword m_;
  bool maxmin_;
  arma::mat L_;  // d x m landmarks
  LandmarkTriangulation triangulation_;
  arma::mat Y_;
};

// The parameters the contract and the budget both read.
struct LandmarkMdsKeys {
  IntKey landmarks = keywords::landmarks(
      100,
      "drawn from the training points (all of them when fewer; 0 = every point, classical MDS)");
};

MethodInfo landmark_mds_info() {
  MethodInfo m = describe_method(
      "landmark_mds", "manifold",
      "landmark MDS: classical MDS on landmarks, every point placed by triangulation",
      "de Silva & Tenenbaum, Sparse multidimensional scaling using landmark points (2004), "
      "section 3");
  const auto [landmarks] = LandmarkMdsKeys{};
  const ChoiceKey choice = keywords::landmark_choice();
  m.params = {landmarks, choice};
  m.transform_reproduces_embedding = true;
  m.max_dim = [](const DataShape& s, const ParamSet&) {
    return std::min<arma::uword>(s.n > 0 ? s.n - 1 : 0, s.d);
  };
  m.make = [=](const ParamSet& p) {
    return std::make_unique<LandmarkMds>(arma::uword(landmarks(p)), choice(p) == "maxmin");
  };
  return m;
}

}  // namespace
// The landmarks' m x m eigenproblem and the n x m distances of the triangulation (MaxMin: m
// passes over the data).
DRBENCH_METHOD(landmark_mds_info,
               make_budget(
                   [keys = LandmarkMdsKeys{}](const TaskSize& z) {
                     const double lm = landmarks_used(keys.landmarks(z.p), z.shape.n),
                                  n = z.n + z.n_test;
                     return lm * lm * (z.d + 10.0 * lm) + 2.0 * n * lm * z.d;
                   },
                   [keys = LandmarkMdsKeys{}](const TaskSize& z) {
                     const double lm = landmarks_used(keys.landmarks(z.p), z.shape.n),
                                  block = double(std::min<arma::uword>(
                                      std::max(z.shape.n, z.shape.n_test), kPlaceBlock));
                     return kProcessBaseBytes +
                            8.0 * (3.0 * lm * lm + lm * z.d + 2.0 * lm * block) +
                            8.0 * z.q * (z.n + z.n_test) * 2.0;
                   }))
}  // namespace drbench
