#pragma once
// Facts fixed at build time. They live in one translation unit so that the checkout's path and the
// version never reach any other object file's command line (compiler caches can then share every
// other object between checkouts).
namespace drbench {

const char* version();     // the project version from CMakeLists.txt
const char* source_dir();  // absolute path of the source tree drbench was built from

}  // namespace drbench
