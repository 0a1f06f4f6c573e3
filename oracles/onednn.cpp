// `onednn`: oneDNN 2.x (Debian's libdnnl 2.6) convolution primitives on the CPU, in every rank it has: 1-D, 2-D and
// 3-D; float32, and the bf16 and f16 rows of the precision table (oneDNN accumulates them in float32), each tensor's
// memory descriptor in its role's format (onednn_type). Its CPU convolution has no float64. A low-precision
// combination oneDNN creates no primitive descriptor for (unimplemented: no f16 below avx512_core_fp16, no bf16
// below avx512_core, no bf16 backward kernel with a float32 diff_dst) is skipped with that reason (missing_kernel).
//
// Each direction is one oneDNN primitive, created from an op descriptor as the v2 API requires:
//   output      convolution_forward(forward_training)  src=data, weights=weight          -> dst
//   grad_data   convolution_backward_data              diff_dst=grad_output, weights     -> diff_src
//   grad_weight convolution_backward_weights (no bias) src=data, diff_dst=grad_output    -> diff_weights
// The backward descriptors need the forward primitive descriptor as a hint; one is built per case and shared.
//
// Geometry translation (dnnl.hpp, convolution_forward::desc), for 1-D, 2-D and 3-D alike: tensors have rank
// 2 + ndims, the problem's own axes only ([N, C, W], [N, C, H, W], [N, C, D, H, W]); dilation counts from 0 in
// oneDNN, so it gets dilation - 1; padding_l is each axis's pad_begin, padding_r its pad_end; grouped weights have
// rank 3 + ndims {G, K/G, C/G, kernel...} ("goiw", "goihw", "goidhw"), ungrouped ones 2 + ndims {K, C, kernel...},
// which is how frameworks call oneDNN and so selects the ungrouped kernels. The algorithm is always
// convolution_direct: winograd (and auto, which may pick it) computes through transformed tiles whose rounding our
// summation bound does not model. oneDNN takes negative padding only at the end of an axis and smaller than the
// stride (refused_padding below says why); other crops are skipped. Two weight gradients that oneDNN 2.6 gets wrong
// are held back (broken_weight_gradient, core/run/held_back.hpp), and every buffer oneDNN reads or writes is
// followed by guards (oracles/support/onednn_memory.hpp).
//
// Paths (oracles/onednn.hpp). Every fuzz case has a new shape, and oneDNN pays per shape: primitive descriptors
// (its dispatcher runs each candidate kernel's setup until one accepts), JIT code generation for the jit kernels
// and for every reorder, and page-protection changes for the code. The plain path (x64:gemm:jit almost always: no
// per-shape JIT, no reorders) costs well under half of the two others (any_weights: brgconv / jit for NHWC, gemm
// for NCHW, weight reorders; blocked: jit:avx512_core, jit_dw, jit_1x1, gemm, about six JIT-compiled reorders per
// case); docs/performance.md ("Machine figures behind the code") has the per-path figures. With every case
// `blocked`, oneDNN dominated convcheck's time. So a case takes `blocked` with probability 1/8, `any_weights` 1/8
// and `plain` 3/4, decided by a hash of (seed, case index): over a campaign every path and kernel family keeps
// being fuzzed with the full config distribution (a nightly 100k-case run sends 12.5k cases down each JIT path),
// at about half the cost. The plain path gets its weights in the layout
// oneDNN's plain kernels read, not the case's weight layout, because oneDNN serves OHWI, or HWIO with NCHW data,
// only from its reference implementation (ref:any), which is not what frameworks run. Reorders, in the two other
// paths, are part of what is tested.

#include "oracles/onednn.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <dnnl.hpp>
#include <dnnl_debug.h>
#include <fmt/format.h>
#include <omp.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/fields.hpp"
#include "core/problem/precision_table.hpp"
#include "core/run/held_back.hpp"
#include "core/run/isa_cap.hpp"
#include "core/numerics/fill.hpp"
#include "core/tensor/layout.hpp"
#include "oracles/support/onednn_6035.hpp"
#include "oracles/support/onednn_bf16_bugs.hpp"
#include "oracles/support/onednn_isa_server.hpp"
#include "oracles/support/onednn_memory.hpp"

namespace convcheck {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;


/// While alive, makes oneDNN run on the calling thread alone. Cases run one at a time per worker process, one
/// worker per core, so oneDNN's own OpenMP threads would only oversubscribe the cores: on tiny convs they made it
/// 13x slower (measured). When the case loop was an OpenMP parallel region this was also a deadlock fix: oneDNN
/// 2.x sizes a primitive's thread decomposition from omp_get_max_threads() but runs f(0, 1) alone whenever
/// omp_in_parallel() (src/common/dnnl_thread.hpp), so a kernel splitting its reduction across threads waited
/// forever at its barrier (oneDNN issue #828). And it keeps the main process single-threaded through the warm-up,
/// which it must be to fork workers. nthreads-var is a per-thread ICV, so this touches no other thread.
class SingleThreadInParallelRegion {
public:
  SingleThreadInParallelRegion() : previous_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~SingleThreadInParallelRegion() { omp_set_num_threads(previous_); }
  SingleThreadInParallelRegion(const SingleThreadInParallelRegion &) = delete;
  SingleThreadInParallelRegion &operator=(const SingleThreadInParallelRegion &) = delete;

private:
  int previous_;
};

/// A problem in oneDNN's terms: tensors of rank 2 + ndims, and one stride, dilation and padding per axis.
struct Geometry {
  memory::dims data, weight, output;
  memory::dims strides, dilates, padding_l, padding_r;
  bool grouped = false;
};

Geometry geometry_of(const Problem &p) {
  Geometry g;
  g.grouped = p.groups > 1;
  g.data = {p.batch, p.in_channels};
  g.output = {p.batch, p.out_channels};
  g.weight = g.grouped ? memory::dims{p.groups, p.out_channels_per_group(), p.in_channels_per_group()}
                       : memory::dims{p.out_channels, p.in_channels};
  for (int64_t index = p.first_axis(); index < max_ndims; ++index) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(index)];
    g.data.push_back(axis.in);
    g.weight.push_back(axis.kernel);
    g.output.push_back(axis.out());
    g.strides.push_back(axis.stride);
    g.dilates.push_back(axis.dilation - 1);
    g.padding_l.push_back(axis.pad_begin);
    g.padding_r.push_back(axis.pad_end);
  }
  return g;
}

/// The format tag that describes a buffer produced by to_data_layout / to_weight_layout, by rank (1, 2, 3).
/// Grouped weights split K into (g, o): HWIO [R, S, C/G, K] is then h,w,i,g,o ("hwigo"), OHWI [K, R, S, C/G] is
/// g,o,h,w,i ("gohwi"); likewise in 1-D and 3-D.
Tag data_tag(DataLayout layout, int64_t ndims) {
  constexpr Tag channels_first[] = {Tag::ncw, Tag::nchw, Tag::ncdhw};
  constexpr Tag channels_last[] = {Tag::nwc, Tag::nhwc, Tag::ndhwc};
  return (layout == DataLayout::nxc ? channels_last : channels_first)[ndims - 1];
}

Tag weight_tag(WeightLayout layout, bool grouped, int64_t ndims) {
  struct ByRank {
    Tag plain[max_ndims], grouped[max_ndims];
  };
  constexpr ByRank oix{{Tag::oiw, Tag::oihw, Tag::oidhw}, {Tag::goiw, Tag::goihw, Tag::goidhw}};
  constexpr ByRank xio{{Tag::wio, Tag::hwio, Tag::dhwio}, {Tag::wigo, Tag::hwigo, Tag::dhwigo}};
  constexpr ByRank oxi{{Tag::owi, Tag::ohwi, Tag::odhwi}, {Tag::gowi, Tag::gohwi, Tag::godhwi}};
  const ByRank &tags = layout == WeightLayout::xio ? xio : layout == WeightLayout::oxi ? oxi : oix;
  return (grouped ? tags.grouped : tags.plain)[ndims - 1];
}

/// The weight layout the user hands over on `path`.
WeightLayout held_weight_layout(const Problem &config, OnednnPath path) {
  if (path != OnednnPath::plain) return config.weight_layout;
  return config.data_layout == DataLayout::nxc ? WeightLayout::xio : WeightLayout::oix;
}

/// Memory descriptors of the three roles.
struct Descs {
  memory::desc data, weight, output;
};

/// oneDNN's data type for a storage format. A role's format is the same in every direction (a gradient has its
/// tensor's format, core/problem/direction.cpp), so one descriptor per role serves all three primitives: data is
/// src and diff_src, weight is weights and diff_weights, output is dst and diff_dst.
memory::data_type onednn_type(DType dtype) {
  switch (dtype) {
  case DType::float32: return memory::data_type::f32;
  case DType::bfloat16: return memory::data_type::bf16;
  case DType::float16: return memory::data_type::f16;
  case DType::float64: break; // outside the Support row: oneDNN 2.6's CPU convolution has no f64
  }
  throw std::logic_error("onednn: no oneDNN data type for " + to_string(dtype));
}

/// How the user's buffers are laid out on `path`.
Descs user_descs(const Problem &config, const Geometry &g, OnednnPath path) {
  const Precision &p = config.precision;
  const Tag data = data_tag(config.data_layout, config.ndims);
  return {{g.data, onednn_type(p.src), data},
          {g.weight, onednn_type(p.weight), weight_tag(held_weight_layout(config, path), g.grouped, config.ndims)},
          {g.output, onednn_type(p.dst), data}};
}

/// What the primitives are created with: the user's layouts, or format_tag::any where oneDNN chooses.
Descs primitive_descs(const Descs &user, const Geometry &g, OnednnPath path) {
  const auto any = [](const memory::desc &held, const memory::dims &dims) {
    return memory::desc(dims, held.data_type(), Tag::any);
  };
  switch (path) {
  case OnednnPath::plain: return user;
  case OnednnPath::any_weights: return {user.data, any(user.weight, g.weight), user.output};
  case OnednnPath::blocked: break;
  }
  return {any(user.data, g.data), any(user.weight, g.weight), any(user.output, g.output)};
}

/// strict: an environment variable (DNNL_DEFAULT_FPMATH_MODE) could otherwise let oneDNN compute in bf16, which
/// no float32 bound admits. user scratchpad: the primitive takes its scratch memory from us at execution
/// (ThreadScratch) instead of allocating its own, and primitives on different threads never share one. Built once.
const dnnl::primitive_attr &strict_attr() {
  static const dnnl::primitive_attr attr = [] {
    dnnl::primitive_attr built;
    built.set_fpmath_mode(dnnl::fpmath_mode::strict);
    built.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return built;
  }();
  return attr;
}

/// The primitive descriptors of one case: the forward one, built once and the hint of both backward ones. The
/// memory descriptors are made once too (oneDNN spends a few thousand instructions on each).
class CasePrimitives {
public:
  CasePrimitives(const Problem &config, OnednnPath path)
      : geometry_(geometry_of(config)), user_(user_descs(config, geometry_, path)),
        descs_(primitive_descs(user_, geometry_, path)),
        forward_(dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                                 dnnl::algorithm::convolution_direct, descs_.data, descs_.weight,
                                                 descs_.output, geometry_.strides, geometry_.dilates,
                                                 geometry_.padding_l, geometry_.padding_r),
                 strict_attr(), cpu_engine()) {}

  /// The primitive descriptor of `direction`; throws dnnl::error when oneDNN refuses the problem.
  dnnl::primitive_desc of(Direction direction) const {
    const Geometry &g = geometry_;
    switch (direction) {
    case Direction::output: return forward_;
    case Direction::grad_data: {
      const dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct, descs_.data,
                                                       descs_.weight, descs_.output, g.strides, g.dilates,
                                                       g.padding_l, g.padding_r);
      return dnnl::convolution_backward_data::primitive_desc(desc, strict_attr(), cpu_engine(), forward_);
    }
    case Direction::grad_weight: {
      const dnnl::convolution_backward_weights::desc desc(dnnl::algorithm::convolution_direct, descs_.data,
                                                          descs_.weight, descs_.output, g.strides, g.dilates,
                                                          g.padding_l, g.padding_r);
      return dnnl::convolution_backward_weights::primitive_desc(desc, strict_attr(), cpu_engine(), forward_);
    }
    }
    throw std::logic_error("unknown direction");
  }

  const Geometry &geometry() const { return geometry_; }
  /// How the user's buffers are laid out.
  const Descs &user() const { return user_; }

private:
  Geometry geometry_;
  Descs user_, descs_;
  dnnl::convolution_forward::primitive_desc forward_;
};

/// A canonical input as the user hands it to oneDNN, in the held layout, on guarded memory; and its reorders into
/// the layouts the primitives chose (guarded too), each made once per case however many directions read it.
class HeldInput {
public:
  HeldInput(const Tensor &held, const memory::desc &desc) : user_(desc, GuardedMemory::Guard::input) {
    assert(held.byte_size() == user_.size()); // the same format (onednn_type) and a plain layout
    std::memcpy(user_.data(), held.bytes(), held.byte_size());
  }

  /// The memory a primitive reads: the user's buffer when oneDNN chose its layout, else a reorder of it.
  memory as(const memory::desc &wanted, dnnl::stream &stream) {
    if (user_.get().get_desc() == wanted) return user_.get();
    for (const GuardedMemory &converted : converted_)
      if (converted.get().get_desc() == wanted) return converted.get();
    memory from = user_.get(), converted = converted_.emplace_back(wanted, GuardedMemory::Guard::input).get();
    dnnl::reorder(from, converted).execute(stream, from, converted);
    return converted;
  }

private:
  GuardedMemory user_;
  std::vector<GuardedMemory> converted_;
};

HeldInput hold_data(const Tensor &canonical, DataLayout layout, const memory::desc &desc) {
  if (layout == DataLayout::ncx) return {canonical, desc};
  return {to_data_layout(canonical, layout), desc};
}

HeldInput hold_weight(const Tensor &canonical, WeightLayout layout, const memory::desc &desc) {
  if (layout == WeightLayout::oix) return {canonical, desc};
  return {to_weight_layout(canonical, layout), desc};
}

/// A case's three inputs on one path.
struct HeldInputs {
  HeldInput data, weight, grad_output;
};

/// Runs the primitive of `direction` and returns its result in canonical layout.
Tensor run_direction(const Case &c, OnednnPath path, const CasePrimitives &primitives, const dnnl::primitive_desc &pd,
                     HeldInputs &held, Direction direction, dnnl::stream &stream) {
  const Problem &config = c.problem;
  const auto wanted = [&pd](int argument) { return pd.query_md(dnnl::query::exec_arg_md, argument); };
  const Descs &user = primitives.user();
  std::unordered_map<int, memory> arguments;
  Tensor result;
  memory::desc result_desc;
  int result_argument = 0;
  switch (direction) {
  case Direction::output:
    arguments = {{DNNL_ARG_SRC, held.data.as(wanted(DNNL_ARG_SRC), stream)},
                 {DNNL_ARG_WEIGHTS, held.weight.as(wanted(DNNL_ARG_WEIGHTS), stream)}};
    result = Tensor::uninitialized(result_dtype(config, direction), data_shape_in(config.output_shape(), config.data_layout));
    result_desc = user.output, result_argument = DNNL_ARG_DST;
    break;
  case Direction::grad_data:
    arguments = {{DNNL_ARG_DIFF_DST, held.grad_output.as(wanted(DNNL_ARG_DIFF_DST), stream)},
                 {DNNL_ARG_WEIGHTS, held.weight.as(wanted(DNNL_ARG_WEIGHTS), stream)}};
    result = Tensor::uninitialized(result_dtype(config, direction), data_shape_in(config.data_shape(), config.data_layout));
    result_desc = user.data, result_argument = DNNL_ARG_DIFF_SRC;
    break;
  case Direction::grad_weight:
    arguments = {{DNNL_ARG_SRC, held.data.as(wanted(DNNL_ARG_SRC), stream)},
                 {DNNL_ARG_DIFF_DST, held.grad_output.as(wanted(DNNL_ARG_DIFF_DST), stream)}};
    result = Tensor::uninitialized(result_dtype(config, direction), weight_shape_in(config.weight_shape(), held_weight_layout(config, path)));
    result_desc = user.weight, result_argument = DNNL_ARG_DIFF_WEIGHTS;
    break;
  }
  GuardedMemory user_result(result_desc, GuardedMemory::Guard::result);
  std::optional<GuardedMemory> chosen; // the result in the layout the primitive chose, when not the user's
  if (result_desc != wanted(result_argument)) chosen.emplace(wanted(result_argument), GuardedMemory::Guard::result);
  arguments[result_argument] = chosen ? chosen->get() : user_result.get();
  ThreadScratch &scratch = ThreadScratch::current();
  arguments[DNNL_ARG_SCRATCHPAD] = scratch.scratchpad(pd.scratchpad_desc());
  dnnl::primitive(pd).execute(stream, arguments);
  if (chosen) {
    memory from = chosen->get(), to = user_result.get();
    dnnl::reorder(from, to).execute(stream, from, to);
  }
  stream.wait();
  scratch.check_guard();
  const char *result_name = direction == Direction::output      ? "dst"
                            : direction == Direction::grad_data ? "diff_src"
                                                                : "diff_weights";
  if (chosen) chosen->check(result_name);
  user_result.check(result_name);
  assert(result.byte_size() == user_result.size());
  std::memcpy(result.bytes(), user_result.data(), result.byte_size());
  if (direction == Direction::grad_weight) {
    const WeightLayout layout = held_weight_layout(config, path);
    return layout == WeightLayout::oix ? std::move(result) : from_weight_layout(result, layout);
  }
  return config.data_layout == DataLayout::ncx ? std::move(result) : from_data_layout(result, config.data_layout);
}

/// dnnl::error::what() names only the failing call; add the status ("unimplemented", "invalid_arguments").
std::string describe(const dnnl::error &error) {
  return fmt::format("onednn: {} ({})", error.what(), dnnl_status2str(error.status));
}

/// Why oneDNN creating no primitive descriptor of `kind` for `problem` is a skip ("" when it is a finding). For a
/// float32 problem oneDNN always has ref:any, so `unimplemented` there is wrong. For bf16 and f16 oneDNN 2.6 has no
/// kernel for some combinations: no backward one with a float32 diff_dst (it has bf16 diff_dst with a float32
/// diff_src or diff_weights, which no precision row asks for), none at all for bf16 below avx512_core (its ref
/// kernels too require platform::has_data_type_support, src/cpu/platform.cpp), and f16 only with avx512_core_fp16.
/// The reason names the ISA oneDNN runs at, so that a capped case says why its host had no kernel.
std::string missing_kernel(const Problem &problem, const char *kind, const dnnl::error &error) {
  if (error.status != dnnl_unimplemented || problem.precision == Precision::uniform(DType::float32)) return "";
  const dnnl_version_t *version = dnnl_version();
  return fmt::format("oneDNN {}.{}.{} has no {} {} at ISA {} (primitive descriptor creation: unimplemented)",
                     version->major, version->minor, version->patch, precision_words(problem.precision), kind,
                     onednn_process_isa());
}

/// oneDNN's name for the primitive of `direction`.
const char *primitive_kind(Direction direction) {
  switch (direction) {
  case Direction::output: return "convolution forward";
  case Direction::grad_data: return "convolution backward data";
  case Direction::grad_weight: break;
  }
  return "convolution backward weights";
}

/// The skip reason of a direction's primitive descriptor that failed to be created (missing_kernel): the forward
/// one fails every direction, since it is every backward one's hint.
std::string missing_kernel_of(const Problem &problem, Direction direction, bool forward_failed,
                              const dnnl::error &error) {
  return missing_kernel(problem, forward_failed ? "convolution forward (every direction's hint)"
                                                : primitive_kind(direction), error);
}

/// missing_kernel for `direction` of every problem of `precision` in this process, known before any of them is
/// tried: oneDNN selects its convolutions by data types first (each implementation's init checks them before any
/// shape, and ref:any takes every shape of the types it takes), so a small probe conv whose descriptor is refused as
/// unimplemented stands for every shape. Asked once per process (the ISA is the process's) and precision, so a case
/// whose formats oneDNN has no kernel for costs no descriptor creation (oneDNN tries each of its ~30 candidates and
/// throws): measured, that was most of what low precision added to a default one-worker fuzz.
std::string missing_at_this_isa(const Precision &precision, Direction direction) {
  if (precision == Precision::uniform(DType::float32)) return "";
  static std::mutex mutex;
  static std::map<std::pair<std::string, Direction>, std::string> probed;
  const std::lock_guard lock(mutex);
  const auto key = std::pair(precision_words(precision), direction);
  if (const auto found = probed.find(key); found != probed.end()) return found->second;
  Problem probe = parse_descriptor("mb1ic16ih4iw4oc16kh1kw1");
  probe.precision = precision;
  std::string reason;
  bool forward_failed = true;
  try {
    const CasePrimitives primitives(probe, OnednnPath::plain);
    forward_failed = false;
    primitives.of(direction);
  } catch (const dnnl::error &error) {
    reason = missing_kernel_of(probe, direction, forward_failed, error);
  }
  return probed[key] = reason;
}

/// Why `direction` of a bf16 `problem` is held back from the kernel `pd` chose (core/run/held_back.hpp; "" when it
/// runs): two oneDNN 2.6 bf16 kernels that return wrong values (oracles/support/onednn_bf16_bugs.hpp).
std::string broken_bf16_kernel(const Problem &problem, Direction direction, OnednnPath path,
                               const dnnl::primitive_desc &pd) {
  if (run_held_back() || problem.precision.src != DType::bfloat16) return "";
  if (direction == Direction::grad_weight && has_onednn_bf16_weight_gradient_shape(problem)) {
    const std::string implementation = pd.impl_info_str();
    if (implementation.rfind("jit_bf16:", 0) == 0)
      return fmt::format("oneDNN 2.6's {} weight gradient of a stride larger than its axis's input, or of a 3-D depth "
                         "stride above 1 with depth padding, returns wrong values (docs/findings.md)",
                         implementation);
  }
  if (direction == Direction::grad_data && path != OnednnPath::blocked && has_onednn_bf16_odd_channels_1x1_shape(problem, problem.data_layout == DataLayout::nxc)) {
    const std::string implementation = pd.impl_info_str();
    if (implementation.rfind("jit_bf16_1x1", 0) == 0)
      return fmt::format("oneDNN 2.6's {} data gradient of a 1x1 conv on channels-last diff_dst with an odd number of "
                         "output channels per group ({}) returns wrong values (docs/findings.md)",
                         implementation, problem.out_channels_per_group());
  }
  return "";
}

/// Every direction gets the same error: without a forward primitive descriptor none can run.
RunResults all_failed(const Op op, const std::string &error) {
  RunResults runs;
  for (const DirectionInfo &each : directions(op)) runs[each.direction].error = error;
  return runs;
}

/// Why oneDNN cannot take the padding of `problem` ("" when it can). oneDNN 2.6 creates no convolution descriptor
/// (forward, backward data or backward weights alike, so on every path) unless, on every axis, padding_l >= 0 and
/// padding_r + stride > 0 (conv_desc_init, src/common/convolution.cpp; measured: every other negative padding of a
/// 1-D conv of size 9, kernel 3, stride 1..3 threw invalid_arguments on all three paths, and every accepted one
/// ran; the test SkipsExactlyTheCropsOneDnnRefuses keeps measuring it). So it takes a crop only at the end of an
/// axis and smaller than its stride. Such a crop still matters: it can drop the last output (size 6, kernel 2,
/// stride 2, pad_end -1: 2 outputs instead of 3), and the inputs it drops must get a zero gradient.
std::string refused_padding(const Problem &problem) {
  for (int64_t index = problem.first_axis(); index < max_ndims; ++index) {
    const SpatialAxis &axis = problem.axes[static_cast<size_t>(index)];
    if (axis.pad_begin < 0)
      return fmt::format("oneDNN takes no crop at the beginning of an axis: {} is {} (it requires padding_l >= 0)",
                         find_int_field("pad_begin")->label(index), axis.pad_begin);
    if (axis.pad_end + axis.stride <= 0)
      return fmt::format("oneDNN takes a crop at the end of an axis only when smaller than the stride: {} is {} "
                         "with {} {} (it requires padding_r > -stride)",
                         find_int_field("pad_end")->label(index), axis.pad_end,
                         find_int_field("stride")->label(index), axis.stride);
  }
  return "";
}

/// Why the weight gradient of `problem` on `path` is held back (core/run/held_back.hpp; "" when it runs). Two
/// oneDNN 2.6 bugs, each in a kernel that writes or reads outside its memory, so neither is run and discarded:
///
/// 1. A crop at the end of an outer axis padded at the beginning: oneDNN 2.6's jit backward-weights kernel (jit:avx2 here; jit_avx2_conv_bwd_weights_kernel_f32) walks the
/// output rows of an outer axis padded at the beginning in a loop of its own, ended by the kernel height and not by
/// the output size, then counts the remaining rows from the input height (compute_oh_loop_common): right when
/// padding_r >= 0, but a crop at the end leaves fewer output rows than that, and the kernel reads past diff_dst.
/// Measured with a probe (every path and direction, one cropped axis at a time of 1-D, 2-D and 3-D convs: size
/// 1..10, kernel 1..4, stride 2..3, dilation 1..2, pad_begin 0..1, every accepted crop, groups 1..2, up to 32
/// channels, both data layouts, exact data): 186 of about 97,000 runs went wrong, every one a weight gradient on
/// jit:avx2 (any_weights and blocked paths) with the height axis padded at the beginning and cropped at the end:
/// wrong values, heap corruption ("free(): invalid next size"), SIGSEGV, SIGBUS, and once, with several OpenMP
/// threads, a kernel that never returned. gemm, on the same problems, was right, and so were cropped width and depth
/// axes. So only a jit kernel is held back. The depth axis is held back alike as a precaution: the avx2 kernel
/// takes no depth padding (those cases ran on gemm), and the avx512 kernels of other machines, which do, could not
/// be measured here.
///
/// 2. oneDNN issue #6035 (docs/findings.md): the jit_1x1 weight gradient of a strided 1x1 conv whose source is
/// channels-last (the user's layout, so not on the blocked path) with fewer input channels per group than the
/// kernel's channel block (8 on AVX2, 16 on AVX-512) writes past the scratchpad it asks for; the guard bytes
/// after it (ThreadScratch) catch it when this is run anyway (--run-held-back, corpus/upstream/).
std::string broken_weight_gradient(const Problem &problem, const CasePrimitives &primitives, OnednnPath path) {
  if (run_held_back()) return "";
  if (problem.data_layout == DataLayout::nxc && path != OnednnPath::blocked && has_onednn_6035_shape(problem)) {
    const std::string implementation = primitives.of(Direction::grad_weight).impl_info_str();
    if (implementation.rfind("jit_1x1", 0) == 0)
      return fmt::format("oneDNN 2.6's {} weight gradient of a strided 1x1 conv on channels-last source with under "
                         "16 input channels per group writes past its scratchpad (oneDNN issue #6035)",
                         implementation);
  }
  for (int64_t index = problem.first_axis(); index < max_ndims - 1; ++index) {
    const SpatialAxis &axis = problem.axes[static_cast<size_t>(index)];
    if (axis.pad_begin <= 0 || axis.pad_end >= 0) continue;
    const std::string implementation = primitives.of(Direction::grad_weight).impl_info_str();
    if (implementation.rfind("jit", 0) != 0) return "";
    return fmt::format("oneDNN 2.6's {} weight gradient reads past the output of an outer axis padded at the "
                       "beginning and cropped at the end ({} {}, {} {}): wrong results, heap corruption or a crash",
                       implementation, find_int_field("pad_begin")->label(index), axis.pad_begin,
                       find_int_field("pad_end")->label(index), axis.pad_end);
  }
  return "";
}

/// The bf16 and f16 rows of the precision table (all accumulate in float32, as oneDNN does): oneDNN computes those it
/// has kernels for and skips the others with the reason (missing_kernel).
std::vector<Precision> low_precisions() {
  std::vector<Precision> rows = precisions_storing(DType::bfloat16);
  for (const Precision &precision : precisions_storing(DType::float16)) rows.push_back(precision);
  return rows;
}

const Registration registration{{
    .name = "onednn",
    .description = "oneDNN 2.x direct convolution primitives (CPU, 1-D, 2-D and 3-D; per case plain layouts, any "
                   "weights, or blocked layouts with reorders); float32, no float64 (oneDNN's CPU convolution has none), "
                   "bf16 where the ISA has avx512_core and f16 with avx512_core_fp16 (else skipped with oneDNN's reason); "
                   "crops only at the end of an axis and smaller than its stride, as oneDNN's descriptor requires "
                   "(and no jit weight gradient of one on an outer axis padded at the beginning: a oneDNN 2.6 bug); holds "
                   "back the jit_1x1 weight gradient of strided 1x1 convs on channels-last with under 16 input "
                   "channels per group (oneDNN issue #6035) and two bf16 kernels (docs/findings.md); --run-held-back runs them",
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                 .precisions = low_precisions(), .crops = true},
    .unsupported = [](const Problem &problem, Direction) { return refused_padding(problem); },
    // Under the case's ISA cap (core/run/isa_cap.hpp): in this process when it runs at that cap, else in a server
    // process started with it (oracles/support/onednn_isa_server.hpp).
    .run_case =
        [](const Case &c) {
          const std::string cap = isa_cap_of(c);
          if (std::string lacks = cap.empty() ? "" : host_lacks(cap); !lacks.empty())
            return every_direction_skipped(c.problem.op, lacks);
          return onednn_results_under(cap, c, onednn_path(c));
        },
    // oneDNN JIT-compiles its sgemm kernels at the first gemm-based convolution of a process (tens of ms,
    // docs/performance.md); one small case down every path pays that once, before the workers are forked.
    .warm_up =
        [] {
          const Case c = make_case(parse_descriptor("mb1ic4ih6iw6oc4kh3kw3pt1pl1"), FillMode::normal, 0, 0);
          for (OnednnPath path : {OnednnPath::plain, OnednnPath::any_weights, OnednnPath::blocked})
            onednn_results(c, path);
        },
    .identity =
        [] {
          const dnnl_version_t *version = dnnl_version();
          return ImplementationIdentity{"oneDNN", fmt::format("{}.{}.{}", version->major, version->minor, version->patch)};
        },
    // Called for a failed direction only, so it builds only the primitive descriptor (no JIT code generation).
    // It must not throw: the caller records it outside its exception guard.
    .implementation = [](const Case &c, Direction direction) -> std::string {
      if (c.problem.precision.acc != DType::float32) return "";
      const OnednnPath path = onednn_path(c);
      const std::string cap = isa_cap_of(c);
      if (!cap.empty() && !host_lacks(cap).empty()) return "";
      try {
        return fmt::format("{} ({} path, cap {}, oneDNN isa {})", onednn_implementation_under(cap, c.problem, direction, path),
                           to_string(path), cap.empty() ? "none" : cap, onednn_isa_under(cap));
      } catch (const std::exception &error) {
        return fmt::format("unknown: {}", error.what());
      }
    },
}};

} // namespace

std::string to_string(OnednnPath path) {
  switch (path) {
  case OnednnPath::plain: return "plain";
  case OnednnPath::any_weights: return "any_weights";
  case OnednnPath::blocked: return "blocked";
  }
  return "?";
}

OnednnPath onednn_path(const Case &conv_case) {
  switch (mix64(mix64(conv_case.seed ^ 0x6f6e65646e6e2d70ULL) ^ conv_case.case_index) % 8) {
  case 0: return OnednnPath::blocked;
  case 1: return OnednnPath::any_weights;
  default: return OnednnPath::plain;
  }
}

RunResults onednn_results(const Case &c, OnednnPath path) {
  RunResults runs;
  const SingleThreadInParallelRegion single_thread;
  bool any_left = false;
  for (const DirectionInfo &each : directions(c.problem.op))
    any_left |= (runs[each.direction].skipped = missing_at_this_isa(c.problem.precision, each.direction)).empty();
  if (!any_left) return runs;
  std::optional<CasePrimitives> made;
  try {
    made.emplace(c.problem, path);
  } catch (const dnnl::error &error) {
    if (std::string missing = missing_kernel_of(c.problem, Direction::output, true, error); !missing.empty())
      return every_direction_skipped(c.problem.op, missing);
    return all_failed(c.problem.op, "threw: " + describe(error));
  }
  try {
    const CasePrimitives &primitives = *made;
    const Descs &user = primitives.user();
    HeldInputs held{hold_data(c[Role::data], c.problem.data_layout, user.data),
                    hold_weight(c[Role::weight], held_weight_layout(c.problem, path), user.weight),
                    hold_data(c[Role::grad_output], c.problem.data_layout, user.output)};
    dnnl::stream &stream = ThreadScratch::current().stream();
    for (const DirectionInfo &each : directions(c.problem.op)) {
      const Direction direction = each.direction;
      RunResult &run = runs[direction];
      if (!run.skipped.empty()) continue;
      dnnl::primitive_desc pd;
      try {
        pd = primitives.of(direction);
      } catch (const dnnl::error &error) {
        run.skipped = missing_kernel_of(c.problem, direction, false, error);
        if (run.skipped.empty()) run.error = "threw: " + describe(error);
        continue;
      }
      try {
        if (direction == Direction::grad_weight) run.skipped = broken_weight_gradient(c.problem, primitives, path);
        if (run.skipped.empty()) run.skipped = broken_bf16_kernel(c.problem, direction, path, pd);
        if (run.skipped.empty()) run.result = run_direction(c, path, primitives, pd, held, direction, stream);
      } catch (const dnnl::error &error) {
        run.error = "threw: " + describe(error);
      } catch (const OutOfBoundsWrite &error) {
        run.error = std::string("threw: ") + error.what();
      }
    }
  } catch (const dnnl::error &error) {
    return all_failed(c.problem.op, "threw: " + describe(error));
  }
  return runs;
}

WeightLayout onednn_weight_layout(const Problem &config, OnednnPath path) { return held_weight_layout(config, path); }

std::string onednn_implementation(const Problem &config, Direction direction, OnednnPath path) {
  const SingleThreadInParallelRegion single_thread; // the same decomposition, so the same choice, as running
  try {
    return CasePrimitives(config, path).of(direction).impl_info_str();
  } catch (const dnnl::error &error) {
    return "none: " + describe(error);
  }
}

} // namespace convcheck
