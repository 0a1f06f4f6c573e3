#include "core/tolerance.hpp"

#include <limits>

namespace convcheck {

namespace {

double gamma(double k, double unit_roundoff) {
  const double ku = k * unit_roundoff;
  return ku < 0.5 ? ku / (1 - ku) : std::numeric_limits<double>::infinity();
}

} // namespace

double error_bound(double abs_sum, int64_t terms, DType dtype, bool integer_inputs) {
  const bool single = dtype == DType::float32;
  const double unit_roundoff = single ? 0x1.0p-24 : 0x1.0p-53;
  const double exact_limit = single ? 0x1.0p24 : 0x1.0p53;
  if (integer_inputs && abs_sum <= exact_limit) return 0.0;
  const auto k = static_cast<double>(terms + 1);
  // Each product may underflow by at most the smallest subnormal of the dtype.
  const double underflow = k * (single ? 0x1.0p-149 : 0x1.0p-1074);
  const double relative = gamma(k, unit_roundoff) + gamma(k, 0x1.0p-53);
  return tolerance_safety_factor * (relative * abs_sum + underflow);
}

} // namespace convcheck
