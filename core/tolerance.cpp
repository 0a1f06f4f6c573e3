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
  return ErrorBound(dtype, integer_inputs)(abs_sum, terms);
}

void ErrorBound::cache(int64_t terms) {
  const bool single = dtype_ == DType::float32;
  const auto k = static_cast<double>(terms + 1);
  // Each product may underflow by at most the smallest subnormal of the dtype.
  underflow_ = k * (single ? 0x1.0p-149 : 0x1.0p-1074);
  relative_ = gamma(k, single ? 0x1.0p-24 : 0x1.0p-53) + gamma(k, 0x1.0p-53);
  cached_terms_ = terms;
}

} // namespace convcheck
