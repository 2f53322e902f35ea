// The sparse GP-LVM objective (methods/gplvm/sparse.hpp) at given parameters, for the comparison
// with GPy's sparse GP-LVM (benchmarks/sparse_gplvm_gpy.py writes the inputs, runs GPy on the same
// ones and compares): values and gradients at the same X, Z and hyperparameters, and the time of
// one objective+gradient evaluation, both measured in the same run of that script.
//
//   bench_sparse_gplvm DIR [REPEATS [NAME]]
// DIR holds Y.txt (n x d, one row per point), X.txt (n x q), Z.txt (m x q) and theta.txt (the
// log hyperparameters of rbf+bias+white: log variance, log inverse squared lengthscale, log bias,
// log noise variance). For each of dtc, fitc and vfe it writes DIR/grad_<name>.txt (the gradient
// over [vec(X^T); vec(Z^T); theta], X and Z as q x n and q x m columns) and prints
//   <name> <objective> <seconds per objective+gradient evaluation: mean, fastest> <the same in
//   CPU seconds of this thread: mean, fastest>
// NAME (dtc, fitc or vfe) runs that approximation alone, for a profiler. NAME exact runs the exact
// GP-LVM likelihood instead (benchmarks/gplvm_gpy.py; Z.txt is read but unused, and the gradient
// is over [vec(X^T); theta]); it runs only when named, being cubic in n.
// Not a Google Benchmark: it is driven by the script, which times GPy in the same run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "methods/gplvm/kernels/kernel.hpp"
#include "methods/gplvm/objective.hpp"
#include "methods/gplvm/sparse.hpp"

namespace {
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [REPEATS [NAME]]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 10;
  const std::string only = argc > 3 ? argv[3] : "";
  arma::mat Yt, Xt, Zt;
  arma::vec theta;
  if (!Yt.load(dir + "/Y.txt", arma::raw_ascii) || !Xt.load(dir + "/X.txt", arma::raw_ascii) ||
      !Zt.load(dir + "/Z.txt", arma::raw_ascii) ||
      !theta.load(dir + "/theta.txt", arma::raw_ascii)) {
    std::fprintf(stderr, "cannot read the inputs in %s\n", dir.c_str());
    return 2;
  }
  const arma::uword q = Xt.n_cols;
  for (const std::string name : {"dtc", "fitc", "vfe", "exact"}) {
    if (only.empty() ? name == "exact" : only != name) continue;
    auto kern = drbench::make_gp_kernel("rbf");
    kern->set_params(theta);
    drbench::GplvmObjective obj(Yt.t(), std::move(kern), q);
    if (name != "exact") obj.set_sparse(drbench::gp_approximation(name), Zt.t(), true);
    const arma::vec x = obj.pack(Xt.t());
    arma::vec g;
    const double f = obj.evaluate(x, &g);  // also the untimed first touch of the buffers
    g.save(dir + "/grad_" + name + ".txt", arma::raw_ascii);
    // Two points alternate, as an optimiser's steps do.
    // The mean, and the fastest single evaluation: on a shared machine the other processes only
    // ever add time, so the minimum is the steadier figure.
    const arma::vec x2 = x + 1e-6;
    // CPU time as well: under load, wall time counts the other processes' time slices.
    double total = 0.0, fastest = 1e300, cpu_total = 0.0, cpu_fastest = 1e300;
    for (int r = 0; r < repeats; ++r) {
      const double c0 = thread_cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      obj.evaluate(r % 2 ? x2 : x, &g);
      const double e = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double c = thread_cpu_seconds() - c0;
      total += e;
      fastest = std::min(fastest, e);
      cpu_total += c;
      cpu_fastest = std::min(cpu_fastest, c);
    }
    std::printf("%s %.17g %.6g %.6g %.6g %.6g\n", name.c_str(), f, total / repeats, fastest,
                cpu_total / repeats, cpu_fastest);
  }
  return 0;
}
