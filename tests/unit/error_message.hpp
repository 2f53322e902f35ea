#pragma once
// What a refusal says: the tests of the config layer, validation and the memory model check the
// message of the error a call raises, not only that it raises.
#include <catch2/catch.hpp>
#include <exception>
#include <initializer_list>
#include <string>

#include "framework/config/experiment.hpp"
#include "framework/core/error.hpp"

namespace drbench::testing {

// The message of the E that f() throws, or "no error" when it returns (any other exception
// propagates and fails the test).
template <class E = std::exception, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

// The message of the ConfigError parsing `yaml` as the file `path` (under `profile`) raises.
inline std::string config_error(const std::string& yaml, const std::string& path,
                                const std::string& profile = "") {
  return message_of<ConfigError>([&] { parse_experiment(yaml, path, profile); });
}

// An input that must be refused and a part of the message the refusal must carry.
struct Refusal {
  std::string input;
  std::string message;
};

// For each refusal, that message_of_input(input) contains its message.
template <class F>
void check_refusals(F&& message_of_input, std::initializer_list<Refusal> refusals) {
  for (const Refusal& r : refusals) {
    INFO("input: " << r.input);
    CHECK_THAT(message_of_input(r.input), Catch::Contains(r.message));
  }
}

}  // namespace drbench::testing
