#pragma once
// Per-task random numbers. Armadillo's global generator is shared state whose draws would depend on
// which tasks a rank ran before; every task gets its own engine seeded from its identity instead.
#include <armadillo>
#include <cstdint>
#include <random>
#include <string_view>

namespace drbench {

// 64-bit FNV-1a followed by a splitmix64 finaliser: stable across compilers and platforms, unlike
// std::hash, so seeds written in results files can be reproduced anywhere.
inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::uint64_t hash_seed(std::uint64_t base, std::string_view key) {
  std::uint64_t h = 0xcbf29ce484222325ULL ^ mix64(base);
  for (unsigned char c : key) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return mix64(h);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  std::mt19937_64& engine() { return engine_; }

  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(engine_); }
  double normal() { return normal_(engine_); }

  arma::mat randn(arma::uword rows, arma::uword cols) {
    arma::mat m(rows, cols);
    for (auto& v : m) v = normal_(engine_);
    return m;
  }
  arma::mat randu(arma::uword rows, arma::uword cols) {
    arma::mat m(rows, cols);
    for (auto& v : m) v = uniform();
    return m;
  }
  // Uniformly random permutation of 0..n-1 (Fisher-Yates with our engine, so it is reproducible).
  arma::uvec permutation(arma::uword n) {
    arma::uvec p = arma::regspace<arma::uvec>(0, n == 0 ? 0 : n - 1);
    if (n == 0) return arma::uvec();
    for (arma::uword i = n - 1; i > 0; --i) {
      std::uniform_int_distribution<arma::uword> pick(0, i);
      std::swap(p(i), p(pick(engine_)));
    }
    return p;
  }

 private:
  std::mt19937_64 engine_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

}  // namespace drbench
