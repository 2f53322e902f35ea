#include <iostream>

#include "framework/core/registry.hpp"

int main() {
  for (const auto& n : drbench::Registry::instance().names()) std::cout << n << "\n";
  return 0;
}
