// Injected bug `nhwc_weight_untransformed`: a layout-converted conv (NHWC data, HWIO weight; oracles/layout_native)
// whose converter transforms the data but forgets the weight's layout_transform(src_layout="OIHW",
// dst_layout="HWIO"), so the HWIO loops read the canonical OIHW buffer as if it were [R, S, C/G, K], and the weight
// gradient they write in HWIO is handed back as OIHW. This is the edge TVM's ConvertLayout must insert for every
// conv weight and constant folding later hides (discuss.tvm.apache.org/t/8208): a weight pre-transformed on one
// path and not on another gets exactly this. Element counts match, so nothing reads out of bounds. The same
// mistake is made in every rank (OIW read as WIO, OIDHW as DHWIO) and with any padding, crops included.
//
// Flat element (k, c, taps) of OI... is read as XIO element (taps', c', k') at the same offset. The two orders
// are the blocks (K, C/G, V) and (V, C/G, K), V the kernel volume, the same flat order exactly when at most one
// of K, C/G and V exceeds 1: the bug is invisible when K = C/G = 1 (any kernel), or with a unit kernel and K = 1
// or C/G = 1 (e.g. depthwise 1x1). The smallest configs that show it hold a 4-element weight with two of those
// blocks at 2: mb1ic2ih1oc2kh1 (the weight read transposed), mb1ic1ih2iw1oc2kh2kw1, or mb1ic1ih1iw1oc2kh1kw2pl1;
// in 1-D mb1ic2iw1oc2kw1, in 3-D mb1ic1id2ih1iw1oc2kd2kh1kw1.

#include "core/tensor/layout.hpp"
#include "core/run/strategy.hpp"
#include "oracles/loops/layout_native.hpp"

namespace convcheck {

namespace {

constexpr DataLayout data_layout = DataLayout::nxc;
constexpr WeightLayout weight_layout = WeightLayout::xio;

Tensor weight_untransformed(const Case &c, Direction direction) {
  const Shape hwio_shape = weight_shape_in(c.problem.weight_shape(), weight_layout);
  HeldInputs held{data_layout, weight_layout, {}, {}, {}};
  if (direction != Direction::grad_data) held.data = to_data_layout(c[Role::data], data_layout);
  // The bug: the OI... buffer relabelled as XIO instead of to_weight_layout(c[Role::weight], weight_layout).
  if (direction != Direction::grad_weight) held.weight = c[Role::weight].reshaped(hwio_shape);
  if (direction != Direction::output) held.grad_output = to_data_layout(c[Role::grad_output], data_layout);
  Tensor result = held_layout_result(c.problem, held, direction);
  // The same bug on the way back: an XIO weight gradient relabelled as OI... instead of from_weight_layout.
  if (direction == Direction::grad_weight) return std::move(result).reshaped(c.problem.weight_shape());
  return from_data_layout(result, data_layout);
}

const Registration registration{{
    .name = "nhwc_weight_untransformed",
    .description = "NHWC/HWIO layout-converted loops reading the OIHW weight (and writing its gradient) "
                   "untransformed; ranks 1-3 (NWC/WIO, NDHWC/DHWIO), crops",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .unsupported = nullptr,
    .run = weight_untransformed,
    .implementation = nullptr,
}};

} // namespace

} // namespace convcheck
