// `xnnpack`: XNNPACK's NHWC convolution operator (Debian's libxnnpack 0.0~git20220216, upstream commit ae108ef), the
// inference kernels behind TensorFlow Lite and PyTorch Mobile. Forward only, 1-D and 2-D, float32, and float16
// (f16:f16:f16:f32: xnn_create_convolution2d_nhwc_f16) where the host has XNNPACK's f16 kernels.
//
// One operator per case: xnn_create_convolution2d_nhwc_f32 (which packs the weights), xnn_setup_..., xnn_run_operator
// on the calling thread (no pthreadpool), xnn_delete_operator. With
//   paddings      top, right, bottom, left = max(pad, 0) of each end (XNNPACK takes four independent paddings);
//                 crops (negative padding) cut from the input first (oracles/support/tensor_ops.hpp, pad)
//   subsampling   the stride; dilation as is (1 means none in both)
//   groups        groups, group_input_channels C/G, group_output_channels K/G; channel strides C and K
//   kernel        [groups][K/G][kh][kw][C/G]: the canonical weight in OHWI (to_weight_layout(oxi)), since output
//                 channel k is group k / (K/G) in both
//   bias          none (XNNPACK's packing zero-fills it); output range -inf..+inf, which selects XNNPACK's linear
//                 (unclamped) kernels where it has them
// 1-D problems are 2-D ones with a unit height, as convcheck holds them. XNNPACK has no 3-D convolution operator and
// no gradient operators (it is an inference library), so those are skipped. Its f16 operator runs, on x86, kernels for
// AVX2 CPUs (F16C conversions), which round the partial sums to f16 (docs/findings.md): no precision row holds an
// f16 accumulation, so under the f16:f16:f16:f32 bound every case with a few terms fails, and f16 is held back
// (core/run/held_back.hpp; --run-held-back runs it). Where XNNPACK has no f16 kernels (its create call returns xnn_status_unsupported_hardware, asked once per process
// on a small probe operator), an f16 case is skipped with that reason.
//
// The weights are packed into the operator at creation, and every case has new weights: an operator serves one case
// and nothing can be cached across cases (this XNNPACK has no weights cache, xnn_create_weights_cache came later).
// docs/performance.md has the creation cost.
//
// Which kernel ran is not queryable (xnn_operator is opaque); `implementation` repeats XNNPACK ae108ef's selection
// (src/operators/convolution-nhwc.c, create_convolution2d_nhwc) from the problem: vmulcaddc (depthwise 1x1, unit
// stride, no padding), dwconv (depthwise, kernel of 3, 4, 9 or 25 taps: the primary tiles of its f32 dwconv
// kernels), gemm (1x1, unit stride, no padding), igemm (everything else, through an indirection buffer).

#include "core/run/strategy.hpp"

#ifdef CONVCHECK_XNNPACK

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <xnnpack.h>

#include "core/run/held_back.hpp"
#include "core/tensor/layout.hpp"
#include "oracles/support/tensor_ops.hpp"

namespace convcheck {

namespace {

const char *status_name(xnn_status status) {
  switch (status) {
  case xnn_status_success: return "success";
  case xnn_status_uninitialized: return "uninitialized";
  case xnn_status_invalid_parameter: return "invalid_parameter";
  case xnn_status_invalid_state: return "invalid_state";
  case xnn_status_unsupported_parameter: return "unsupported_parameter";
  case xnn_status_unsupported_hardware: return "unsupported_hardware";
  case xnn_status_out_of_memory: return "out_of_memory";
  }
  return "unknown";
}

void check(xnn_status status, const char *call) {
  if (status != xnn_status_success) throw std::runtime_error(fmt::format("xnnpack: {} returned {}", call, status_name(status)));
}

/// XNNPACK's one-time set-up (cpuinfo's CPU detection, the kernel tables), once per process; it starts no thread.
void initialize() {
  static const xnn_status status = xnn_initialize(nullptr);
  check(status, "xnn_initialize");
}

/// Deletes the operator on every path out.
struct Operator {
  xnn_operator_t op = nullptr;
  ~Operator() {
    if (op != nullptr) xnn_delete_operator(op);
  }
};

/// The data as XNNPACK reads it: NHWC, cropped, in its storage format, and followed by the XNN_EXTRA_BYTES XNNPACK may
/// read past the end.
std::vector<std::byte> input_of(const Tensor &data, const Problem &p) {
  Shape low(data.shape().size(), 0), high(data.shape().size(), 0);
  bool crops = false;
  for (int64_t i = 0; i < p.ndims; ++i) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(p.first_axis() + i)];
    low[static_cast<size_t>(2 + i)] = std::min<int64_t>(axis.pad_begin, 0);
    high[static_cast<size_t>(2 + i)] = std::min<int64_t>(axis.pad_end, 0);
    crops = crops || axis.pad_begin < 0 || axis.pad_end < 0;
  }
  const Tensor nhwc = crops ? to_data_layout(ops::pad(data, low, high), DataLayout::nxc) : to_data_layout(data, DataLayout::nxc);
  std::vector<std::byte> input(nhwc.byte_size() + XNN_EXTRA_BYTES);
  std::memcpy(input.data(), nhwc.bytes(), nhwc.byte_size());
  return input;
}

/// Cropped input extent of an axis: what XNNPACK is told the input is.
int64_t cropped(const SpatialAxis &axis) {
  return axis.in + std::min<int64_t>(axis.pad_begin, 0) + std::min<int64_t>(axis.pad_end, 0);
}

uint32_t padding(int64_t pad) { return static_cast<uint32_t>(std::max<int64_t>(pad, 0)); }

/// XNNPACK's status creating an operator of `p`'s geometry in `dtype` (f32, or f16: the same arguments, f16 bits)
/// with `weight` (OHWI in that format).
xnn_status create(const Problem &p, DType dtype, const void *weight, Operator &conv) {
  const SpatialAxis &h = p.height(), &w = p.width();
  constexpr float unbounded = std::numeric_limits<float>::infinity();
  const auto call = [&](auto function, auto kernel) {
    return function(padding(h.pad_begin), padding(w.pad_end), padding(h.pad_end), padding(w.pad_begin),
                    static_cast<uint32_t>(h.kernel), static_cast<uint32_t>(w.kernel), static_cast<uint32_t>(h.stride),
                    static_cast<uint32_t>(w.stride), static_cast<uint32_t>(h.dilation),
                    static_cast<uint32_t>(w.dilation), static_cast<uint32_t>(p.groups),
                    static_cast<size_t>(p.in_channels_per_group()), static_cast<size_t>(p.out_channels_per_group()),
                    static_cast<size_t>(p.in_channels), static_cast<size_t>(p.out_channels), kernel, /*bias=*/nullptr,
                    -unbounded, unbounded, /*flags=*/0, &conv.op);
  };
  if (dtype == DType::float16) return call(&xnn_create_convolution2d_nhwc_f16, weight);
  return call(&xnn_create_convolution2d_nhwc_f32, static_cast<const float *>(weight));
}

/// Sets the operator up on `input` and `output` (bytes of its format).
xnn_status setup(const Problem &p, DType dtype, Operator &conv, const void *input, void *output) {
  const auto batch = static_cast<size_t>(p.batch), height = static_cast<size_t>(cropped(p.height())),
             width = static_cast<size_t>(cropped(p.width()));
  if (dtype == DType::float16)
    return xnn_setup_convolution2d_nhwc_f16(conv.op, batch, height, width, input, output, /*threadpool=*/nullptr);
  return xnn_setup_convolution2d_nhwc_f32(conv.op, batch, height, width, static_cast<const float *>(input),
                                          static_cast<float *>(output), /*threadpool=*/nullptr);
}

/// Why this host's XNNPACK runs no f16 convolution ("" when it does): initialisation, then creating a 1x1 f16
/// operator, once per process. XNNPACK returns xnn_status_unsupported_hardware where it has no f16 kernels.
const std::string &f16_missing() {
  static const std::string reason = []() -> std::string {
    if (const xnn_status status = xnn_initialize(nullptr); status != xnn_status_success)
      return fmt::format("XNNPACK cannot initialise on this host (xnn_initialize returned {})", status_name(status));
    Problem probe;
    probe.in_channels = probe.out_channels = 1;
    const uint16_t one = 0x3c00; // 1.0 in f16
    Operator conv;
    const xnn_status status = create(probe, DType::float16, &one, conv);
    if (status == xnn_status_success) return "";
    return fmt::format("XNNPACK has no f16 convolution on this host (xnn_create_convolution2d_nhwc_f16 returned {})",
                       status_name(status));
  }();
  return reason;
}

Tensor forward(const Case &c) {
  initialize();
  const Problem &p = c.problem;
  const DType dtype = p.precision.src; // Support: f32, or f16 throughout
  const std::vector<std::byte> input = input_of(c[Role::data], p);
  const Tensor weight = to_weight_layout(c[Role::weight], WeightLayout::oxi);
  const bool f16 = dtype == DType::float16;
  Operator conv;
  check(create(p, dtype, weight.bytes(), conv), f16 ? "xnn_create_convolution2d_nhwc_f16" : "xnn_create_convolution2d_nhwc_f32");
  Tensor output = Tensor::uninitialized(p.precision.dst, data_shape_in(p.output_shape(), DataLayout::nxc));
  check(setup(p, dtype, conv, input.data(), output.bytes()),
        f16 ? "xnn_setup_convolution2d_nhwc_f16" : "xnn_setup_convolution2d_nhwc_f32");
  check(xnn_run_operator(conv.op, /*threadpool=*/nullptr), "xnn_run_operator");
  return from_data_layout(output, DataLayout::nxc);
}

/// Why a direction XNNPACK has no operator for is skipped.
std::string unsupported(const Problem &p, Direction direction) {
  if (direction != Direction::output)
    return fmt::format("XNNPACK has no {} operator: it is an inference library (forward convolution only)",
                       to_string(direction));
  if (p.precision.src == DType::float16) {
    if (!f16_missing().empty()) return f16_missing();
    if (!run_held_back())
      return "XNNPACK ae108ef's f16 convolution rounds its partial sums to f16 (measured: 2 exact products summing "
             "to -13846 gave -13840), not the float32 accumulation of f16:f16:f16:f32: held back (docs/findings.md)";
  }
  for (const SpatialAxis *axis : {&p.height(), &p.width()})
    if (cropped(*axis) < 1) // XNNPACK's setup refuses an empty input (input_width == 0 || input_height == 0)
      return fmt::format("the crops leave none of the input on an axis (size {}, padding {} and {}): XNNPACK takes "
                         "no empty input", axis->in, axis->pad_begin, axis->pad_end);
  return "";
}

/// Which kernel family XNNPACK ae108ef selects for the problem (see the comment at the top).
std::string implementation(const Case &c, Direction) {
  const Problem &p = c.problem;
  const SpatialAxis &h = p.height(), &w = p.width();
  const int64_t taps = h.kernel * w.kernel;
  const bool depthwise = p.in_channels_per_group() == 1 && p.out_channels_per_group() == 1;
  const bool unit_stride = h.stride == 1 && w.stride == 1;
  const bool padded = h.pad_begin > 0 || h.pad_end > 0 || w.pad_begin > 0 || w.pad_end > 0;
  const char *family = depthwise && taps == 1 && unit_stride && !padded              ? "vmulcaddc"
                       : depthwise && (taps == 3 || taps == 4 || taps == 9 || taps == 25) ? "dwconv"
                       : taps == 1 && unit_stride && !padded                          ? "gemm"
                                                                                      : "igemm";
  return fmt::format("XNNPACK {} {} (inferred from ae108ef's create_convolution2d_nhwc)",
                     c.problem.precision.src == DType::float16 ? "f16" : "f32", family);
}

const Registration registration{{
    .name = "xnnpack",
    .description = "XNNPACK (0.0~git20220216) NHWC f32 convolution operator: forward only (no gradient operators), "
                   "1-D as 2-D with unit height (no 3-D operator), four independent paddings, crops cut from the "
                   "input, groups, stride, dilation; one operator created per case; f16 (f16:f16:f16:f32) where the host has "
                   "XNNPACK's f16 kernels, else skipped with the reason, and held back where it has them (its f16 "
                   "kernels round partial sums to f16; --run-held-back runs them)",
    .supports = {.ops = {Op::conv}, .ranks = {1, 2}, .dtypes = {DType::float32},
                 .precisions = {{DType::float16, DType::float16, DType::float16, DType::float32}}, .crops = true},
    .unsupported = unsupported,
    .run = [](const Case &c, Direction) { return forward(c); },
    .warm_up = initialize,
    .implementation = implementation,
}};

} // namespace

} // namespace convcheck

#else // built without XNNPACK

namespace convcheck {
namespace {
const UnbuiltRegistration registration{{"xnnpack", "XNNPACK was not found when convcheck was configured (xnnpack.h and "
                                                   "libXNNPACK: install libxnnpack-dev and libpthreadpool-dev, "
                                                   "reconfigure)"}};
} // namespace
} // namespace convcheck

#endif
