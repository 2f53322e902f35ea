#pragma once
// The parameter vocabulary (docs/parameters.md): one name and one meaning per concept, declared
// here once so that every method that has the concept spells and documents it the same way.
// A method picks its default and range; the name, type and meaning come from here. Names that
// earlier versions used for the same concepts are kept in a table so that a config still using
// one fails with the new name in its fix.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "framework/core/params.hpp"

namespace drbench {

struct MethodInfo;

namespace keywords {

// `neighbours` (int): neighbours of each point in a graph. `what` completes the doc line.
IntKey neighbours(std::int64_t def, std::int64_t lo, std::int64_t hi, const std::string& what);
// `iterations` (int): cap on the iterations of a method's optimiser.
IntKey iterations(std::int64_t def, std::int64_t hi, const std::string& what);
// `tolerance` (real >= 0, at most `hi`): when an iterative method may stop before its iteration
// cap; `what` states the method's test (relative change, or Netlab's absolute x and f change).
RealKey tolerance(double def, std::optional<double> hi, const std::string& what);
// `objective_tolerance` (real >= 0): stop when the objective fell by at most this fraction of
// max(|f|, 1) over the last `tolerance_window` iterations; 0 disables the test.
RealKey objective_tolerance(double def, const std::string& what);
// `tolerance_window` (int >= 1): the iterations objective_tolerance measures the decrease over.
IntKey tolerance_window(std::int64_t def, const std::string& what);
// `gradient_tolerance` (real >= 0): stop when the gradient's largest component falls below this;
// 0 disables the test.
RealKey gradient_tolerance(double def, const std::string& what);
// `projection_norm` (choice {constraint, unit}): how a linear method scales its projection
// vectors: as its eigenproblem's constraint leaves them (a^T B a = 1), or to unit Euclidean length
// in input space (Deng Cai's LGE code). The scales weight the latent axes in a kNN distance.
ChoiceKey projection_norm(const std::string& what);
// `kernel_scale` (choice {median, graph}): what a relative kernel_width multiplies in a method with
// both a kernel function and a kNN graph: the median pairwise training distance, or the root mean
// squared edge length of its graph (which shrinks as the training set grows). Unkeyed at median.
ChoiceKey kernel_scale(const std::string& what);
// `weights` (choice {heat, binary}): edge weights of a graph, exp(-d^2/t) or 1.
ChoiceKey weights(const std::string& what);
// `weights` with a method's own choices (e.g. neighbour embeddings: {perplexity, gaussian}).
ChoiceKey weights(const std::string& def, std::vector<std::string> choices,
                  const std::string& what);
// `kernel_width` (real > 0): sigma of the Gaussian exp(-r^2 / (2 sigma^2)). `reference` says what
// a relative width multiplies (empty when the method only reads it in input units).
RealKey kernel_width(double def, const std::string& reference);
// `width` (choice {relative, absolute}): how kernel_width is read, for methods that offer both.
ChoiceKey width(const std::string& def, const std::string& reference);
// `heat_width` (real > 0): the relative sigma of a graph's heat weights in a method that also has
// a kernel function (kernel LPP): t = heat_width^2 x the mean squared edge length.
RealKey heat_width(double def);
// `disconnected` (choice {error, connect}): what a disconnected neighbour graph does.
ChoiceKey disconnected(const std::string& def);
// `graph` (choice {knn, epsilon}) and its `epsilon` radius (real > 0, input units).
ChoiceKey graph(const std::string& def);
RealKey epsilon(double def);
// `perplexity` (real >= 1): effective number of neighbours of the calibrated Gaussian affinities.
RealKey perplexity(double def, const std::string& what);
// `lambda` (real >= 0, or > 0 with `positive`): weight of a penalty, prior or repulsion term.
RealKey lambda(double def, std::optional<double> hi, bool positive, const std::string& what);
// `neighbour_graph` (choice {exact, approximate, auto}): how the shared neighbour graph
// (framework/neighbours/neighbour_graph.hpp) is searched; auto takes the approximate HNSW graph
// only where the exact search is slow (many points in more dimensions than the k-d tree serves).
ChoiceKey neighbour_graph(const std::string& def = "auto");
// `gradient` (choice): how an embedding's gradient is computed: exactly over all pairs, or with
// the repulsive all-pairs term approximated (barnes_hut: space-partitioning tree; fft: FFT-
// accelerated interpolation on a grid), `auto` choosing by size; `what` says what each choice does.
ChoiceKey gradient(const std::string& def, std::vector<std::string> choices,
                   const std::string& what);
// `landmarks` (int >= 0): landmark points of a landmark method (landmark Isomap): only their
// geodesics are computed and every other point is placed from them; 0 = the full method.
IntKey landmarks(std::int64_t def, const std::string& what);
// `optimizer` (choice): the optimiser of an iterative method; `what` says what each choice does.
ChoiceKey optimizer(const std::string& def, std::vector<std::string> choices,
                    const std::string& what);
// `approximation` (choice): how a Gaussian-process likelihood is computed, exact (O(n^3)) or
// through inducing points (dtc, fitc, vfe: O(n m^2)); `what` says what the method offers.
ChoiceKey approximation(const std::string& def, std::vector<std::string> choices,
                        const std::string& what);
// `inducing` (int >= 1): the number m of inducing points of a sparse approximation.
IntKey inducing(std::int64_t def, const std::string& what);
// `inducing_init` (choice): where a sparse approximation's inducing inputs start.
ChoiceKey inducing_init(const std::string& def, std::vector<std::string> choices,
                        const std::string& what);
// `inducing_jitter` (real >= 0): jitter always added to K_uu's diagonal, relative to its mean.
RealKey inducing_jitter(double def, const std::string& what);

// `min_dist` (real >= 0): the embedding distance within which UMAP-type similarities stay at
// their maximum (the a/b curve of 1 / (1 + a d^(2b)) is fitted to it and `spread`).
RealKey min_dist(double def, const std::string& what);
// `spread` (real > 0): the scale over which those similarities fall off beyond min_dist.
RealKey spread(double def, const std::string& what);
// `negative_sample_rate` (real > 0): random non-neighbours sampled per sampled edge (repulsion).
RealKey negative_sample_rate(double def, const std::string& what);
// `init` (choice): how an iterative embedding starts; `what` says what each choice does.
ChoiceKey init(const std::string& def, std::vector<std::string> choices, const std::string& what);
// `learning_rate` (real > 0): the step of a stochastic or first-order optimiser.
RealKey learning_rate(double def, const std::string& what);

// `ridge` (real >= lo, or > lo with `lo_exclusive`): a ridge (Tikhonov) term added to a matrix to
// keep a solve or an eigenproblem definite; `what` says which matrix and what it is relative to.
RealKey ridge(double def, double lo, std::optional<double> hi, bool lo_exclusive,
              const std::string& what);

// For Key::with: the parameter was called `old` in settings before version `renamed_in`
// (ParamSpec::former_name).
inline auto formerly(std::string old, int renamed_in = 2) {
  return [old = std::move(old), renamed_in](ParamSpec& s) {
    s.former_name = old;
    s.renamed_in = renamed_in;
  };
}

// For Key::with: a parameter added after results existed leaves task keys as they were while it
// holds its default (ParamSpec::keyed_at_default).
inline void unkeyed(ParamSpec& s) {
  s.keyed_at_default = false;
}

// `theta` (real >= 0): the Barnes-Hut opening angle; a cell is taken whole when its largest side
// is below theta times its distance; 0 opens every cell (the exact sum on the tree).
RealKey theta(double def);

// A kernel width as a method reads it: sigma, and whether it multiplies the method's reference.
struct KernelWidth {
  double sigma = 1.0;
  bool relative = true;
  // The t of a heat weight exp(-d^2 / t) for this width. Absolute: t = 2 sigma^2. Relative:
  // sigma^2 x reference_t, where reference_t is the method's data-driven t (mean squared edge
  // length, for example), so sigma = 1 is that t exactly.
  double heat_t(double reference_t) const;
};

// For a key a method does not declare: when it is a retired name of one of the method's
// parameters, the fix that names the new one ("write neighbours: ... instead"); empty otherwise.
std::string retired_name_fix(const MethodInfo& m, const std::string& key);

// `landmark_choice` (choice {random, maxmin}): how a landmark method draws its landmarks.
ChoiceKey landmark_choice();

// `analysers` (int >= 1): the local linear models of a mixture that a method aligns (LLC,
// manifold charting); fewer are used where the training points cannot start them all.
IntKey analysers(std::int64_t def, const std::string& what);

}  // namespace keywords
}  // namespace drbench
