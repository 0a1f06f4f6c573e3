// `xnnpack`: XNNPACK's NHWC convolution and deconvolution operators (Debian's libxnnpack 0.0~git20220216, upstream
// commit ae108ef), the inference kernels behind TensorFlow Lite and PyTorch Mobile. Forward only, 1-D and 2-D,
// float32, and float16 (f16:f16:f16:f32: xnn_create_convolution2d_nhwc_f16) where the host has XNNPACK's f16 kernels.
// A deconv goes through xnn_create_deconvolution2d_nhwc_* (deconv_forward says how its arguments map).
//
// One operator per case: xnn_create_convolution2d_nhwc_f32 (which packs the weights), xnn_setup_..., xnn_run_operator
// on the calling thread (no pthreadpool), xnn_delete_operator. With
//   paddings      top, right, bottom, left = max(pad, 0) of each end (XNNPACK takes four independent paddings);
//                 crops (negative padding) cut from the input first (oracles/loops/tensor_ops.hpp, pad)
//   subsampling   the stride; dilation as is (1 means none in both)
//   groups        groups, group_input_channels C/G, group_output_channels K/G; channel strides C and K
//   kernel        [groups][K/G][kh][kw][C/G]: the canonical weight in OHWI (to_weight_layout(oxi)), since output
//                 channel k is group k / (K/G) in both
//   bias          none (XNNPACK's packing zero-fills it); output range -inf..+inf, which selects XNNPACK's linear
//                 (unclamped) kernels where it has them
// 1-D problems are 2-D ones with a unit height, as convcheck holds them. XNNPACK has no 3-D convolution operator and
// no gradient operators (it is an inference library), so those are skipped. Its f16 operator runs, on x86, kernels for
// AVX2 CPUs (F16C conversions), which round the partial sums to f16 by design, after every FMA, to compute as ARM's
// native f16 does (docs/findings.md): so its results are judged as `direct:storage` (core/numerics/algorithm.hpp),
// under the bound of a sum kept in f16, not f16:f16:f16:f32's float32 one (under which every case with a few terms
// failed); a sum too long for f16 to bound (over 1,022 terms) is skipped with that reason. Its f32 results are
// direct, as that class is for a float32 result. Where XNNPACK has no f16 kernels (its create call returns
// xnn_status_unsupported_hardware, asked once per process on a small probe operator), an f16 case is skipped with
// that reason.
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

#include <algorithm>
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

#include "core/tensor/layout.hpp"
#include "oracles/loops/tensor_ops.hpp"
#include "oracles/xnnpack/deconv_shape.hpp"

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

/// XNNPACK's status creating an operator of `p`'s geometry and `kernel` with `create_function`: its convolution and
/// deconvolution create functions take the same arguments (a deconv's four paddings are what it cuts from its output,
/// its channels the deconv's own), f32 and f16 alike (f16 bits behind a void pointer).
template <class CreateFunction, class Kernel>
xnn_status create_operator(CreateFunction create_function, const Problem &p, Kernel kernel, Operator &op) {
  const SpatialAxis &h = p.height(), &w = p.width();
  constexpr float unbounded = std::numeric_limits<float>::infinity();
  return create_function(padding(h.pad_begin), padding(w.pad_end), padding(h.pad_end), padding(w.pad_begin),
                         static_cast<uint32_t>(h.kernel), static_cast<uint32_t>(w.kernel),
                         static_cast<uint32_t>(h.stride), static_cast<uint32_t>(w.stride),
                         static_cast<uint32_t>(h.dilation), static_cast<uint32_t>(w.dilation),
                         static_cast<uint32_t>(p.groups), static_cast<size_t>(p.in_channels_per_group()),
                         static_cast<size_t>(p.out_channels_per_group()), static_cast<size_t>(p.in_channels),
                         static_cast<size_t>(p.out_channels), kernel, /*bias=*/nullptr, -unbounded, unbounded,
                         /*flags=*/0, &op.op);
}

/// XNNPACK's status creating a convolution operator of `p`'s geometry in `dtype` (f32, or f16: the same arguments,
/// f16 bits) with `weight` (OHWI in that format).
xnn_status create(const Problem &p, DType dtype, const void *weight, Operator &conv) {
  if (dtype == DType::float16) return create_operator(&xnn_create_convolution2d_nhwc_f16, p, weight, conv);
  return create_operator(&xnn_create_convolution2d_nhwc_f32, p, static_cast<const float *>(weight), conv);
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

/// A deconv's weight [C_in, C_out/G, kh, kw] (IOHW per group) as XNNPACK's deconvolution kernel
/// [G][C_out/G][kh][kw][C_in/G] ("goki", pack_deconv_goki_w): output channel before the kernel, input channel last.
Tensor deconv_kernel(const Tensor &weight, const Problem &p) {
  const int64_t groups = p.groups, in_per_group = p.in_channels_per_group(), out_per_group = p.out_channels_per_group();
  const int64_t taps = p.height().kernel * p.width().kernel;
  Tensor kernel = Tensor::uninitialized(weight.dtype(), {groups, out_per_group, taps, in_per_group});
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t o = 0; o < out_per_group; ++o)
      for (int64_t t = 0; t < taps; ++t)
        for (int64_t i = 0; i < in_per_group; ++i)
          kernel.set(((g * out_per_group + o) * taps + t) * in_per_group + i,
                     weight.get(((g * in_per_group + i) * out_per_group + o) * taps + t));
  return kernel;
}

/// A deconv through xnn_create_deconvolution2d_nhwc_{f32,f16}: its paddings are what XNNPACK calls output padding
/// (rows cut from the full output), its output_padding XNNPACK's adjustment (rows added at the end, below the stride);
/// out = stride * (in - 1) + adjustment + dilation * (kernel - 1) + 1 - padding_top - padding_bottom, the deconv's
/// formula. Negative padding (an extended output) is zeros no tap reaches, added after.
Tensor deconv_forward(const Case &c) {
  initialize();
  const Problem &p = c.problem;
  const SpatialAxis &h = p.height(), &w = p.width();
  const bool f16 = p.precision.src == DType::float16;
  const Tensor nhwc = to_data_layout(c[Role::data], DataLayout::nxc);
  std::vector<std::byte> input(nhwc.byte_size() + XNN_EXTRA_BYTES);
  std::memcpy(input.data(), nhwc.bytes(), nhwc.byte_size());
  const Tensor kernel = deconv_kernel(c[Role::weight], p);
  Operator deconv;
  if (f16)
    check(create_operator(&xnn_create_deconvolution2d_nhwc_f16, p, kernel.bytes(), deconv),
          "xnn_create_deconvolution2d_nhwc_f16");
  else
    check(create_operator(&xnn_create_deconvolution2d_nhwc_f32, p, static_cast<const float *>(kernel.bytes()), deconv),
          "xnn_create_deconvolution2d_nhwc_f32");
  Shape shape = p.output_shape(), low(shape.size(), 0), high(shape.size(), 0);
  for (int64_t i = 0; i < p.ndims; ++i) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(p.first_axis() + i)];
    low[static_cast<size_t>(2 + i)] = std::max<int64_t>(-axis.pad_begin, 0);
    high[static_cast<size_t>(2 + i)] = std::max<int64_t>(-axis.pad_end, 0);
    shape[static_cast<size_t>(2 + i)] -= low[static_cast<size_t>(2 + i)] + high[static_cast<size_t>(2 + i)];
  }
  Tensor output = Tensor::uninitialized(p.precision.dst, data_shape_in(shape, DataLayout::nxc));
  const auto batch = static_cast<size_t>(p.batch), height = static_cast<size_t>(h.in), width = static_cast<size_t>(w.in);
  const auto adjust_h = static_cast<uint32_t>(h.output_padding), adjust_w = static_cast<uint32_t>(w.output_padding);
  if (f16)
    check(xnn_setup_deconvolution2d_nhwc_f16(deconv.op, batch, height, width, adjust_h, adjust_w, input.data(),
                                             output.bytes(), /*threadpool=*/nullptr),
          "xnn_setup_deconvolution2d_nhwc_f16");
  else
    check(xnn_setup_deconvolution2d_nhwc_f32(deconv.op, batch, height, width, adjust_h, adjust_w,
                                             reinterpret_cast<const float *>(input.data()),
                                             static_cast<float *>(output.bytes()), /*threadpool=*/nullptr),
          "xnn_setup_deconvolution2d_nhwc_f32");
  check(xnn_run_operator(deconv.op, /*threadpool=*/nullptr), "xnn_run_operator");
  Tensor result = from_data_layout(output, DataLayout::nxc);
  const bool extended = std::any_of(low.begin(), low.end(), [](int64_t n) { return n > 0; }) ||
                        std::any_of(high.begin(), high.end(), [](int64_t n) { return n > 0; });
  if (extended) return ops::pad(result, low, high);
  return result;
}

Tensor forward(const Case &c) {
  if (c.problem.op == Op::deconv) return deconv_forward(c);
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

/// Why a deconv XNNPACK cannot take, or gets wrong, is skipped ("" when it runs).
///
/// Its subconv2d path's crash on short outputs is a known bug, held back by the row in known_bugs.cpp.
std::string deconv_unsupported(const Problem &p) {
  for (const SpatialAxis *axis : {&p.height(), &p.width()}) {
    if (axis->output_padding >= axis->stride) // xnn_setup_deconvolution2d_nhwc_*: adjustment >= stride is refused
      return fmt::format("XNNPACK's adjustment (output_padding) must be below the stride: output_padding {}, stride {}",
                         axis->output_padding, axis->stride);
    if (deconv_output(*axis) < 1) // XNNPACK PR 11158 (2026) added the check this XNNPACK lacks
      return fmt::format("the padding leaves XNNPACK none of its output on an axis (size {}, padding {} and {}, the "
                         "rest an extension): XNNPACK ae108ef computes no empty deconvolution output (it dies of "
                         "SIGFPE; XNNPACK PR 11158)",
                         axis->in, axis->pad_begin, axis->pad_end);
  }
  return "";
}

/// Why a direction XNNPACK has no operator for is skipped.
std::string unsupported(const Problem &p, Direction direction) {
  const bool deconv = p.op == Op::deconv;
  if (direction != Direction::output)
    return fmt::format("XNNPACK has no {}{} operator: it is an inference library (forward {} only)",
                       deconv ? "deconv " : "", to_string(direction), deconv ? "deconvolution" : "convolution");
  if (deconv)
    if (std::string refused = deconv_unsupported(p); !refused.empty()) return refused;
  if (p.precision.src == DType::float16 && !f16_missing().empty()) return f16_missing();
  for (const SpatialAxis *axis : {&p.height(), &p.width()})
    if (!deconv && cropped(*axis) < 1) // XNNPACK's setup refuses an empty input (input_width == 0 || input_height == 0)
      return fmt::format("the crops leave none of the input on an axis (size {}, padding {} and {}): XNNPACK takes "
                         "no empty input", axis->in, axis->pad_begin, axis->pad_end);
  return "";
}

/// Which kernel family XNNPACK ae108ef selects for the problem (see the comment at the top).
std::string implementation(const Case &c, Direction) {
  const Problem &p = c.problem;
  const SpatialAxis &h = p.height(), &w = p.width();
  if (p.op == Op::deconv)
    return fmt::format("XNNPACK {} deconvolution {} (inferred from ae108ef's create_deconvolution2d_nhwc)",
                       p.precision.src == DType::float16 ? "f16" : "f32", subconv2d(p) ? "subconv2d" : "igemm");
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
    .description = "XNNPACK (0.0~git20220216) NHWC f32 convolution and deconvolution operators (a deconv's "
                   "output_padding is XNNPACK's adjustment, below the stride): forward only (no gradient operators), "
                   "1-D as 2-D with unit height (no 3-D operator), four independent paddings, crops cut from the "
                   "input, groups, stride, dilation; one operator created per case; f16 (f16:f16:f16:f32) where the "
                   "host has XNNPACK's f16 kernels, else skipped with the reason, judged as direct:storage (its f16 "
                   "kernels round partial sums to f16)",
    .algorithm = {AlgorithmKind::direct, 0, {}, true},
    .supports = {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2}, .dtypes = {DType::float32},
                 .precisions = {{DType::float16, DType::float16, DType::float16, DType::float32}},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
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
