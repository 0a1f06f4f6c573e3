#pragma once
// A 2-D convolution problem. Conventions, stated once:
// - shapes are canonical: data [N, C, H, W], weight [K, C/G, R, S] (OIHW), output [N, K, P, Q];
// - dilation 1 means none (oneDNN counts from 0, we do not);
// - padding is top, bottom, left, right, each >= 0 and independent (asymmetric);
// - P = (H + pad_top + pad_bottom - dilation_height * (R - 1) - 1) / stride_height + 1, Q likewise;
// - data_layout and weight_layout say how an implementation under test should hold the tensors; case files
//   and the reference always use the canonical layouts.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace convcheck {

enum class DataLayout { nchw, nhwc };
enum class WeightLayout { oihw, hwio, ohwi };
enum class DType { float32, float64 };

/// "NCHW", "OIHW", "float32": the spellings used by case files and the CLI.
std::string to_string(DataLayout layout);
std::string to_string(WeightLayout layout);
std::string to_string(DType dtype);
/// Parses those spellings (case-insensitive); throws InputError naming `what` otherwise.
DataLayout parse_data_layout(const std::string &text, const std::string &what = "data_layout");
WeightLayout parse_weight_layout(const std::string &text, const std::string &what = "weight_layout");
DType parse_dtype(const std::string &text, const std::string &what = "dtype");

using Shape = std::vector<int64_t>;

struct ConvConfig {
  int64_t batch = 1;
  int64_t groups = 1;
  int64_t in_channels = 1;
  int64_t out_channels = 1;
  int64_t in_height = 1;
  int64_t in_width = 1;
  int64_t kernel_height = 1;
  int64_t kernel_width = 1;
  int64_t stride_height = 1;
  int64_t stride_width = 1;
  int64_t dilation_height = 1;
  int64_t dilation_width = 1;
  int64_t pad_top = 0;
  int64_t pad_bottom = 0;
  int64_t pad_left = 0;
  int64_t pad_right = 0;
  DataLayout data_layout = DataLayout::nchw;
  WeightLayout weight_layout = WeightLayout::oihw;
  DType dtype = DType::float32;

  int64_t in_channels_per_group() const { return in_channels / groups; }
  int64_t out_channels_per_group() const { return out_channels / groups; }
  /// P and Q; meaningful only for a valid config.
  int64_t out_height() const;
  int64_t out_width() const;

  /// Canonical shapes: [N,C,H,W], [K,C/G,R,S], [N,K,P,Q].
  Shape data_shape() const;
  Shape weight_shape() const;
  Shape output_shape() const;

  friend bool operator==(const ConvConfig &, const ConvConfig &) = default;
};

/// Every integer field with its case-file name, in schema order; lets readers, writers and printers share
/// one list instead of sixteen hand-written lines each.
struct IntField {
  const char *name;
  int64_t ConvConfig::*member;
};
const std::array<IntField, 16> &int_fields();

/// The default cap on elements per tensor (2^28), so a hostile file cannot make us allocate terabytes.
inline constexpr int64_t default_max_elements = int64_t{1} << 28;

/// Throws InputError with a one-line message naming the first invalid field and its value. Checks positivity,
/// divisibility by groups, output size >= 1 and that no tensor exceeds `max_elements`.
void validate(const ConvConfig &config, int64_t max_elements = default_max_elements);

} // namespace convcheck
