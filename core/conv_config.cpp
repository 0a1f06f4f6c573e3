#include "core/conv_config.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

std::string upper(std::string text) {
  for (char &c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

int64_t out_size(int64_t in, int64_t pad_begin, int64_t pad_end, int64_t kernel, int64_t stride,
                 int64_t dilation) {
  const int64_t span = in + pad_begin + pad_end - dilation * (kernel - 1) - 1;
  return span < 0 ? 0 : span / stride + 1;
}

// Multiplies shape entries, saturating instead of overflowing so absurd sizes are caught, not wrapped.
int64_t saturating_count(const Shape &shape) {
  int64_t count = 1;
  for (int64_t extent : shape) {
    if (extent != 0 && count > std::numeric_limits<int64_t>::max() / extent)
      return std::numeric_limits<int64_t>::max();
    count *= extent;
  }
  return count;
}

} // namespace

std::string to_string(DataLayout layout) { return layout == DataLayout::nchw ? "NCHW" : "NHWC"; }

std::string to_string(WeightLayout layout) {
  switch (layout) {
  case WeightLayout::oihw: return "OIHW";
  case WeightLayout::hwio: return "HWIO";
  case WeightLayout::ohwi: return "OHWI";
  }
  return "?";
}

std::string to_string(DType dtype) { return dtype == DType::float32 ? "float32" : "float64"; }

DataLayout parse_data_layout(const std::string &text, const std::string &what) {
  const std::string key = upper(text);
  if (key == "NCHW") return DataLayout::nchw;
  if (key == "NHWC") return DataLayout::nhwc;
  throw InputError(fmt::format("{} '{}' is not NCHW or NHWC", what, text));
}

WeightLayout parse_weight_layout(const std::string &text, const std::string &what) {
  const std::string key = upper(text);
  if (key == "OIHW") return WeightLayout::oihw;
  if (key == "HWIO") return WeightLayout::hwio;
  if (key == "OHWI") return WeightLayout::ohwi;
  throw InputError(fmt::format("{} '{}' is not OIHW, HWIO or OHWI", what, text));
}

DType parse_dtype(const std::string &text, const std::string &what) {
  const std::string key = upper(text);
  if (key == "FLOAT32" || key == "F32") return DType::float32;
  if (key == "FLOAT64" || key == "F64") return DType::float64;
  throw InputError(fmt::format("{} '{}' is not float32 or float64", what, text));
}

int64_t ConvConfig::out_height() const {
  return out_size(in_height, pad_top, pad_bottom, kernel_height, stride_height, dilation_height);
}

int64_t ConvConfig::out_width() const {
  return out_size(in_width, pad_left, pad_right, kernel_width, stride_width, dilation_width);
}

Shape ConvConfig::data_shape() const { return {batch, in_channels, in_height, in_width}; }
Shape ConvConfig::weight_shape() const {
  return {out_channels, in_channels_per_group(), kernel_height, kernel_width};
}
Shape ConvConfig::output_shape() const { return {batch, out_channels, out_height(), out_width()}; }

const std::array<IntField, 16> &int_fields() {
  static const std::array<IntField, 16> fields{{
      {"batch", &ConvConfig::batch},
      {"groups", &ConvConfig::groups},
      {"in_channels", &ConvConfig::in_channels},
      {"out_channels", &ConvConfig::out_channels},
      {"in_height", &ConvConfig::in_height},
      {"in_width", &ConvConfig::in_width},
      {"kernel_height", &ConvConfig::kernel_height},
      {"kernel_width", &ConvConfig::kernel_width},
      {"stride_height", &ConvConfig::stride_height},
      {"stride_width", &ConvConfig::stride_width},
      {"dilation_height", &ConvConfig::dilation_height},
      {"dilation_width", &ConvConfig::dilation_width},
      {"pad_top", &ConvConfig::pad_top},
      {"pad_bottom", &ConvConfig::pad_bottom},
      {"pad_left", &ConvConfig::pad_left},
      {"pad_right", &ConvConfig::pad_right},
  }};
  return fields;
}

void validate(const ConvConfig &config, int64_t max_elements) {
  // Every extent is capped too, so that products below cannot overflow before the element cap is checked.
  constexpr int64_t max_extent = int64_t{1} << 30;
  for (const IntField &field : int_fields()) {
    const int64_t value = config.*field.member;
    const bool is_pad = std::string_view(field.name).starts_with("pad_");
    if (is_pad ? value < 0 : value < 1)
      throw InputError(fmt::format("{} {} must be {}", field.name, value, is_pad ? ">= 0" : ">= 1"));
    if (value > max_extent)
      throw InputError(fmt::format("{} {} exceeds the limit {}", field.name, value, max_extent));
  }
  if (config.in_channels % config.groups != 0)
    throw InputError(fmt::format("groups {} does not divide in_channels {}", config.groups, config.in_channels));
  if (config.out_channels % config.groups != 0)
    throw InputError(fmt::format("groups {} does not divide out_channels {}", config.groups, config.out_channels));
  if (config.out_height() < 1)
    throw InputError(fmt::format(
        "output height is empty: in_height {} + pad_top {} + pad_bottom {} < dilated kernel height {}",
        config.in_height, config.pad_top, config.pad_bottom,
        config.dilation_height * (config.kernel_height - 1) + 1));
  if (config.out_width() < 1)
    throw InputError(fmt::format(
        "output width is empty: in_width {} + pad_left {} + pad_right {} < dilated kernel width {}",
        config.in_width, config.pad_left, config.pad_right, config.dilation_width * (config.kernel_width - 1) + 1));
  const std::pair<const char *, Shape> tensors[] = {
      {"data", config.data_shape()}, {"weight", config.weight_shape()}, {"output", config.output_shape()}};
  for (const auto &[name, shape] : tensors) {
    const int64_t count = saturating_count(shape);
    if (count > max_elements)
      throw InputError(fmt::format("{} tensor has {} elements, more than the limit {} (see --max-elements)", name,
                                   count, max_elements));
  }
}

} // namespace convcheck
