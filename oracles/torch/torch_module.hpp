#pragma once
// What crosses between the torch strategies (oracles/torch/torch.cpp, in convcheck) and the module that calls ATen
// (oracles/torch/module/torch_aten.cpp, a shared library of its own, loaded with dlopen the first time a torch strategy
// runs). libtorch 1.13 brings about 290 shared libraries whose loading and static initialisers took 0.5 s on a quiet
// machine and 2.3-2.7 s on a busy one, and 160 MB, before main (docs/performance.md): linked into convcheck, every
// command would pay that at start-up, torch selected or not. The module links libtorch and nothing of convcheck, so only plain data crosses.

#include <cstddef>
#include <cstdint>

namespace convcheck::torch_module {

/// One convolution or transposed convolution (deconv) for ATen. Tensors have rank 2 + ndims (only the problem's own
/// spatial axes) and are held in the canonical layouts: data [N, C, spatial...], weight [K, C/G, kernel...] (a
/// deconv's [C, K/G, kernel...], ATen's transposed weight), output [N, K, out...].
/// The storage format of every tensor of a Conv (ATen computes one format at a time); the order of convcheck's DType.
enum class Format : int32_t { float32, float64, bfloat16, float16 };

struct Conv {
  int64_t ndims = 2;
  Format format = Format::float32;
  bool channels_last = false;        ///< data and grad_output reach ATen in channels-last memory format
  bool weight_channels_last = false; ///< the weight reaches ATen in channels-last memory format (OHWI)
  bool mkldnn = true;                ///< false: ATen's mkldnn (oneDNN) backend is switched off for the call
  bool transposed = false;           ///< a deconv: at::convolution with transposed = true and output_padding
  int64_t batch = 1, groups = 1, in_channels = 1, out_channels = 1;
  /// Per spatial axis of the problem, outer first; padding may be negative (a crop).
  int64_t in[3]{}, kernel[3]{}, stride[3]{}, dilation[3]{}, pad_begin[3]{}, pad_end[3]{};
  int64_t output_padding[3]{}; ///< a deconv's extra output at the end of each axis (0 <= it < max(stride, dilation))
  const void *data = nullptr, *weight = nullptr, *grad_output = nullptr;
};

/// Where the results go (canonical layout, allocated by the caller; null: not wanted) and what happened.
struct Results {
  void *output = nullptr, *grad_data = nullptr, *grad_weight = nullptr;
  char forward_error[512]{};  ///< "" when at::convolution returned
  char backward_error[512]{}; ///< "" when at::convolution_backward returned
};

/// The module's entry points, looked up by these names (extern "C", so unmangled).
inline constexpr const char *run_symbol = "convcheck_torch_run";
inline constexpr const char *backend_symbol = "convcheck_torch_backend";
inline constexpr const char *capability_symbol = "convcheck_torch_capability";
inline constexpr const char *version_symbol = "convcheck_torch_version";
/// Computes what `results` asks for.
using RunFunction = void (*)(const Conv &conv, Results &results);
/// Writes ATen's choice of backend for `conv` ("Mkldnn", "Slow2d", ...) into `name`, or "none: why".
using BackendFunction = void (*)(const Conv &conv, char *name, size_t size);
/// Writes ATen's CPU capability in this process ("default", "avx2", "avx512") into `name`.
using CapabilityFunction = void (*)(char *name, size_t size);
/// Writes the libtorch version and its bundled oneDNN's into `text`: "2.15.0 (oneDNN 3.13.3)".
using VersionFunction = void (*)(char *text, size_t size);

} // namespace convcheck::torch_module
