// Injected bug `crop_wrong_end`: negative padding (a crop, as XLA's and oneDNN's convolutions accept it) taken off
// the wrong end of the axis. An implementation that only handles non-negative padding and "normalises" a crop to
// trimming the input's far end keeps every output size right, so shapes match; only the values shift by the crop.
// Invisible without negative padding.

#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

// Moves each crop to the other end of its axis; the padded extent, and so every output size, is unchanged.
Problem crop_at_the_other_end(Problem problem) {
  for (SpatialAxis &axis : problem.axes) {
    if (axis.pad_begin < 0 && axis.pad_end >= 0) axis.pad_end += axis.pad_begin, axis.pad_begin = 0;
    else if (axis.pad_end < 0 && axis.pad_begin >= 0) axis.pad_begin += axis.pad_end, axis.pad_end = 0;
  }
  return problem;
}

const Registration registration{{
    .name = "crop_wrong_end",
    .description = "naive loops that crop (negative padding) at the opposite end of the axis",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return naive_result(crop_at_the_other_end(c.problem), c, direction);
    },
}};

} // namespace

} // namespace convcheck
