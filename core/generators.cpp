#include "core/generators.hpp"

#include <algorithm>

#include "core/fill.hpp"

namespace convcheck {

namespace {

enum class GroupKind { dense, grouped, depthwise };

// Independent knobs; to_config turns any combination of them into a valid config.
struct Knobs {
  GroupKind group_kind = GroupKind::dense;
  int64_t groups = 1, in_per_group = 1, out_per_group = 1, batch = 1;
  int64_t in_height = 1, in_width = 1, kernel_height = 1, kernel_width = 1;
  int64_t stride_height = 1, stride_width = 1, dilation_height = 1, dilation_width = 1;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  DataLayout data_layout = DataLayout::nchw;
  WeightLayout weight_layout = WeightLayout::oihw;
  DType dtype = DType::float32;
};

// 1 in a quarter of cases, otherwise uniform in [1, max].
rc::Gen<int64_t> often_one(int64_t max) {
  return rc::gen::weightedOneOf<int64_t>({{1, rc::gen::just<int64_t>(1)}, {3, rc::gen::inRange<int64_t>(1, max + 1)}});
}

// 1 in about three cases of four, otherwise in [2, max].
rc::Gen<int64_t> mostly_one(int64_t max) {
  return rc::gen::weightedOneOf<int64_t>({{3, rc::gen::just<int64_t>(1)}, {1, rc::gen::inRange<int64_t>(2, max + 1)}});
}

rc::Gen<int64_t> padding() {
  return rc::gen::weightedOneOf<int64_t>({{3, rc::gen::just<int64_t>(0)}, {2, rc::gen::inRange<int64_t>(1, 4)}});
}

// Raises the two paddings of one axis, evenly, until the dilated kernel fits.
void fit_padding(int64_t in, int64_t kernel, int64_t dilation, int64_t &pad_begin, int64_t &pad_end) {
  const int64_t deficit = dilation * (kernel - 1) + 1 - (in + pad_begin + pad_end);
  if (deficit <= 0) return;
  pad_begin += deficit / 2;
  pad_end += deficit - deficit / 2;
}

ConvConfig to_config(const Knobs &k) {
  ConvConfig c;
  c.groups = k.group_kind == GroupKind::dense ? 1 : k.groups;
  const int64_t in_per_group = k.group_kind == GroupKind::depthwise ? 1 : k.in_per_group;
  const int64_t out_per_group = k.group_kind == GroupKind::depthwise ? 1 : k.out_per_group;
  c.in_channels = c.groups * in_per_group;
  c.out_channels = c.groups * out_per_group;
  c.batch = k.batch;
  c.in_height = k.in_height;
  c.in_width = k.in_width;
  c.kernel_height = k.kernel_height;
  c.kernel_width = k.kernel_width;
  c.stride_height = k.stride_height;
  c.stride_width = k.stride_width;
  c.dilation_height = k.dilation_height;
  c.dilation_width = k.dilation_width;
  c.pad_top = k.pad_top;
  c.pad_bottom = k.pad_bottom;
  c.pad_left = k.pad_left;
  c.pad_right = k.pad_right;
  fit_padding(c.in_height, c.kernel_height, c.dilation_height, c.pad_top, c.pad_bottom);
  fit_padding(c.in_width, c.kernel_width, c.dilation_width, c.pad_left, c.pad_right);
  c.data_layout = k.data_layout;
  c.weight_layout = k.weight_layout;
  c.dtype = k.dtype;
  return c;
}

} // namespace

rc::Gen<ConvConfig> conv_configs() {
  using rc::gen::set;
  const auto spatial = rc::gen::inRange<int64_t>(1, 13);
  const auto kernel = often_one(5);
  return rc::gen::map(
      rc::gen::build<Knobs>(
          set(&Knobs::group_kind, rc::gen::weightedElement<GroupKind>(
                                      {{4, GroupKind::dense}, {3, GroupKind::grouped}, {2, GroupKind::depthwise}})),
          set(&Knobs::groups, rc::gen::inRange<int64_t>(2, 7)), set(&Knobs::in_per_group, often_one(8)),
          set(&Knobs::out_per_group, often_one(8)),
          set(&Knobs::batch, rc::gen::weightedOneOf<int64_t>(
                                 {{1, rc::gen::just<int64_t>(1)}, {1, rc::gen::inRange<int64_t>(2, 4)}})),
          set(&Knobs::in_height, spatial), set(&Knobs::in_width, spatial), set(&Knobs::kernel_height, kernel),
          set(&Knobs::kernel_width, kernel), set(&Knobs::stride_height, mostly_one(3)),
          set(&Knobs::stride_width, mostly_one(3)), set(&Knobs::dilation_height, mostly_one(3)),
          set(&Knobs::dilation_width, mostly_one(3)), set(&Knobs::pad_top, padding()),
          set(&Knobs::pad_bottom, padding()), set(&Knobs::pad_left, padding()), set(&Knobs::pad_right, padding()),
          set(&Knobs::data_layout, rc::gen::element(DataLayout::nchw, DataLayout::nhwc)),
          set(&Knobs::weight_layout, rc::gen::element(WeightLayout::oihw, WeightLayout::hwio, WeightLayout::ohwi)),
          set(&Knobs::dtype, rc::gen::weightedElement<DType>({{7, DType::float32}, {1, DType::float64}}))),
      to_config);
}

ConvConfig generate_config(uint64_t seed, uint64_t case_index) {
  static const rc::Gen<ConvConfig> generator = conv_configs();
  const rc::Random random(rc::Random::Key{mix64(seed), mix64(seed ^ 0x636f6e76ULL), mix64(case_index),
                                          mix64(case_index ^ 0x63617365ULL)});
  return generator(random, rc::kNominalSize).value();
}

} // namespace convcheck
