#include "methods/gplvm/kernels/kernel.hpp"

#include "framework/core/error.hpp"
#include "methods/gplvm/kernels/bias.hpp"
#include "methods/gplvm/kernels/linear.hpp"
#include "methods/gplvm/kernels/mlp.hpp"
#include "methods/gplvm/kernels/poly.hpp"
#include "methods/gplvm/kernels/rbf.hpp"
#include "methods/gplvm/kernels/sum.hpp"
#include "methods/gplvm/kernels/white.hpp"

namespace drbench {

KernelWithParams::KernelWithParams(std::vector<std::string> names, const arma::vec& values)
    : names_(std::move(names)) {
  if (names_.size() != values.n_elem || arma::any(values <= 0))
    throw Error("internal: kernel hyperparameters must be positive, one per name");
  set_params(arma::log(values));
}

void KernelWithParams::set_params(const arma::vec& log_values) {
  if (log_values.n_elem != names_.size())
    throw Error("internal: kernel " + name() + " expects " + std::to_string(names_.size()) +
                " parameters, got " + std::to_string(log_values.n_elem));
  log_ = log_values;
  val_ = arma::exp(log_);
}

std::vector<std::string> KernelWithParams::param_names() const {
  std::vector<std::string> out;
  for (const auto& n : names_) out.push_back(name() + "." + n);
  return out;
}

std::unique_ptr<Kernel> make_kernel(const std::string& spec) {
  std::vector<std::unique_ptr<Kernel>> parts;
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t end = spec.find('+', start);
    if (end == std::string::npos) end = spec.size();
    const std::string p = spec.substr(start, end - start);
    if (p == "rbf")
      parts.push_back(std::make_unique<RbfKernel>());
    else if (p == "bias")
      parts.push_back(std::make_unique<BiasKernel>());
    else if (p == "white")
      parts.push_back(std::make_unique<WhiteKernel>());
    else if (p == "linear")
      parts.push_back(std::make_unique<LinearKernel>());
    else if (p == "poly")
      parts.push_back(std::make_unique<PolyKernel>());
    else if (p == "mlp")
      parts.push_back(std::make_unique<MlpKernel>());
    else
      throw Error("unknown kernel '" + p + "' in '" + spec +
                  "' (known: rbf, bias, white, linear, poly, mlp; combine with '+')");
    start = end + 1;
  }
  if (parts.size() == 1) return std::move(parts.front());
  return std::make_unique<SumKernel>(std::move(parts));
}

}  // namespace drbench
