#pragma once
// Every table of an aggregate rendered in one format, as `drbench run` prints and
// `drbench aggregate` writes them.
#include <string>

#include "framework/results/aggregate.hpp"

namespace drbench {

// format: "md", "csv" or "tex".
std::string render_tables(const Aggregate& a, const std::string& format);

}  // namespace drbench
