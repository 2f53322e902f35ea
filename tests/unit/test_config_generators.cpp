// Generated datasets: generator names and parameters are checked against the data library's
// catalogue (framework/data/generators.hpp) while the config is parsed.
#include <catch2/catch.hpp>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"
#include "unit/error_message.hpp"

using namespace drbench;

namespace {
std::string with_generator(const std::string& spec) {
  return testing::config_error("datasets:\n  - name: g\n    source: generator\n" + spec +
                                   "splits: {train_ratio: 0.5}\nmethods: [{method: identity}]\n",
                               "cfg/gen.yaml");
}
}  // namespace

TEST_CASE("generator parameters are typed and checked against the catalogue", "[config]") {
  const Experiment ex = parse_experiment(R"(datasets:
  - name: roll
    source: generator
    generator: swiss_roll
    params: {n: 500, noise: 0}
    max_points: 300
splits: {train_ratio: 0.5}
methods: [{method: identity}]
)",
                                         "gen.yaml");
  const DatasetSpec& d = ex.datasets[0];
  CHECK(d.source == "generator");
  CHECK(d.generator == "swiss_roll");
  CHECK(d.generator_params.at("n") == ParamValue(std::int64_t{500}));
  CHECK(d.generator_params.at("noise") == ParamValue(0.0));  // an int for a real is a real
  CHECK(d.max_points == 300);

  CHECK(with_generator("    generator: gaussian_blobs\n    params: {classes: 4, dim: 3}\n") ==
        "no error");
  testing::check_refusals(with_generator,
                          {
                              {"    generator: swiss_rol\n",
                               "cfg/gen.yaml:4: 'datasets[0].generator': unknown generator "
                               "'swiss_rol' (fix: did you mean 'swiss_roll'? one of"},
                              {"    generator: swiss_roll\n    params: {nosie: 0.1}\n",
                               "5: 'datasets[0].params.nosie': unknown key (fix: did you mean "
                               "'noise'?"},
                              {"    generator: swiss_roll\n    params: {n: 1}\n",
                               "5: 'datasets[0].params.n': value 1 out of range"},
                              {"    generator: swiss_roll\n    params: {noise: -0.5}\n",
                               "'datasets[0].params.noise': value -0.5 out of range"},
                              {"    generator: swiss_roll\n    params: [1, 2]\n",
                               "'datasets[0].params': expected a map"},
                          });
}
