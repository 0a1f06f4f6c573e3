#include "core/coverage.hpp"

namespace convcheck {

namespace {

std::vector<Corner> make_corners() {
  std::vector<Corner> list = {
      {"one input channel", [](const ConvConfig &c) { return c.in_channels == 1; }},
      {"depthwise (G = C = K > 1)",
       [](const ConvConfig &c) { return c.groups > 1 && c.groups == c.in_channels && c.groups == c.out_channels; }},
      {"groups with C/G != K/G",
       [](const ConvConfig &c) { return c.groups > 1 && c.in_channels_per_group() != c.out_channels_per_group(); }},
      {"1x1 kernel", [](const ConvConfig &c) { return c.kernel_height == 1 && c.kernel_width == 1; }},
      {"kernel larger than input",
       [](const ConvConfig &c) { return c.kernel_height > c.in_height || c.kernel_width > c.in_width; }},
      {"stride larger than kernel",
       [](const ConvConfig &c) { return c.stride_height > c.kernel_height || c.stride_width > c.kernel_width; }},
      {"dilation with stride",
       [](const ConvConfig &c) {
         return (c.dilation_height > 1 && c.stride_height > 1) || (c.dilation_width > 1 && c.stride_width > 1);
       }},
      {"padding on one side only",
       [](const ConvConfig &c) {
         return (c.pad_top == 0) != (c.pad_bottom == 0) || (c.pad_left == 0) != (c.pad_right == 0);
       }},
      {"H != W", [](const ConvConfig &c) { return c.in_height != c.in_width; }},
      {"batch 1", [](const ConvConfig &c) { return c.batch == 1; }},
      {"batch > 1", [](const ConvConfig &c) { return c.batch > 1; }},
      {"float64", [](const ConvConfig &c) { return c.dtype == DType::float64; }},
  };
  for (DataLayout data : {DataLayout::nchw, DataLayout::nhwc})
    for (WeightLayout weight : {WeightLayout::oihw, WeightLayout::hwio, WeightLayout::ohwi})
      list.push_back({to_string(data) + " + " + to_string(weight), [data, weight](const ConvConfig &c) {
                        return c.data_layout == data && c.weight_layout == weight;
                      }});
  return list;
}

} // namespace

const std::vector<Corner> &corners() {
  static const std::vector<Corner> list = make_corners();
  return list;
}

} // namespace convcheck
