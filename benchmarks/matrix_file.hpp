#pragma once
// What the one-fit programs (bench_ee, bench_graph, bench_spectral, bench_tsne) share: the
// matrix.f64 file the Python scripts write for them, a wall and CPU clock, and key=value
// arguments.
//
// matrix.f64: two little-endian uint64 (n, d) followed by n*d float64, point after point.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <armadillo>

namespace drbench::bench {

// The d x n matrix in `path` (point after point in the file = one column per point), or nullopt
// after a message that starts with `program`.
inline std::optional<arma::mat> read_matrix_f64(const std::string& path,
                                                const std::string& program) {
  std::ifstream in(path, std::ios::binary);
  std::uint64_t n = 0, d = 0;
  if (!in.read(reinterpret_cast<char*>(&n), 8) || !in.read(reinterpret_cast<char*>(&d), 8)) {
    std::cerr << program << ": " << path << ": cannot read the (n, d) header\n";
    return std::nullopt;
  }
  arma::mat X(d, n);
  if (!in.read(reinterpret_cast<char*>(X.memptr()), static_cast<std::streamsize>(8 * n * d))) {
    std::cerr << program << ": " << path << ": expected " << n * d << " float64 values\n";
    return std::nullopt;
  }
  return X;
}

// X (d x n) into `path` in the same format, one column per point; exits with status 1 on failure.
inline void write_matrix(const std::string& path, const arma::mat& X) {
  std::ofstream out(path, std::ios::binary);
  const std::uint64_t head[2] = {X.n_cols, X.n_rows};
  out.write(reinterpret_cast<const char*>(head), sizeof head);
  out.write(reinterpret_cast<const char*>(X.memptr()), static_cast<std::streamsize>(8 * X.n_elem));
  if (!out) {
    std::cerr << path << ": cannot write the matrix\n";
    std::exit(1);
  }
}

// The matrix named by argv[1], the program exiting after a message (`usage` with status 2 when
// there are fewer than `min_argc` arguments, 1 when the file cannot be read).
inline arma::mat matrix_argument(int argc, char** argv, int min_argc, const std::string& program,
                                 const std::string& usage) {
  if (argc < min_argc) {
    std::cerr << "usage: " << program << " " << usage << "\n";
    std::exit(2);
  }
  auto X = read_matrix_f64(argv[1], program);
  if (!X) std::exit(1);
  return std::move(*X);
}

// Wall and CPU seconds since construction. The CPU time of a one-thread fit is the steadier
// figure on a machine shared with other jobs, whose load the wall time mostly measures.
class Stopwatch {
 public:
  double wall() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  double cpu() const { return static_cast<double>(std::clock() - c0_) / CLOCKS_PER_SEC; }

 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::clock_t c0_ = std::clock();
};

// argv[first], ..., argv[argc - 1] as (key, value) pairs, the program exiting with status 2 after
// a message at an argument without '='.
inline std::vector<std::pair<std::string, std::string>> key_values(int argc, char** argv, int first,
                                                                   const std::string& program) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int a = first; a < argc; ++a) {
    const std::string s = argv[a];
    const auto eq = s.find('=');
    if (eq == std::string::npos) {
      std::cerr << program << ": expected key=value, got " << s << "\n";
      std::exit(2);
    }
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

}  // namespace drbench::bench
