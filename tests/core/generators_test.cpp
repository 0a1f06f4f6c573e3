// The default distribution is valid by construction and reaches every corner often, not by luck.

#include "core/generators.hpp"

#include <functional>
#include <map>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/input_error.hpp"

namespace convcheck {
namespace {

RC_GTEST_PROP(Generators, EveryConfigIsValid, ()) {
  const ConvConfig config = *conv_configs();
  validate(config); // throws, failing the property, on an invalid config
  RC_ASSERT(config.out_height() >= 1);
}

TEST(Generators, SameSeedAndIndexSameConfig) {
  EXPECT_EQ(generate_config(3, 17), generate_config(3, 17));
  EXPECT_NE(generate_config(3, 17), generate_config(3, 18));
  EXPECT_NE(generate_config(3, 17), generate_config(4, 17));
}

TEST(Generators, CornersAreReachedOften) {
  const std::map<std::string, std::function<bool(const ConvConfig &)>> corners = {
      {"one input channel", [](const ConvConfig &c) { return c.in_channels == 1; }},
      {"depthwise", [](const ConvConfig &c) { return c.groups > 1 && c.groups == c.in_channels && c.groups == c.out_channels; }},
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
       [](const ConvConfig &c) { return (c.pad_top == 0) != (c.pad_bottom == 0) || (c.pad_left == 0) != (c.pad_right == 0); }},
      {"H != W", [](const ConvConfig &c) { return c.in_height != c.in_width; }},
      {"batch 1", [](const ConvConfig &c) { return c.batch == 1; }},
      {"batch > 1", [](const ConvConfig &c) { return c.batch > 1; }},
      {"float64", [](const ConvConfig &c) { return c.dtype == DType::float64; }},
  };
  std::map<std::string, int> hits;
  std::map<std::pair<DataLayout, WeightLayout>, int> layouts;
  const int cases = 3000;
  for (int i = 0; i < cases; ++i) {
    const ConvConfig config = generate_config(1, static_cast<uint64_t>(i));
    for (const auto &[name, holds] : corners) hits[name] += holds(config);
    ++layouts[{config.data_layout, config.weight_layout}];
  }
  for (const auto &[name, count] : hits) EXPECT_GE(count, cases * 3 / 100) << name << ": " << count << " of " << cases;
  EXPECT_EQ(layouts.size(), 6u);
  for (const auto &[pair, count] : layouts) EXPECT_GE(count, cases / 10);
}

} // namespace
} // namespace convcheck
