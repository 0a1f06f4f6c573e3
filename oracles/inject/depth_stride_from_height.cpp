// Injected bug `depth_stride_from_height`: a 3-D kernel written by extending a 2-D one reads the depth stride
// from the height stride's variable, a copy-paste slip that 2-D tests cannot see and that is invisible whenever
// the two strides agree (cubic strides, the common case). The outputs then land on the wrong planes, or the
// output has the wrong depth, which the kernel refuses like a real one would.

#include <stdexcept>

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "depth_stride_from_height",
    .description = "naive loops whose depth stride is the height stride (3-D only)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run =
        [](const Case &c, Direction direction) {
          Problem misread = c.problem;
          misread.depth().stride = c.problem.height().stride;
          if (misread.output_shape() != c.problem.output_shape())
            throw std::runtime_error("depth of the output does not match the kernel's");
          return naive_result(misread, c, direction);
        },
}};

} // namespace

} // namespace convcheck
