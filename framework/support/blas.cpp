#include "framework/support/blas.hpp"

extern "C" {
char* openblas_get_config(void);
char* openblas_get_corename(void);
int openblas_get_num_threads(void);
void openblas_set_num_threads(int);
}

namespace drbench {

std::string blas_description() {
  std::string s = openblas_get_config();
  s += " core=" + std::string(openblas_get_corename());
  s += ", " + std::to_string(openblas_get_num_threads()) + " thread(s)";
  return s;
}

void set_blas_threads(int n) {
  openblas_set_num_threads(n < 1 ? 1 : n);
}

}  // namespace drbench
