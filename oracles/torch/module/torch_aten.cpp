// The ATen side of the torch strategies (oracles/torch/torch.cpp): a shared module linking libtorch 2.15 and nothing of
// convcheck (oracles/torch/torch_module.hpp says why), loaded on first use.
//
// What ATen is asked, per direction, with no bias and no autograd (c10::InferenceMode):
//   output      at::convolution(data, weight, {}, stride, padding, dilation, transposed=false, output_padding=0, groups)
//   grad_data   at::convolution_backward(grad_output, data, weight, {}, ..., output_mask={true, true, false})[0]
//   grad_weight                                                                                   ...[1]
// These are the ops torch.nn.functional.conv*d and its autograd formula call; ATen then picks a CPU backend
// (at::native::select_conv_backend, aten/src/ATen/native/Convolution.cpp): Mkldnn (oneDNN through ideep) for most
// float32 problems, else Slow2d / SlowDilated2d / Slow3d / SlowDilated3d (im2col / vol2col and BLAS), 1-D problems
// as 2-D with a unit height. A deconv (Conv::transposed) calls the same two functions with transposed = true and
// its output_padding, the weight being ATen's transposed one, [C_in, C_out/G, kernel...] (the deconv's canonical
// IOHW per group); ATen routes it to Mkldnn or SlowTranspose2d / SlowTranspose3d.
//
// Padding: ATen takes one padding per axis, the same at both ends, and refuses negative padding ("negative padding
// is not supported"). Each axis gets ATen padding p = min(max(pad_begin, 0), max(pad_end, 0)); the rest goes to
// at::constant_pad_nd on the input first, as a PyTorch user writes F.pad before the conv: the positive rest
// (one-sided padding) in one call, then the crops (negative padding) in a second one, which also covers a crop
// reaching past the input into the padding of the other end. Gradients come back through the same two calls with
// the amounts negated, in reverse order (zero-filling what was cropped, then slicing off the added zeros).
// A deconv's padding removes output rather than adding input: out = (in - 1) * stride - pad_begin - pad_end +
// dilation * (kernel - 1) + output_padding + 1, so ATen is called with the same p and the rest is taken off ATen's
// output, (p - pad_begin) at the beginning and (p - pad_end) at the end: a slice where the deconv pads more than p,
// zeros where it pads negatively (an extended output no tap reaches), again zeros first, then slices. Its grad_output
// goes back through the same two calls with the amounts negated before at::convolution_backward; grad_data is the
// deconv input's, which nothing padded.
//
// Layouts: channels-last data (NWC, NHWC, NDHWC) reaches ATen as a channels-last tensor (memory format ChannelsLast,
// ChannelsLast3d, or NWC strides for 1-D, which ATen's 1-D-as-2-D view turns into ChannelsLast), and so does
// grad_output; ATen's weights are OIHW whatever their memory format, so an OHWI weight is a channels-last weight
// (which alone sends the mkldnn backend down its channels-last path) and an HWIO one, which ATen has no memory
// format for, is handed over as OIHW.
//
// Threads: the module sets ATen's intra-op threads to 1 when it is loaded. convcheck loads it in the campaign's
// process before forking workers (Strategy::warm_up), so every worker inherits one thread per ATen op; with its
// OpenMP backend ATen then never opens a parallel region (at::parallel_for runs inline when get_num_threads() is 1),
// so no OpenMP team exists at fork time.

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/ConvUtils.h>
#include <ATen/ops/_nnpack_available.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/convolution.h>
#include <ATen/ops/convolution_backward.h>
#include <ATen/ops/from_blob.h>
#include <c10/core/InferenceMode.h>
#include <torch/headeronly/version.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "oracles/torch/torch_module.hpp"

namespace {

using convcheck::torch_module::Conv;
using convcheck::torch_module::Results;

[[maybe_unused]] const bool single_threaded = [] {
  at::set_num_threads(1);
  return true;
}();

// NNPACK cannot initialize in convcheck's process (libtorch's cpuinfo references bind to Debian's copy, torch.cpp),
// and ATen then warns "Could not initialize NNPACK! Reason: Unsupported hardware." on every convolution that asks
// for it: about 300,000 lines in the first 11 minutes of a one-worker torch_native campaign. Asked once here (one
// warning per process), and where it is unavailable switched off, which changes no backend ATen selects: it takes
// NNPACK only when available.
[[maybe_unused]] const bool nnpack_asked_once = [] {
  if (!at::_nnpack_available()) at::globalContext().setUserEnabledNNPACK(false);
  return true;
}();

/// While alive, ATen's mkldnn backend is on or off as asked (it is a process-wide switch, torch.backends.mkldnn).
class MkldnnSwitch {
public:
  explicit MkldnnSwitch(bool enabled) : previous_(at::globalContext().userEnabledMkldnn()) {
    at::globalContext().setUserEnabledMkldnn(enabled);
  }
  ~MkldnnSwitch() { at::globalContext().setUserEnabledMkldnn(previous_); }
  MkldnnSwitch(const MkldnnSwitch &) = delete;
  MkldnnSwitch &operator=(const MkldnnSwitch &) = delete;

private:
  bool previous_;
};

using Dims = std::vector<int64_t>;

/// The geometry ATen is called with, after the input went through constant_pad_nd (a conv) or before its output goes
/// through it (a deconv).
struct Geometry {
  Dims data, weight, output, stride, padding, dilation, output_padding;
  Dims result; ///< the output the case asks for: ATen's output, or a deconv's after constant_pad_nd
  /// constant_pad_nd's amounts (innermost axis first, begin and end per axis): one-sided padding, then crops; for a
  /// conv on its input, for a deconv on ATen's output.
  Dims pads, crops;
};

bool any_nonzero(const Dims &amounts) {
  return std::any_of(amounts.begin(), amounts.end(), [](int64_t amount) { return amount != 0; });
}

Dims negated(Dims amounts) {
  for (int64_t &amount : amounts) amount = -amount;
  return amounts;
}

/// `tensor` through constant_pad_nd's amounts: the padding first, then the crops (so a crop may reach past the
/// tensor into what was added at the other end).
at::Tensor padded(at::Tensor tensor, const Geometry &g) {
  if (any_nonzero(g.pads)) tensor = at::constant_pad_nd(tensor, g.pads);
  if (any_nonzero(g.crops)) tensor = at::constant_pad_nd(tensor, g.crops);
  return tensor;
}

/// The reverse of `padded`, for a gradient.
at::Tensor unpadded(at::Tensor tensor, const Geometry &g) {
  if (any_nonzero(g.crops)) tensor = at::constant_pad_nd(tensor, negated(g.crops));
  if (any_nonzero(g.pads)) tensor = at::constant_pad_nd(tensor, negated(g.pads));
  return tensor;
}

Geometry geometry_of(const Conv &c) {
  Geometry g;
  g.data = {c.batch, c.in_channels};
  g.weight = c.transposed ? Dims{c.in_channels, c.out_channels / c.groups} : Dims{c.out_channels, c.in_channels / c.groups};
  g.output = {c.batch, c.out_channels};
  g.result = g.output;
  for (int64_t axis = 0; axis < c.ndims; ++axis) {
    const int64_t extent = c.dilation[axis] * (c.kernel[axis] - 1) + 1;
    const int64_t padding = std::min(std::max<int64_t>(c.pad_begin[axis], 0), std::max<int64_t>(c.pad_end[axis], 0));
    const int64_t output_padding = c.transposed ? c.output_padding[axis] : 0;
    g.data.push_back(c.in[axis]);
    g.weight.push_back(c.kernel[axis]);
    g.output.push_back(c.transposed
                           ? (c.in[axis] - 1) * c.stride[axis] - 2 * padding + extent - 1 + output_padding + 1
                           : (c.in[axis] + c.pad_begin[axis] + c.pad_end[axis] - extent) / c.stride[axis] + 1);
    g.result.push_back(c.transposed ? (c.in[axis] - 1) * c.stride[axis] - c.pad_begin[axis] - c.pad_end[axis] +
                                          extent - 1 + output_padding + 1
                                    : g.output.back());
    g.stride.push_back(c.stride[axis]);
    g.padding.push_back(padding);
    g.dilation.push_back(c.dilation[axis]);
    g.output_padding.push_back(output_padding);
  }
  for (int64_t axis = c.ndims - 1; axis >= 0; --axis) {
    const int64_t padding = g.padding[static_cast<size_t>(axis)];
    for (int64_t amount : {c.pad_begin[axis], c.pad_end[axis]}) {
      // What constant_pad_nd adds: to a conv's input pad - p, to a deconv's ATen output p - pad.
      const int64_t added = c.transposed ? padding - amount : amount - padding;
      g.pads.push_back(std::max<int64_t>(added, 0));
      g.crops.push_back(std::min<int64_t>(added, 0));
    }
  }
  return g;
}

/// `tensor` (contiguous, canonical) with the strides of the layout the case asks for.
at::Tensor in_layout(const at::Tensor &tensor, bool channels_last) {
  if (!channels_last) return tensor;
  switch (tensor.dim()) {
  case 4: return tensor.contiguous(at::MemoryFormat::ChannelsLast);
  case 5: return tensor.contiguous(at::MemoryFormat::ChannelsLast3d);
  default: return tensor.permute({0, 2, 1}).contiguous().permute({0, 2, 1}); // NWC / OWI strides
  }
}

at::ScalarType scalar_type(convcheck::torch_module::Format format) {
  using convcheck::torch_module::Format;
  switch (format) {
  case Format::float64: return at::kDouble;
  case Format::bfloat16: return at::kBFloat16; // the same bits as convcheck's bfloat16 (the top half of a float)
  case Format::float16: return at::kHalf;      // IEEE binary16, as convcheck's float16
  case Format::float32: break;
  }
  return at::kFloat;
}

at::Tensor wrap(const void *buffer, const Dims &shape, convcheck::torch_module::Format format) {
  return at::from_blob(const_cast<void *>(buffer), shape, at::TensorOptions().dtype(scalar_type(format)));
}

/// The tensors ATen is called with.
struct Inputs {
  Geometry geometry;
  at::Tensor data, weight, grad_output;
};

Inputs inputs_of(const Conv &c) {
  Inputs in{geometry_of(c), {}, {}, {}};
  const Geometry &g = in.geometry;
  in.data = wrap(c.data, g.data, c.format);
  if (!c.transposed) in.data = padded(in.data, g);
  in.data = in_layout(in.data.contiguous(), c.channels_last);
  in.weight = in_layout(wrap(c.weight, g.weight, c.format), c.weight_channels_last);
  if (c.grad_output != nullptr) {
    in.grad_output = wrap(c.grad_output, g.result, c.format);
    if (c.transposed) in.grad_output = unpadded(in.grad_output, g);
    in.grad_output = in_layout(in.grad_output.contiguous(), c.channels_last);
  }
  return in;
}

/// Copies ATen's `result` into the caller's buffer of `shape`; throws where ATen returned another shape (copy_
/// would broadcast it and hide that).
void copy_result(void *buffer, const Dims &shape, convcheck::torch_module::Format format, const at::Tensor &result) {
  if (result.sizes() != at::IntArrayRef(shape)) {
    std::ostringstream message;
    message << "returned a tensor of shape " << result.sizes() << ", not " << at::IntArrayRef(shape);
    throw std::runtime_error(message.str());
  }
  wrap(buffer, shape, format).copy_(result);
}

void copy_message(const std::exception &error, char *out, size_t size) {
  const auto *c10_error = dynamic_cast<const c10::Error *>(&error);
  const std::string text = c10_error != nullptr ? c10_error->what_without_backtrace() : error.what();
  std::snprintf(out, size, "%s", text.substr(0, text.find('\n')).c_str());
}

const char *backend_name(at::native::ConvBackend backend) {
  using at::native::ConvBackend;
  switch (backend) {
  case ConvBackend::CudaDepthwise2d: return "CudaDepthwise2d";
  case ConvBackend::CudaDepthwise3d: return "CudaDepthwise3d";
  case ConvBackend::Cudnn: return "Cudnn";
  case ConvBackend::CudnnTranspose: return "CudnnTranspose";
  case ConvBackend::Empty: return "Empty";
  case ConvBackend::Miopen: return "Miopen";
  case ConvBackend::MiopenDepthwise: return "MiopenDepthwise";
  case ConvBackend::MiopenTranspose: return "MiopenTranspose";
  case ConvBackend::Mkldnn: return "Mkldnn";
  case ConvBackend::MkldnnTranspose: return "MkldnnTranspose"; // oneDNN's deconvolution
  case ConvBackend::MkldnnEmpty: return "MkldnnEmpty";
  case ConvBackend::NnpackSpatial: return "NnpackSpatial";
  case ConvBackend::Overrideable: return "Overrideable";
  case ConvBackend::Slow2d: return "Slow2d";
  case ConvBackend::Slow3d: return "Slow3d";
  case ConvBackend::SlowDilated2d: return "SlowDilated2d";
  case ConvBackend::SlowDilated3d: return "SlowDilated3d";
  case ConvBackend::SlowTranspose2d: return "SlowTranspose2d";
  case ConvBackend::SlowTranspose3d: return "SlowTranspose3d";
  case ConvBackend::Winograd3x3Depthwise: return "Winograd3x3Depthwise";
  case ConvBackend::Xnnpack2d: return "Xnnpack2d";
  case ConvBackend::Mps: return "Mps";
  case ConvBackend::MpsTranspose: return "MpsTranspose";
  }
  return "unknown";
}

} // namespace

extern "C" void convcheck_torch_run(const Conv &c, Results &results) {
  const c10::InferenceMode no_autograd;
  const MkldnnSwitch mkldnn(c.mkldnn);
  Inputs in;
  try {
    in = inputs_of(c);
  } catch (const std::exception &error) {
    copy_message(error, results.forward_error, sizeof results.forward_error);
    copy_message(error, results.backward_error, sizeof results.backward_error);
    return;
  }
  const Geometry &g = in.geometry;
  if (results.output != nullptr) try {
      const at::Tensor output = at::convolution(in.data, in.weight, c10::nullopt, g.stride, g.padding, g.dilation,
                                                c.transposed, g.output_padding, c.groups);
      copy_result(results.output, g.result, c.format, c.transposed ? padded(output, g) : output);
    } catch (const std::exception &error) {
      copy_message(error, results.forward_error, sizeof results.forward_error);
    }
  if (results.grad_data == nullptr && results.grad_weight == nullptr) return;
  try {
    const auto [grad_input, grad_weight, grad_bias] = at::convolution_backward(
        in.grad_output, in.data, in.weight, c10::nullopt, g.stride, g.padding, g.dilation, c.transposed,
        g.output_padding, c.groups, {results.grad_data != nullptr, results.grad_weight != nullptr, false});
    if (results.grad_data != nullptr)
      copy_result(results.grad_data, g.data, c.format, c.transposed ? grad_input : unpadded(grad_input, g));
    if (results.grad_weight != nullptr) copy_result(results.grad_weight, g.weight, c.format, grad_weight);
  } catch (const std::exception &error) {
    copy_message(error, results.backward_error, sizeof results.backward_error);
  }
}

// at::native::select_conv_backend's public overload (ConvUtils.h) is the selection at::convolution makes, 1-D
// problems viewed as 2-D included; convolution_backward selects with need_backward = true, which on the CPU changes
// only whether Xnnpack2d may be taken, and that only in mobile builds. So one name holds for all three directions.
extern "C" void convcheck_torch_backend(const Conv &c, char *name, size_t size) {
  try {
    const c10::InferenceMode no_autograd;
    const MkldnnSwitch mkldnn(c.mkldnn);
    const Inputs in = inputs_of(c);
    const Geometry &g = in.geometry;
    // symbolic sizes, and the bias's sizes last
    const at::native::ConvBackend backend = at::native::select_conv_backend(
        in.data, in.weight, std::nullopt, c10::fromIntArrayRefSlow(g.stride), c10::fromIntArrayRefSlow(g.padding),
        c10::fromIntArrayRefSlow(g.dilation), c.transposed, c10::fromIntArrayRefSlow(g.output_padding),
        c10::SymInt(c.groups), std::nullopt);
    std::snprintf(name, size, "%s", backend_name(backend));
  } catch (const std::exception &error) {
    char message[400];
    copy_message(error, message, sizeof message);
    std::snprintf(name, size, "none: %s", message);
  }
}

/// ATen's CPU capability in this process ("default", "avx2", "avx512"; ATEN_CPU_CAPABILITY's spelling), fixed at its
/// first dispatch: at::get_cpu_capability says "DEFAULT", "AVX2", "AVX512".
extern "C" void convcheck_torch_capability(char *name, size_t size) {
  const std::string usage = at::get_cpu_capability();
  std::snprintf(name, size, "%s", usage == "AVX512" ? "avx512" : usage == "AVX2" ? "avx2"
                                  : usage == "DEFAULT" ? "default" : "unknown");
}

/// The libtorch this module runs on and the oneDNN its Mkldnn backend bundles, as the library says them at run time:
/// "2.15.0 (oneDNN 3.13.3)". at::get_mkldnn_version says "Intel(R) MKL-DNN v3.13.3 (Git Hash ...)".
extern "C" void convcheck_torch_version(char *text, size_t size) {
  const std::string onednn = at::get_mkldnn_version(), label = "MKL-DNN v";
  const size_t begin = onednn.find(label);
  const std::string onednn_version =
      begin == std::string::npos ? "unknown"
                                 : onednn.substr(begin + label.size(), onednn.find(' ', begin + label.size()) - begin - label.size());
  std::snprintf(text, size, "%s (oneDNN %s)", TORCH_VERSION, onednn_version.c_str());
}
