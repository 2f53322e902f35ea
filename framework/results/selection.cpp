#include "framework/results/selection.hpp"

#include <limits>

namespace drbench {

std::map<std::string, std::string> choose_validated(const std::vector<InnerScore>& scores) {
  struct Sum {
    double total = 0.0;
    int n = 0;
    bool failed = false;
  };
  std::map<std::string, std::map<std::string, Sum>> by_group;  // ordered: ties by setting name
  for (const auto& s : scores) {
    Sum& sum = by_group[s.group][s.setting];
    if (!s.ok) {
      sum.failed = true;
      continue;
    }
    sum.total += s.error;
    ++sum.n;
  }
  std::map<std::string, std::string> chosen;
  for (const auto& [group, settings] : by_group) {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [setting, sum] : settings) {
      if (sum.failed || sum.n == 0) continue;
      const double mean = sum.total / sum.n;
      if (mean < best) {
        best = mean;
        chosen[group] = setting;
      }
    }
  }
  return chosen;
}

}  // namespace drbench
