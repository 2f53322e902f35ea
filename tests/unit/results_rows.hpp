#pragma once
// One task row of a synthetic results file, as the aggregate and combine tests build them: dataset
// usps, per_class split, every field that tells rows apart given.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "framework/results/reader.hpp"

namespace drbench::testing {

inline TaskRow usps_row(std::uint64_t task_id, bool ok, std::vector<double> knn_error,
                        const std::string& label, const std::string& setting, double split,
                        int repeat, std::uint64_t dim) {
  TaskRow row;
  row.result.task_id = task_id;
  row.result.ok = ok;
  row.result.knn_error = std::move(knn_error);
  row.dataset = "usps";
  row.split_kind = "per_class";
  row.split_value = split;
  row.label = label;
  row.setting = setting;
  row.repeat = repeat;
  row.dim = dim;
  return row;
}

// A synthetic results file being filled: its header fields, and the next row's task id.
struct SyntheticFile {
  ResultsFile f;
  std::uint64_t next = 0;
  SyntheticFile(std::string path, std::vector<int> k, std::vector<std::string> datasets,
                std::vector<std::string> labels, std::string reference) {
    f.path = std::move(path);
    f.k = std::move(k);
    f.datasets = std::move(datasets);
    f.labels = std::move(labels);
    f.ttest_reference = std::move(reference);
  }
};

}  // namespace drbench::testing
