#pragma once
// SettingMethod's linear counterpart: an eigenproblem projection built from the setting its
// registration's `make` read once (npe, lltsa). The setting has one owner here; the map and the
// embedding are EigenProjection's.
#include <string>
#include <utility>

#include "methods/common/linear_method.hpp"

namespace drbench {

template <class Setting>
class SettingProjection : public EigenProjection {
 protected:
  SettingProjection(std::string name, const Setting& s) : EigenProjection(std::move(name)), s_(s) {}
  Setting s_;
};

}  // namespace drbench
