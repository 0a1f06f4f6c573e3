// Injected bug `mb_tail_dgrad`: a data-gradient kernel that reduces the batch in blocks of 2 and loses the odd
// image at the end: with an odd batch of 3 or more, the last image's data gradient stays zero. Batch 1 (no full
// block) and every even batch are right, which is why tests at batch 1 and 2 pass.

#include <algorithm>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  Tensor result = naive_result(c.problem, c, direction);
  const int64_t batch = c.problem.batch;
  if (direction != Direction::grad_data || batch <= 2 || batch % 2 == 0) return result;
  const int64_t image = result.size() / batch;
  visit_typed(result, [&](auto *values) {
    std::fill_n(values + (batch - 1) * image, image, std::remove_pointer_t<decltype(values)>{});
  });
  return result;
}

const Registration registration{{
    .name = "mb_tail_dgrad",
    .description = "naive loops whose data gradient loses the last image of an odd batch past a block of 2",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
