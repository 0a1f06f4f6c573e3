#pragma once
// The error bound of one result element, from what the reference saw while computing it. The derivation and its
// limits are in docs/bounds.md; in short, for an element whose exact value is x, summing n products a_i*b_i:
//
//   bound = c * ( store(x)                                   rounding once to the destination format
//               + gamma_{n+1}(u_acc) * S                     the accumulation, S = sum|a_i*b_i|
//               + gamma_{n+1}(2^-53) * S                     the double reference's own error
//               + (n+1) * eta_acc )                          underflow in the accumulation format
//
// with gamma_k(u) = k*u / (1 - k*u) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 3.1),
// store(x) = u_dst * (|x| + gamma_{n+1}(u_acc) * S) + eta_dst / 2 when the destination format is narrower than the
// accumulation format (half an ulp of the accumulated value, or half the subnormal spacing eta_dst near zero) and 0
// when they are the same, and a safety factor c = 2. Inputs are exactly representable in their storage formats
// (the fill makes them so), so reading them loses nothing. The storage and accumulation terms are kept apart
// (benchdnn compares against the reference rounded to the output type, never with one max of both): a bfloat16
// destination allows its 2^-8 once, not per term, and a float32 accumulation keeps its own 2^-24 per term, so a
// bfloat16 or float16 accumulation (2^-8 or 2^-11 per term) exceeds the bound on long enough reductions.
//
// When every input is an integer and S is at most the accumulation format's exact_sum_limit (2^24 for float32),
// every partial sum is an exactly representable integer, so every order reaches x exactly: the bound is the one
// rounding to the destination, |round_dst(x) - x| (zero when x fits the destination). Where x is a tie of that
// rounding (exactly halfway between two values of the destination) both neighbours are |round_dst(x) - x| away, so
// no bound on |got - x| tells round-to-nearest-even from rounding half away or truncating: there the reference is
// round_dst(x), the even neighbour, and the bound 0 (tie_rounding; IEEE 754's default rounding, and the one every
// library convcheck runs converts with).

#include <cmath>
#include <cstdint>

#include "core/problem/dtype.hpp"

namespace convcheck {

/// The safety factor c above.
inline constexpr double tolerance_safety_factor = 2.0;

/// The largest |got - reference| a correct implementation can produce for one element whose exact value is
/// `value`, accumulating in `acc` and storing in `store`.
double error_bound(double abs_sum, int64_t terms, double value, DType acc, DType store, bool integer_inputs);
/// The same when only |value| <= abs_sum is known.
double error_bound(double abs_sum, int64_t terms, DType acc, DType store, bool integer_inputs);
/// The same with one format for both.
inline double error_bound(double abs_sum, int64_t terms, DType dtype, bool integer_inputs) {
  return error_bound(abs_sum, terms, dtype, dtype, integer_inputs);
}

/// error_bound for many elements of one result: the same value, with the two gamma divisions done once per
/// distinct term count in a row rather than once per element.
class ErrorBound {
public:
  ErrorBound(DType acc, DType store, bool integer_inputs);
  /// Under the exact-sum rule, at a tie of the destination format: the even neighbour of `value`, the one result a
  /// correct implementation gives (its bound is then 0). NaN elsewhere.
  double tie_rounding(double abs_sum, double value) const;
  double operator()(double abs_sum, int64_t terms, double value) {
    if (integer_inputs_ && abs_sum <= exact_limit_) return exact_storage(value);
    if (terms != cached_terms_) cache(terms);
    const double accumulated = accumulation_ * abs_sum;
    const double stored = narrowing_ ? store_roundoff_ * (std::abs(value) + accumulated) + store_spacing_ / 2 : 0.0;
    return tolerance_safety_factor * (stored + accumulated + reference_ * abs_sum + underflow_);
  }

private:
  void cache(int64_t terms);
  double exact_storage(double value) const;

  DType store_;
  bool integer_inputs_;
  bool narrowing_;        // the destination format is narrower than the accumulation format
  double exact_limit_;    // the accumulation format's exact_sum_limit
  double store_roundoff_; // u of the destination format
  double store_spacing_;  // the destination format's subnormal spacing
  double acc_roundoff_, acc_subnormal_;
  int64_t cached_terms_ = -1;
  double accumulation_ = 0, reference_ = 0, underflow_ = 0; // for cached_terms_
};

} // namespace convcheck
