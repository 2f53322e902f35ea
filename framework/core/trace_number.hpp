#pragma once
// How the methods write a number into a trace note (FitInput::trace): six significant digits, as
// a stream prints them, so that notes of different methods read alike.
#include <sstream>
#include <string>

namespace drbench {

inline std::string trace_number(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

}  // namespace drbench
