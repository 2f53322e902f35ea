#pragma once
// Synthetic datasets with their parameters; labels are the usual discretisations so kNN applies.
#include <map>
#include <string>
#include <vector>

#include "framework/core/params.hpp"
#include "framework/core/rng.hpp"
#include "framework/data/dataset.hpp"

namespace drbench {

struct GeneratorInfo {
  std::string name, summary;
  std::vector<ParamSpec> params;  // e.g. n, noise, classes
};
const std::vector<GeneratorInfo>& generators();
// Throws DataError for an unknown generator or bad parameter (names the key and valid range).
Dataset generate_dataset(const std::string& generator,
                         const std::map<std::string, ParamValue>& params, std::uint64_t seed);
// Peak bytes generate_dataset holds for these parameters (the points, their labels and the
// generator's latent coordinates, which it builds alongside), so a huge n or dim is refused
// before anything is allocated. Throws DataError as generate_dataset does for bad parameters.
double generated_bytes(const std::string& generator,
                       const std::map<std::string, ParamValue>& params);
// Ground-truth manifold coordinates (2 x n) for swiss_roll / s_curve; used by Isomap tests.
arma::mat generator_latent(const std::string& generator,
                           const std::map<std::string, ParamValue>& params, std::uint64_t seed);

}  // namespace drbench
