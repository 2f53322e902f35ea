#pragma once
// Errors users see. Every message names where the problem is and how to fix it, because the people
// reading them are running 64-rank jobs and cannot afford a guess-and-rerun cycle.
#include <stdexcept>
#include <string>

namespace drbench {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raised by config validation: file:line: key: problem (fix: ...)
class ConfigError : public Error {
 public:
  ConfigError(const std::string& file, int line, const std::string& key, const std::string& problem,
              const std::string& fix = "")
      : Error(message(file + ":" + std::to_string(line), key, problem, fix)) {}
  // A problem in a command-line override (`drbench run CONFIG key=value`), which has no file line:
  // "command line (splits.repeats=x): 'splits.repeats': ...".
  static ConfigError on_command_line(const std::string& override_text, const std::string& key,
                                     const std::string& problem, const std::string& fix = "") {
    return ConfigError(message("command line (" + override_text + ")", key, problem, fix));
  }

 private:
  explicit ConfigError(const std::string& msg) : Error(msg) {}
  static std::string message(const std::string& where, const std::string& key,
                             const std::string& problem, const std::string& fix) {
    return where + ": " + (key.empty() ? "" : "'" + key + "': ") + problem +
           (fix.empty() ? "" : " (fix: " + fix + ")");
  }
};

// Raised by data loading and validation.
class DataError : public Error {
 public:
  using Error::Error;
};

// Raised by a method for input it cannot handle (dimension too large, singular scatter, ...).
class MethodError : public Error {
 public:
  using Error::Error;
};

}  // namespace drbench
