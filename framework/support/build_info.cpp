#include "framework/support/build_info.hpp"

namespace drbench {

const char* version() {
  return DRBENCH_VERSION;
}
const char* source_dir() {
  return DRBENCH_SOURCE_DIR;
}

}  // namespace drbench
