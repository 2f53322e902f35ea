#pragma once
#include <string>

namespace drbench {

// "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64 (pthread), 1 thread"
std::string blas_description();
// Each MPI rank runs single-threaded BLAS unless the config asks otherwise, so np ranks use np
// cores.
void set_blas_threads(int n);

}  // namespace drbench
