// `torch` and `torch_native`: PyTorch's ATen (libtorch 2.15 from venvs/torch, CMakeLists.txt) in process, convs and
// deconvs (transposed = true with the output padding: ATen's SlowTranspose2d / SlowTranspose3d for float32 and float64,
// MkldnnTranspose for bf16 where oneDNN has bf16), every direction, every rank, float32, float64, and bf16 and f16
// storage with every tensor in that format (ATen's CPU convolutions have no mixed formats; a kernel ATen has no case
// for a format is skipped with ATen's message), in the case's layouts, crops included.
// `torch` lets ATen pick its backend as it does for any PyTorch user (Mkldnn, that is oneDNN through ideep, for most
// float32 problems); `torch_native` switches the mkldnn backend off for the call (torch.backends.mkldnn.enabled =
// False), so ATen's own im2col / vol2col and BLAS paths (Slow2d, SlowDilated2d, Slow3d, SlowDilated3d) are under test
// too. What ATen is called with, and how padding, crops, layouts and threads are handled, is in the module that calls
// it, oracles/torch/module/torch_aten.cpp; this file declares the strategies and loads that module on first use
// (oracles/torch/torch_module.hpp says why it is a module of its own).
//
// Both are off by default (Strategy::in_default_set): ATen's per-op overhead makes a case cost several times what all
// default strategies together cost (docs/performance.md, "libtorch and XNNPACK"); `--strategies all` or naming them
// runs them.

#include "core/run/known_bug.hpp"
#include "core/run/strategy.hpp"

#ifdef CONVCHECK_TORCH_MODULE

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/numerics/fill.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/precision_table.hpp"
#include "oracles/torch/aten_capability.hpp"
#include "oracles/torch/capability_server.hpp"
#include "oracles/torch/torch_module.hpp"

namespace convcheck {

namespace {

/// The module's entry points, or why there are none.
struct Module {
  torch_module::RunFunction run = nullptr;
  torch_module::BackendFunction backend = nullptr;
  torch_module::CapabilityFunction capability = nullptr;
  torch_module::VersionFunction version = nullptr;
  std::string error;
};

/// Loads the module once per process (thread-safe). The campaign does it in its warm-up, before forking workers,
/// so that they inherit libtorch loaded and initialised instead of each paying seconds for it.
///
/// libc10.so exports the cpuinfo it bundles (2026) and libtorch_cpu.so imports cpuinfo_isa and cpuinfo_initialize from
/// it, but in convcheck's process those references bind to Debian's libcpuinfo.so.0 (2022), which XNNPACK brought in
/// first (LD_DEBUG=bindings shows it; RTLD_LOCAL does not change where a library's own references bind), and ATen
/// reads a cpuinfo_isa of another layout: on an AVX-512 host it chose its DEFAULT capability, and NNPACK says
/// "Unsupported hardware" (docs/libraries/torch.md). Two ways out failed: RTLD_DEEPBIND binds libtorch's malloc to
/// glibc's while convcheck frees with tcmalloc ("free(): invalid pointer"), and a link-map namespace of its own
/// (dlmopen) gives libtorch a second libc whose pthread keys collide with the first one's (gtest's thread-local
/// crashed). So ATen's own choice of capability is made here, by its rule (aten_capability.cpp: the best the host
/// runs), and handed to it as ATEN_CPU_CAPABILITY when the process has none; NNPACK stays unreachable.
const Module &module() {
  static const Module loaded = [] {
    Module m;
    if (std::getenv("ATEN_CPU_CAPABILITY") == nullptr) {
      const std::vector<std::string> host = host_aten_capabilities();
      if (!host.empty()) setenv("ATEN_CPU_CAPABILITY", host.back().c_str(), 0);
    }
    void *handle = dlopen(CONVCHECK_TORCH_MODULE, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      m.error = fmt::format("cannot load the torch module {}: {}", CONVCHECK_TORCH_MODULE, dlerror());
      return m;
    }
    m.run = reinterpret_cast<torch_module::RunFunction>(dlsym(handle, torch_module::run_symbol));
    m.backend = reinterpret_cast<torch_module::BackendFunction>(dlsym(handle, torch_module::backend_symbol));
    m.capability = reinterpret_cast<torch_module::CapabilityFunction>(dlsym(handle, torch_module::capability_symbol));
    m.version = reinterpret_cast<torch_module::VersionFunction>(dlsym(handle, torch_module::version_symbol));
    if (m.run == nullptr || m.backend == nullptr || m.capability == nullptr || m.version == nullptr)
      m.error = fmt::format("the torch module {} lacks its entry points", CONVCHECK_TORCH_MODULE);
    return m;
  }();
  return loaded;
}

void *raw(const Tensor &tensor) {
  return visit_typed(tensor, [](const auto *data) { return const_cast<void *>(static_cast<const void *>(data)); });
}

/// The case for the module, pointing at the case's inputs.
torch_module::Conv conv_of(const Case &c, bool mkldnn) {
  const Problem &p = c.problem;
  torch_module::Conv conv;
  conv.ndims = p.ndims;
  conv.format = static_cast<torch_module::Format>(p.precision.src); // Support: one storage format per problem
  conv.channels_last = p.data_layout == DataLayout::nxc;
  conv.weight_channels_last = p.weight_layout == WeightLayout::oxi;
  conv.mkldnn = mkldnn;
  conv.transposed = p.op == Op::deconv;
  conv.batch = p.batch, conv.groups = p.groups, conv.in_channels = p.in_channels, conv.out_channels = p.out_channels;
  for (int64_t i = 0; i < p.ndims; ++i) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(p.first_axis() + i)];
    conv.in[i] = axis.in, conv.kernel[i] = axis.kernel, conv.stride[i] = axis.stride;
    conv.dilation[i] = axis.dilation, conv.pad_begin[i] = axis.pad_begin, conv.pad_end[i] = axis.pad_end;
    conv.output_padding[i] = axis.output_padding;
  }
  conv.data = raw(c[Role::data]), conv.weight = raw(c[Role::weight]), conv.grad_output = raw(c[Role::grad_output]);
  return conv;
}

/// ATen's name for the backend it selects for `c` ("Mkldnn", "Slow2d", ...; "none: why" when it selects none).
std::string backend_name(const Module &m, const Case &c, bool mkldnn) {
  char name[512];
  m.backend(conv_of(c, mkldnn), name, sizeof name);
  return name;
}

/// ATen's message when its CPU kernels have no case for a low-precision format ("\"slow_conv2d_cpu\" not implemented
/// for 'Half'": AT_DISPATCH's error, core's c10 dispatch), or "" for any other error (a finding). float32 and float64
/// have every CPU kernel, so there such a message stays a finding.
std::string missing_kernel(const Problem &p, const char *error) {
  const DType dtype = p.precision.src;
  if (dtype != DType::bfloat16 && dtype != DType::float16) return "";
  const std::string text = error;
  return text.find("not implemented for '") != std::string::npos ? text : "";
}

int64_t divide_round_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The class of NNPACK's forward where ATen selects NnpackSpatial (float32, 2-D or 1-D viewed as 2-D, batch of 16 or
/// more, kernels up to 16, mkldnn off or not taken): ATen's NNPACK.cpp calls nnp_convolution_output with
/// nnp_convolution_algorithm_auto when every stride is 1, and NNPACK's src/convolution-output.c chooses by the kernel
/// and the output tiles: a kernel over 8 on an axis, ft16x16; else with t8 and t16 the output tiles of 8 - k + 1 and
/// 16 - k + 1 per axis, wt8x8 (Winograd F(6x6, 3x3)) for a 3x3 kernel and ft8x8 for any other when t8 <= 4 t16, and
/// ft16x16 otherwise. A strided problem goes image by image through nnp_convolution_inference, whose own choice
/// convcheck does not model: judged as the strategy's (direct), so a transform there would show as a failure.
std::optional<Algorithm> nnpack_output_class(const Problem &p) {
  const SpatialAxis &height = p.height(), &width = p.width();
  if (height.stride != 1 || width.stride != 1) return std::nullopt;
  if (std::max(height.kernel, width.kernel) > 8) return Algorithm{AlgorithmKind::fft};
  const int64_t tiles_8 = divide_round_up(height.out(), 8 - height.kernel + 1) *
                          divide_round_up(width.out(), 8 - width.kernel + 1);
  const int64_t tiles_16 = divide_round_up(height.out(), 16 - height.kernel + 1) *
                           divide_round_up(width.out(), 16 - width.kernel + 1);
  if (tiles_8 > 4 * tiles_16) return Algorithm{AlgorithmKind::fft};
  if (height.kernel == 3 && width.kernel == 3) return Algorithm{AlgorithmKind::winograd, 6, {}};
  return Algorithm{AlgorithmKind::fft};
}

RunResults run_torch(const Case &c, bool mkldnn, const Asked &asked) {
  RunResults runs;
  const Module &m = module();
  if (!m.error.empty()) {
    for (const DirectionInfo &each : directions(c.problem.op)) runs[each.direction].error = m.error;
    return runs;
  }
  // Known bugs (known_bugs.cpp), told ATen's backend, asked only when a row's cheaper tests pass.
  const std::string strategy = mkldnn ? "torch" : "torch_native";
  const Ran ran([&] { return backend_name(m, c, mkldnn); });
  const Problem &p = c.problem;
  const DType dtype = c[Role::data].dtype();
  Tensor output = Tensor::uninitialized(dtype, p.output_shape());
  Tensor grad_data = Tensor::uninitialized(dtype, p.data_shape());
  Tensor grad_weight = Tensor::uninitialized(dtype, p.weight_shape());
  for (Direction direction : all_directions)
    if (const KnownBug *bug = asked.held_back(strategy, c, direction, ran))
      runs[direction].held_back = held_back_detail(*bug, ran());
  if (!runs[Direction::output].held_back.empty() && !runs[Direction::grad_data].held_back.empty() &&
      !runs[Direction::grad_weight].held_back.empty())
    return runs;
  torch_module::Results results;
  results.output = runs[Direction::output].held_back.empty() ? raw(output) : nullptr;
  results.grad_data = runs[Direction::grad_data].held_back.empty() ? raw(grad_data) : nullptr;
  results.grad_weight = runs[Direction::grad_weight].held_back.empty() ? raw(grad_weight) : nullptr;
  m.run(conv_of(c, mkldnn), results);
  const auto settle = [&](Direction direction, Tensor &result, const char *error, const char *function) {
    if (!runs[direction].held_back.empty()) return;
    if (*error == '\0') runs[direction].result = std::move(result);
    else if (std::string missing = missing_kernel(p, error); !missing.empty())
      runs[direction].skipped = fmt::format("ATen {} has no CPU {} kernel here: {}: {}", CONVCHECK_TORCH_VERSION,
                                            to_string(dtype), function, missing);
    else runs[direction].error = fmt::format("threw: {}: {}", function, error);
  };
  settle(Direction::output, output, results.forward_error, "at::convolution");
  // NNPACK computes only the forward (its backward in ATen is Slow2d's), by a transform (nnpack_output_class).
  if (!runs[Direction::output].result.empty() && ran() == "NnpackSpatial")
    runs[Direction::output].algorithm = nnpack_output_class(p);
  settle(Direction::grad_data, grad_data, results.backward_error, "at::convolution_backward");
  settle(Direction::grad_weight, grad_weight, results.backward_error, "at::convolution_backward");
  return runs;
}

/// ATen's backend for the problem, the same for every direction on the CPU (torch_aten.cpp says why).
std::string backend_of(const Case &c, bool mkldnn) {
  const Module &m = module();
  if (!m.error.empty()) return "none: " + m.error;
  return fmt::format("ATen {} (at::native::select_conv_backend{}{})", backend_name(m, c, mkldnn),
                     mkldnn ? "" : ", mkldnn off", c.problem.data_layout == DataLayout::nxc ? ", channels-last input" : "");
}

/// Loads the module and runs a small case both ways, so that libtorch's one-time work (its ~290 libraries and
/// static initialisers, oneDNN's engine and GEMM kernels, OpenBLAS) is done once, in the campaign's process.
void warm_up() {
  const Case c = make_case(parse_descriptor("mb1ic4ih6iw6oc4kh3kw3pt1pl1_nhwc"), FillMode::normal, 0, 0);
  run_torch(c, true, Asked{});
  run_torch(c, false, Asked{});
}

/// The low-precision rows whose tensors share one format (bf16 or f16 storage, float32 accumulation): what ATen
/// computes when every tensor is bf16 (torch.autocast("cpu")) or f16. A bf16 convolution in ATen gives a bf16
/// result, so the rows with a float32 destination are not its own. ATen accumulates in float32 (opmath_type).
std::vector<Precision> one_storage_format_rows() {
  std::vector<Precision> rows;
  for (const PrecisionRow &row : precision_table())
    if (row.low_precision && row.precision.src == row.precision.dst && row.precision.acc == DType::float32 &&
        !mixes_input_formats(row.precision)) // a bf16:f32:bf16 training row is no single ATen call
      rows.push_back(row.precision);
  return rows;
}

/// ATen's CPU capability in this process ("" when the module did not load): fixed once ATen asked for it, so asked once.
std::string process_capability() {
  static const std::string capability = [] {
    const Module &m = module();
    if (!m.error.empty()) return std::string();
    char name[32];
    m.capability(name, sizeof name);
    return std::string(name);
  }();
  return capability;
}

/// The libtorch the module runs and its bundled oneDNN, as the library says them ("2.15.0 (oneDNN 3.13.3)"; the
/// module's error when it did not load): asked once.
std::string process_version() {
  static const std::string version = [] {
    const Module &m = module();
    if (!m.error.empty()) return m.error;
    char text[128];
    m.version(text, sizeof text);
    return std::string(text);
  }();
  return version;
}

/// The strategy in this process, for oracles/torch/capability_server.hpp.
TorchHere here(bool mkldnn) {
  return {[mkldnn](const Case &c, const Asked &asked) { return run_torch(c, mkldnn, asked); }, process_capability};
}

/// One ATen strategy: the mkldnn backend allowed or not; each case under its ATen capability and, with mkldnn, the
/// oneDNN cap beneath (oracles/onednn/isa_caps.hpp).
Strategy aten_strategy(const std::string &name, std::string description, bool mkldnn) {
  return {
      .name = name,
      .description = std::move(description),
      .in_default_set = false,
      .supports = {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                   .precisions = one_storage_format_rows(),
                   .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
      .run_case = [name, mkldnn](const Case &c, const Asked &asked) {
        return torch_results_capped(name, c, asked, mkldnn, here(mkldnn));
      },
      .warm_up = warm_up,
      // One thread: the module sets ATen's intra-op threads to 1 (torch_aten.cpp).
      .identity = [] { return ImplementationIdentity{"PyTorch ATen", process_version(), process_capability(), 1}; },
      .implementation =
          [mkldnn](const Case &c, Direction) {
            return fmt::format("{} in libtorch {}, {}", backend_of(c, mkldnn), process_version(),
                               torch_capability_identity(c, mkldnn, here(mkldnn)));
          },
  };
}

const Registration torch{aten_strategy(
    "torch",
    "PyTorch's ATen (libtorch " CONVCHECK_TORCH_VERSION ", its Mkldnn backend on the oneDNN " CONVCHECK_TORCH_ONEDNN_VERSION
    " it bundles) at::convolution / at::convolution_backward, ATen choosing its backend (Mkldnn for most float32 "
    "problems, and bf16 where oneDNN has bf16 kernels; else its im2col/vol2col paths); deconvs with transposed = true "
    "and output_padding (MkldnnTranspose for bf16 where oneDNN has bf16, else SlowTranspose2d/3d); 1-D, 2-D, 3-D, "
    "float32, float64, bf16 and f16, channels-last memory "
    "format for NWC/NHWC/NDHWC and OHWI weights; asymmetric padding and crops through constant_pad_nd; off by default",
    /*mkldnn=*/true)};

const Registration torch_native{aten_strategy(
    "torch_native",
    "the same with ATen's mkldnn backend switched off (setUserEnabledMkldnn(false)): ATen's own Slow2d, "
    "SlowDilated2d, Slow3d and SlowDilated3d (im2col/vol2col and BLAS), and SlowTranspose2d/3d for deconvs; off by default",
    /*mkldnn=*/false)};

} // namespace

} // namespace convcheck

#else // built without libtorch

namespace convcheck {
namespace {
constexpr const char *without_libtorch =
    "built without libtorch: venvs/torch had no libtorch 2.15 when convcheck was configured (scripts/install-deps.sh "
    "torch, then reconfigure; CMakeLists.txt, CONVCHECK_TORCH)";
const UnbuiltRegistration torch{{"torch", without_libtorch}};
const UnbuiltRegistration torch_native{{"torch_native", without_libtorch}};
} // namespace
} // namespace convcheck

#endif
