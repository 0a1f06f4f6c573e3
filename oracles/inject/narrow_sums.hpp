#pragma once
// The naive loops (core/numerics/naive_loops.hpp) in float32 on a low-precision case, with a hook on each product
// and each partial sum: the injected low-precision bugs are each one such hook, reproducing a kernel that rounds
// where it should not (partial sums to bfloat16, products to float16).

#include "core/numerics/case.hpp"
#include "core/numerics/naive_loops.hpp"

namespace convcheck {

/// Adds each product into its element's running sum, as `naive` does, but as sum = round_sum(sum +
/// round_product(x * w)).
template <class RoundSum, class RoundProduct> struct NarrowAccumulator {
  float *result;
  RoundSum round_sum;
  RoundProduct round_product;

  void axpy(int64_t first, int64_t result_stride, const float *x, int64_t x_stride, float w, int64_t count) {
    for (int64_t j = 0; j < count; ++j) {
      float &sum = result[first + j * result_stride];
      sum = round_sum(sum + round_product(x[j * x_stride] * w));
    }
  }
  void dot(int64_t index, const float *x, const float *y, int64_t y_stride, int64_t count) {
    float sum = result[index];
    for (int64_t j = 0; j < count; ++j) sum = round_sum(sum + round_product(x[j] * y[j * y_stride]));
    result[index] = sum;
  }
};

/// `direction` of `c` (any precision accumulating in float32) by the naive loops with those hooks, in float32
/// before the result is rounded to its format.
template <class RoundSum, class RoundProduct>
Tensor narrow_naive_float32(const Case &c, Direction direction, RoundSum round_sum, RoundProduct round_product) {
  const Case widened = widened_to_accumulation(c);
  const Problem &p = widened.problem;
  Tensor result(DType::float32, result_shape(p, direction));
  NarrowAccumulator<RoundSum, RoundProduct> accumulator{result.data<float>(), round_sum, round_product};
  auto in = [&](Role role) { return widened[role].data<float>(); };
  switch (direction) {
  case Direction::output: naive_forward(p, in(Role::data), in(Role::weight), accumulator); break;
  case Direction::grad_data: naive_grad_data(p, in(Role::grad_output), in(Role::weight), accumulator); break;
  case Direction::grad_weight: naive_grad_weight(p, in(Role::grad_output), in(Role::data), accumulator); break;
  }
  return result;
}

/// No rounding: the hook of a step a bug leaves alone.
inline float kept(float value) { return value; }

} // namespace convcheck
