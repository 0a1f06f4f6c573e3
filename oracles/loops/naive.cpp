// `naive`: the reference definition (core/numerics/naive_loops.hpp) accumulated in the accumulation format rather than
// double, so it rounds like a straightforward float32 implementation and exercises the diff against the double
// reference. Stored inputs are widened to the accumulation format and the result rounded once to its own format.

#include "oracles/loops/naive.hpp"

#include "core/numerics/naive_loops.hpp"
#include "core/problem/precision_table.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

namespace {

// Adds each product into the result as it comes, in T: per element, one running sum in the definition's order.
template <class T> struct InPlaceAccumulator {
  T *result;
  void axpy(int64_t first, int64_t result_stride, const T *x, int64_t x_stride, T w, int64_t count) {
    T *out = result + first;
    if (result_stride == 1 && x_stride == 1) {
#pragma omp simd // j indexes different elements: each element's own sum is still in order
      for (int64_t j = 0; j < count; ++j) out[j] += x[j] * w;
      return;
    }
    for (int64_t j = 0; j < count; ++j) out[j * result_stride] += x[j * x_stride] * w;
  }
  void dot(int64_t index, const T *x, const T *y, int64_t y_stride, int64_t count) {
    T sum = result[index]; // continuing the element's running sum, not a separate partial sum
    for (int64_t j = 0; j < count; ++j) sum += x[j] * y[j * y_stride];
    result[index] = sum;
  }
};

template <class T> Tensor naive_typed(const Problem &config, const Case &c, Direction direction) {
  Tensor result(result_dtype(config, direction), result_shape(config, direction));
  InPlaceAccumulator<T> accumulator{result.data<T>()};
  switch (direction) {
  case Direction::output: naive_forward(config, c[Role::data].data<T>(), c[Role::weight].data<T>(), accumulator); break;
  case Direction::grad_data: naive_grad_data(config, c[Role::grad_output].data<T>(), c[Role::weight].data<T>(), accumulator); break;
  case Direction::grad_weight:
    naive_grad_weight(config, c[Role::grad_output].data<T>(), c[Role::data].data<T>(), accumulator);
    break;
  }
  return result;
}

const Registration registration{{
    .name = "naive",
    .description = "direct definition loops accumulating in the case dtype; all configs, all directions",
    .supports = {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .precisions = mixed_precisions(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    // A deconv as its equivalent conv with the roles exchanged (core/problem/op.hpp): the definition's loops.
    .run = any_op([](const Case &c, Direction direction) { return naive_result(c.problem, c, direction); }),
    // The definition's own loop order, kept on purpose: at size it costs several times the reference
    // (docs/performance.md), so large cases run it on a share (core/run/cost_plan.hpp).
    .cost_planned = true,
}};

} // namespace

Tensor naive_result(const Problem &config, const Case &conv_case, Direction direction) {
  if (!config.precision.single()) {
    const Case widened = widened_to_accumulation(conv_case);
    return naive_result(widened.problem, widened, direction).cast(result_dtype(config, direction));
  }
  return with_compute_type(config.precision.acc,
                           [&](auto zero) { return naive_typed<decltype(zero)>(config, conv_case, direction); });
}

} // namespace convcheck
