#include "core/numerics/tolerance.hpp"

#include <algorithm>
#include <limits>

namespace convcheck {

namespace {

double gamma(double k, double unit_roundoff) {
  const double ku = k * unit_roundoff;
  return ku < 0.5 ? ku / (1 - ku) : std::numeric_limits<double>::infinity();
}

} // namespace

double error_bound(double abs_sum, int64_t terms, DType acc, DType store, bool integer_inputs) {
  return ErrorBound(acc, store, integer_inputs)(abs_sum, terms);
}

ErrorBound::ErrorBound(DType acc, DType store, bool integer_inputs)
    : integer_inputs_(integer_inputs),
      exact_limit_(std::min(info(acc).exact_sum_limit, info(store).exact_sum_limit)),
      unit_roundoff_(std::max(info(acc).unit_roundoff, info(store).unit_roundoff)),
      smallest_subnormal_(std::max(info(acc).smallest_subnormal, info(store).smallest_subnormal)) {}

void ErrorBound::cache(int64_t terms) {
  const auto k = static_cast<double>(terms + 1);
  underflow_ = k * smallest_subnormal_;
  relative_ = gamma(k, unit_roundoff_) + gamma(k, info(DType::float64).unit_roundoff);
  cached_terms_ = terms;
}

} // namespace convcheck
