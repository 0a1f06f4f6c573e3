// Injected bug `kw_unroll5`: kernel width unrolled up to 5 columns, and the loop over the remaining columns never
// written: every tap past the fifth column of the kernel is dropped, in all three directions (the weight gradient
// of those columns stays zero). ResNet's 7x7 and AlexNet's 11x11 first layers are where such a kernel meets it;
// every kernel of width 5 or less is right.

#include <algorithm>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

constexpr int64_t unrolled = 5;

// Zeroes the weight-shaped tensor's kernel columns from `unrolled` on ([K, C/G, ..., kw] canonical, kw innermost).
void drop_columns(const Problem &p, Tensor &weight) {
  const int64_t width = p.width().kernel;
  visit_typed(weight, [&](auto *values) {
    using T = std::remove_pointer_t<decltype(values)>;
    for (int64_t row = 0; row < weight.size() / width; ++row)
      std::fill(values + row * width + unrolled, values + (row + 1) * width, T{});
  });
}

Tensor run(const Case &c, Direction direction) {
  if (c.problem.width().kernel <= unrolled) return naive_result(c.problem, c, direction);
  if (direction == Direction::grad_weight) {
    Tensor grad_weight = naive_result(c.problem, c, direction);
    drop_columns(c.problem, grad_weight);
    return grad_weight;
  }
  Case dropped{c.problem, {}, c.seed, c.case_index, c.fill};
  for (Role role : input_roles) dropped[role] = c[role].clone();
  drop_columns(c.problem, dropped[Role::weight]);
  return naive_result(c.problem, dropped, direction);
}

const Registration registration{{
    .name = "kw_unroll5",
    .description = "naive loops that drop kernel columns past the fifth (an unrolled width loop without its rest)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
