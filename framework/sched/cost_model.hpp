#pragma once
// Task run times predicted from finished ones. Per method, log(seconds) is fitted by least squares
// against log n, log d, log(dim + 1) and log(iterations), using only the features that vary among
// that method's finished tasks (a power law in each). An iteration cap that never varied is taken
// as linear (time per iteration constant), so a 3,000-iteration run is not planned from 1,000
// at the 1,000-iteration time. Methods without enough finished tasks fall back on their
// descriptor's cost estimate, scaled to seconds by the median ratio observed over all finished
// tasks. Used for the longest-first order when resuming and by `drbench plan`.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "framework/config/experiment.hpp"
#include "framework/plan/task.hpp"
#include "framework/results/reader.hpp"

namespace drbench {

// What the model knows about one task.
struct CostFeatures {
  std::string method;  // registry name
  double n = 1, d = 1, dim = 0, iterations = 1;
  double estimate = 0;  // the descriptor's relative cost (Task::cost)
};

struct CostSample {
  CostFeatures x;
  double seconds = 0;  // fit + transform + eval
};

class CostModel {
 public:
  // Needs at least 3 samples of a method to fit it; fewer fall back as described above.
  static CostModel fit(const std::vector<CostSample>& samples);

  double predict(const CostFeatures& x) const;
  bool fitted(const std::string& method) const { return per_method_.count(method) != 0; }
  bool calibrated() const { return seconds_per_estimate_ > 0; }
  // One line per fitted method: samples, exponents, rms error of log(seconds).
  std::string describe() const;

 private:
  struct Fit {
    std::vector<int> features;  // indices into {log n, log d, log(dim+1), log iterations}
    std::vector<double> coef;   // intercept first
    double rms_log = 0;
    std::size_t samples = 0;
    // log of the iteration cap every finished task shared, when it did not vary (else NaN).
    double fixed_log_iterations = std::nan("");
    // > 0 when n did not vary over the method's finished tasks: a power law would say nothing
    // about other sizes, so the method's own descriptor estimate x this (median seconds/estimate).
    double per_estimate = 0;
  };
  std::map<std::string, Fit> per_method_;
  double seconds_per_estimate_ = 0;  // median seconds / estimate (0: no samples)
};

// The iteration cap of a method's canonical setting as its budget reads it
// (framework/budget: iterations_of); 1 for a method or setting this build does not know.
double iterations_of(const std::string& method, const std::string& canonical_setting);

// Features of every task of an experiment (shapes as check_against_data returns them) and the
// samples of a results file's successful rows. A row's estimate is its task's where the key is one
// of `tasks`, else the method's descriptor applied to the row's setting and shape (0 if the method
// or setting is unknown to this build): files of other profiles or columns still calibrate it.
std::vector<CostFeatures> task_features(const Experiment& ex, const std::vector<Task>& tasks,
                                        const std::vector<DataShape>& shapes);
std::vector<CostSample> cost_samples(const ResultsFile& f, const std::vector<Task>& tasks,
                                     const std::vector<CostFeatures>& features);

// A finished task of this experiment as a sample: its planned features with the n and d it
// actually had (after the split and preprocessing), and its recorded seconds.
CostSample measured_sample(const CostFeatures& planned, const TaskResult& r);

// What `drbench plan --costs` files say about an experiment: samples for the model from every
// file, and this very experiment's results by task key, from files of the same config and from
// their journals (a killed or live run's results that no snapshot holds yet). A missing file is
// an Error unless its journal exists.
struct CostEvidence {
  std::vector<CostSample> samples;
  std::map<std::string, TaskResult> results;  // failed ones too: a resume skips them
};
CostEvidence read_cost_evidence(const std::vector<std::string>& paths, const Experiment& ex,
                                const std::vector<Task>& tasks,
                                const std::vector<CostFeatures>& features);

}  // namespace drbench
