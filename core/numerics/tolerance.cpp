#include "core/numerics/tolerance.hpp"

#include <cmath>
#include <limits>

#include "core/tensor/element.hpp"

namespace convcheck {

namespace {

// gamma_k(u) = k*u / (1 - k*u), Higham's (3.4); defined while k*u < 1. Accumulation formats are float32 and
// float64 only (DTypeInfo::accumulates), so k*u reaches 1/2 only past 2^23 terms.
double gamma(double k, double unit_roundoff) {
  const double ku = k * unit_roundoff;
  return ku < 0.5 ? ku / (1 - ku) : std::numeric_limits<double>::infinity();
}

} // namespace

double error_bound(double abs_sum, int64_t terms, double value, DType acc, DType store, bool integer_inputs) {
  return ErrorBound(acc, store, integer_inputs)(abs_sum, terms, value);
}

double error_bound(double abs_sum, int64_t terms, DType acc, DType store, bool integer_inputs) {
  // |x| <= S, and without x the exact-sum rule cannot round it: take the larger of the two spacings around S.
  if (integer_inputs && abs_sum <= info(acc).exact_sum_limit && info(store).unit_roundoff > info(acc).unit_roundoff)
    return 2 * info(store).unit_roundoff * abs_sum;
  return error_bound(abs_sum, terms, abs_sum, acc, store, integer_inputs);
}

ErrorBound::ErrorBound(DType acc, DType store, bool integer_inputs)
    : store_(store), integer_inputs_(integer_inputs),
      narrowing_(info(store).unit_roundoff > info(acc).unit_roundoff), exact_limit_(info(acc).exact_sum_limit),
      store_roundoff_(info(store).unit_roundoff), store_spacing_(info(store).smallest_subnormal),
      acc_roundoff_(info(acc).unit_roundoff), acc_subnormal_(info(acc).smallest_subnormal) {}

void ErrorBound::cache(int64_t terms) {
  const auto k = static_cast<double>(terms + 1);
  underflow_ = k * acc_subnormal_;
  accumulation_ = gamma(k, acc_roundoff_);
  reference_ = gamma(k, info(DType::float64).unit_roundoff);
  cached_terms_ = terms;
}

double ErrorBound::tie_rounding(double abs_sum, double value) const {
  if (!integer_inputs_ || !narrowing_ || abs_sum > exact_limit_) return std::numeric_limits<double>::quiet_NaN();
  const double rounded = rounded_to(store_, value);
  const double other = 2 * value - rounded; // exact: integers below the accumulation's exact limit
  const bool tie = rounded != value && rounded_to(store_, other) == other;
  return tie ? rounded : std::numeric_limits<double>::quiet_NaN();
}

double ErrorBound::exact_storage(double value) const {
  return narrowing_ ? std::abs(rounded_to(store_, value) - value) : 0.0;
}

} // namespace convcheck
