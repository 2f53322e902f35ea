#pragma once
// selection: validation's choice, shared by the run (which fits the chosen setting on the whole
// training partition) and the tables (which report it): per (partition, method, dim), the setting
// with the lowest mean kNN error (first k) over the inner splits of the training points.
#include <map>
#include <string>
#include <vector>

namespace drbench {

struct InnerScore {
  std::string group;    // one partition of one cell: what a choice is made for
  std::string setting;  // canonical
  bool ok = false;
  double error = 0.0;  // first k's kNN error on the held-out inner points
};

// group -> chosen setting. A setting with a failed inner task does not compete; ties go to the
// first setting by name; a group whose every setting failed gets no choice (and no test-point
// task).
std::map<std::string, std::string> choose_validated(const std::vector<InnerScore>& scores);

}  // namespace drbench
