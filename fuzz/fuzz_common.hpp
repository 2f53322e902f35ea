#pragma once
// Shared by the libFuzzer targets: the fuzz input written to a private scratch file (the readers
// under test take paths), and the rule every target follows: drbench::Error is the expected way
// to refuse bad input; anything else (a crash, a sanitizer report, another exception) is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace drbench::fuzz {

// One file per process and suffix, rewritten for every input.
inline std::string scratch(const std::string& suffix) {
  return "/tmp/drbench-fuzz-" + std::to_string(::getpid()) + suffix;
}

inline std::string write_scratch(const std::uint8_t* data, std::size_t size,
                                 const std::string& suffix) {
  const std::string path = scratch(suffix);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) __builtin_trap();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) __builtin_trap();
  std::fclose(f);
  return path;
}

}  // namespace drbench::fuzz
