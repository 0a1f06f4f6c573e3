#pragma once
// The problem: one convolution of any spatial rank, held as data. Conventions, stated once:
// - spatial axes are held outermost first (D, H, W) and always three of them, like benchdnn's desc_t: a 2-D
//   problem has a unit depth axis, a 1-D problem unit depth and height (size 1, kernel 1, stride 1, dilation 1, no
//   padding). `ndims` (1, 2 or 3) says how many trailing axes are the problem's own; only those appear in shapes,
//   descriptors and case files. Loops may run over all three: a unit axis changes neither a result nor the memory
//   order of any tensor, so [N, C, W] and [N, C, 1, 1, W] are the same bytes.
// - canonical shapes: data [N, C, spatial...], output [N, K, out...]; the weight of a conv [K, C/G, kernel...], of a
//   deconv [C, K/G, kernel...] (IOHW per group, PyTorch's); `in` is always the size of the op's own input, and the
//   output size follows by the op's formula (core/problem/op.hpp);
// - dilation 1 means none (oneDNN counts from 0, we do not);
// - padding is given per axis at the beginning and at the end (top/bottom, left/right, front/back); either may
//   be negative, which crops the input: out = (in + pad_begin + pad_end - dilation * (kernel - 1) - 1) / stride + 1
//   must be >= 1;
// - data_layout and weight_layout say how an implementation under test should hold the tensors; case files and
//   the reference always use the canonical layouts;
// - each tensor has its own storage format (src for data, weight, dst for the output), and sums are accumulated
//   in `acc`; a gradient is stored in the format of the tensor it is the gradient of.
// The fields are listed once, with their names and rules, in core/problem/fields.hpp.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/problem/dtype.hpp"

namespace convcheck {

/// The operation: conv, or deconv (conv_transpose, PyTorch's ConvTranspose). Each is a row of core/problem/op.hpp:
/// its size formula, its weight's channel order, and for each direction the conv direction it is computed as.
enum class Op { conv, deconv };

/// Data layouts of any rank: channels first (NCW, NCHW, NCDHW) or channels last (NWC, NHWC, NDHWC).
enum class DataLayout { ncx, nxc };
/// Weight layouts of any rank: OIW/OIHW/OIDHW (canonical), WIO/HWIO/DHWIO (TVM's and TensorFlow's),
/// OWI/OHWI/ODHWI (oneDNN's "ohwi").
enum class WeightLayout { oix, xio, oxi };

inline constexpr int max_ndims = 3;

/// "conv".
std::string to_string(Op op);
/// "NCHW" for (ncx, 2): the spelling of case files and the CLI.
std::string to_string(DataLayout layout, int64_t ndims);
std::string to_string(WeightLayout layout, int64_t ndims);
/// "ncx", "nxc"; "oix", "xio", "oxi": a layout's family, the same at every rank (x for the spatial axes), as outside
/// implementations declare layouts (oracles/outside/declared_support.hpp).
std::string family_name(DataLayout layout);
std::string family_name(WeightLayout layout);
/// Parses those spellings (case-insensitive) for a problem of `ndims` spatial dimensions; throws InputError naming
/// `what` when the text is no layout of that rank.
Op parse_op(const std::string &text, const std::string &what = "op");
DataLayout parse_data_layout(const std::string &text, int64_t ndims, const std::string &what = "data_layout");
WeightLayout parse_weight_layout(const std::string &text, int64_t ndims, const std::string &what = "weight_layout");
/// The rank a layout spelling implies ("NCDHW": 3), or nullopt when it is no layout.
std::optional<int64_t> data_layout_rank(const std::string &text);
std::optional<int64_t> weight_layout_rank(const std::string &text);

using Shape = std::vector<int64_t>;

/// One spatial axis.
struct SpatialAxis {
  int64_t in = 1, kernel = 1, stride = 1, dilation = 1, pad_begin = 0, pad_end = 0;
  /// A deconv's extra output at the end (PyTorch's output_padding); always 0 in a conv.
  int64_t output_padding = 0;

  /// The output size OF A CONV; 0 or less when the dilated kernel does not fit (an invalid problem). A problem's
  /// output size on an axis, whatever its op, is Problem::out_size (the op's formula, core/problem/op.hpp). Inline:
  /// the loop strategies and the reference call it in their inner loops.
  int64_t out() const {
    const int64_t span = in + pad_begin + pad_end - dilated_kernel();
    return span < 0 ? 0 : span / stride + 1;
  }
  /// The output size of a deconv (conv_transpose): (in - 1) * stride - pad_begin - pad_end + dilation *
  /// (kernel - 1) + output_padding + 1 (PyTorch's ConvTranspose formula).
  int64_t transposed_out() const;
  /// The extent of the dilated kernel: dilation * (kernel - 1) + 1.
  int64_t dilated_kernel() const { return dilation * (kernel - 1) + 1; }
  friend bool operator==(const SpatialAxis &, const SpatialAxis &) = default;
};

/// Storage formats per tensor and the accumulation format.
struct Precision {
  DType src = DType::float32, weight = DType::float32, dst = DType::float32, acc = DType::float32;

  /// All four in one format.
  static Precision uniform(DType dtype) { return {dtype, dtype, dtype, dtype}; }
  /// The format, when all four are the same.
  std::optional<DType> single() const;
  friend bool operator==(const Precision &, const Precision &) = default;
};

struct Problem {
  Op op = Op::conv;
  int64_t ndims = 2; // spatial dimensions: 1, 2 or 3
  int64_t batch = 1;
  int64_t groups = 1;
  int64_t in_channels = 1;
  int64_t out_channels = 1;
  std::array<SpatialAxis, max_ndims> axes{}; // D, H, W; the first max_ndims - ndims are unit axes
  DataLayout data_layout = DataLayout::ncx;
  WeightLayout weight_layout = WeightLayout::oix;
  Precision precision{};

  int64_t in_channels_per_group() const { return in_channels / groups; }
  int64_t out_channels_per_group() const { return out_channels / groups; }

  /// The axes that are the problem's own (the last `ndims`), by index into `axes`.
  int64_t first_axis() const { return max_ndims - ndims; }
  const SpatialAxis &depth() const { return axes[0]; }
  const SpatialAxis &height() const { return axes[1]; }
  const SpatialAxis &width() const { return axes[2]; }
  SpatialAxis &depth() { return axes[0]; }
  SpatialAxis &height() { return axes[1]; }
  SpatialAxis &width() { return axes[2]; }

  /// The output size on axis `axis` (0..2) by the op's formula.
  int64_t out_size(int64_t axis) const;

  /// Products over the three axes (unit axes count 1).
  int64_t in_volume() const;
  int64_t kernel_volume() const;
  int64_t out_volume() const;
  /// Products summed by one direction: those of the equivalent conv (core/problem/op.hpp), batch * K * C/G *
  /// kernel and output volumes (each direction of a conv sums the same products, grouped differently).
  int64_t multiply_adds() const;

  /// Canonical shapes, rank 2 + ndims: [N, C, in...], the weight by the op, [N, K, out...].
  Shape data_shape() const;
  Shape weight_shape() const;
  Shape output_shape() const;

  friend bool operator==(const Problem &, const Problem &) = default;
};

/// The same problem with `ndims` spatial dimensions: dropped outer axes must be unit axes (nullopt otherwise);
/// added outer axes are unit axes. The layouts keep their kind (channels-last stays channels-last).
std::optional<Problem> with_ndims(const Problem &problem, int64_t ndims);

/// The default cap on elements per tensor (2^28), so a hostile file cannot make us allocate terabytes.
inline constexpr int64_t default_max_elements = int64_t{1} << 28;

/// Throws InputError with a one-line message naming the first invalid field and its value (core/problem/fields.hpp
/// says what each must be): ndims 1..3, unit outer axes, positivity, divisibility by groups, output size >= 1 on
/// every axis, and no tensor over `max_elements`.
void validate(const Problem &problem, int64_t max_elements = default_max_elements);

/// validate() as a predicate.
bool is_valid(const Problem &problem, int64_t max_elements = default_max_elements);

} // namespace convcheck
