// The YAML config parser and validator: any text must parse to a validated Experiment or raise
// drbench::Error (ConfigError) naming the file. Profiles are tried too.
#include <cstdint>
#include <string>

#include "framework/config/experiment.hpp"
#include "framework/config/grid.hpp"
#include "framework/core/error.hpp"
#include "framework/plan/task.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* profile : {"", "quick"}) {
    try {
      const drbench::Experiment ex = drbench::parse_experiment(text, "fuzz.yaml", profile);
      // A valid config must also expand, unless the grid is absurdly large.
      std::size_t settings = 1;
      for (const auto& m : ex.methods) {
        for (const auto& a : m.grid) settings *= a.values.size() + 1;
        if (settings > 10000) return 0;
      }
      if (ex.splits.repeats <= 100 && ex.splits.values.size() <= 100) drbench::expand_tasks(ex);
      (void)drbench::normalised_config(text);
    } catch (const drbench::Error&) {
    }
  }
  return 0;
}
