#pragma once
// Tests that need ../shared/datasets: skipped with a visible warning on a developer machine
// without the data, but failed in CI (CI=true), where a silent skip would hide a broken set-up.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "framework/data/load.hpp"

namespace drbench::testing {

// Full path of a shared dataset file, or "" after WARN (or FAIL in CI) when it is not there.
inline std::string shared_dataset(const std::string& file) {
  for (const auto& dir : data_search_path(""))
    if (std::filesystem::exists(std::filesystem::path(dir) / file))
      return (std::filesystem::path(dir) / file).string();
  const char* ci = std::getenv("CI");
  const std::string msg =
      "shared dataset '" + file +
      "' not found on the data path (set DRBENCH_DATA or place ../shared/datasets)";
  if (ci && std::string(ci) == "true") FAIL(msg);
  WARN(msg + "; test skipped");
  return "";
}

}  // namespace drbench::testing
