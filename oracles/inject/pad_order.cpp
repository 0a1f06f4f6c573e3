// Injected bug `pad_order`: the four paddings are read as (top, left, bottom, right) although they are given
// as (top, bottom, left, right), so pad_bottom and pad_left trade places. Frameworks disagree on this order
// (ONNX begins/ends vs TVM top/left/bottom/right), and a converter that mixes them gets exactly this; it is
// invisible whenever pad_bottom == pad_left.

#include <stdexcept>
#include <utility>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "pad_order",
    .description = "naive loops with padding read as top, left, bottom, right",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {2}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run =
        [](const Case &c, Direction direction) {
          Problem misread = c.problem;
          std::swap(misread.height().pad_end, misread.width().pad_begin);
          if (misread.height().out() < 1 || misread.width().out() < 1)
            throw std::runtime_error("padding leaves an empty output");
          // The gradients read grad_output in the misread geometry; like a real implementation, refuse a
          // grad_output whose shape does not match rather than read past it.
          if (direction != Direction::output && misread.output_shape() != c.problem.output_shape())
            throw std::runtime_error("grad_output shape does not match the padding");
          return naive_result(misread, c, direction);
        },
}};

} // namespace

} // namespace convcheck
