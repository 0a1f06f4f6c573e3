// `onednn`: oneDNN 2.x (Debian's libdnnl 2.6) convolution primitives on the CPU, float32 only.
//
// Each direction is one oneDNN primitive, created from an op descriptor as the v2 API requires:
//   output      convolution_forward(forward_training)  src=data, weights=weight          -> dst
//   grad_data   convolution_backward_data              diff_dst=grad_output, weights     -> diff_src
//   grad_weight convolution_backward_weights (no bias) src=data, diff_dst=grad_output    -> diff_weights
// The backward descriptors need the forward primitive descriptor as a hint, so it is always built first.
//
// Geometry translation (dnnl.hpp, convolution_forward::desc): dilation counts from 0 in oneDNN, so it gets
// dilation - 1; padding_l = {pad_top, pad_left}, padding_r = {pad_bottom, pad_right}; grouped weights are
// 5-D {G, K/G, C/G, R, S} ("goihw"), ungrouped ones 4-D {K, C, R, S}, which is how frameworks call oneDNN and
// so selects the ungrouped kernels. The algorithm is always convolution_direct: winograd (and auto, which may
// pick it) computes through transformed tiles whose rounding our summation bound does not model.
//
// Tensors are handed over in the case's layouts (nchw/nhwc, oihw/hwio/ohwi), and the primitive is created with
// format_tag::any so oneDNN picks its own blocked layouts (nChw16c, OIhw16i16o, ...); reorders convert between
// the two, and they are part of what is tested.

#include <stdexcept>
#include <string>
#include <unordered_map>

#include <dnnl.hpp>
#include <dnnl_debug.h>
#include <fmt/format.h>
#include <omp.h>

#include "core/layout.hpp"
#include "core/strategy.hpp"

namespace convcheck {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

/// One CPU engine for the process; creating it is costly and engines are safe to share between threads.
const dnnl::engine &cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

/// While alive, makes oneDNN plan for the single thread it will get. oneDNN 2.x (OpenMP runtime) sizes a
/// primitive's thread decomposition from omp_get_max_threads() when its descriptor is created, but its
/// parallel() runs f(0, 1) on the calling thread alone whenever omp_in_parallel() (src/common/dnnl_thread.hpp),
/// which is always the case under convcheck's parallel case loop. Inside a parallel region omp_get_max_threads()
/// still answers the outer team size, so a kernel that splits its reduction across threads (jit:avx512_core
/// backward weights, seen here with 2 threads) waits forever at its barrier for threads that never start; oneDNN
/// issue #828 reports the same deadlock. nthreads-var is a per-thread ICV, so this touches no other thread.
/// It applies outside an active region too: with --threads 1 the case loop's team of one is not "in parallel",
/// and oneDNN would otherwise start its own threads for every tiny conv (13x slower, measured).
class SingleThreadInParallelRegion {
public:
  SingleThreadInParallelRegion() : previous_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~SingleThreadInParallelRegion() { omp_set_num_threads(previous_); }
  SingleThreadInParallelRegion(const SingleThreadInParallelRegion &) = delete;
  SingleThreadInParallelRegion &operator=(const SingleThreadInParallelRegion &) = delete;

private:
  int previous_;
};

/// A config in oneDNN's terms.
struct Geometry {
  memory::dims data, weight, output;
  memory::dims strides, dilates, padding_l, padding_r;
  bool grouped = false;
};

Geometry geometry_of(const ConvConfig &c) {
  Geometry g;
  g.data = {c.batch, c.in_channels, c.in_height, c.in_width};
  g.output = {c.batch, c.out_channels, c.out_height(), c.out_width()};
  g.grouped = c.groups > 1;
  g.weight = g.grouped ? memory::dims{c.groups, c.out_channels_per_group(), c.in_channels_per_group(),
                                      c.kernel_height, c.kernel_width}
                       : memory::dims{c.out_channels, c.in_channels, c.kernel_height, c.kernel_width};
  g.strides = {c.stride_height, c.stride_width};
  g.dilates = {c.dilation_height - 1, c.dilation_width - 1};
  g.padding_l = {c.pad_top, c.pad_left};
  g.padding_r = {c.pad_bottom, c.pad_right};
  return g;
}

/// The format tag that describes a buffer produced by to_data_layout / to_weight_layout. Grouped weights split
/// K into (g, o): HWIO [R, S, C/G, K] is then h,w,i,g,o ("hwigo"), OHWI [K, R, S, C/G] is g,o,h,w,i ("gohwi").
Tag data_tag(DataLayout layout) { return layout == DataLayout::nhwc ? Tag::nhwc : Tag::nchw; }

Tag weight_tag(WeightLayout layout, bool grouped) {
  switch (layout) {
  case WeightLayout::hwio: return grouped ? Tag::hwigo : Tag::hwio;
  case WeightLayout::ohwi: return grouped ? Tag::gohwi : Tag::ohwi;
  case WeightLayout::oihw: break;
  }
  return grouped ? Tag::goihw : Tag::oihw;
}

/// The three roles a tensor plays, each with its own dims and user layout.
enum class Role { data, weight, output };

memory::desc user_desc(const ConvConfig &config, const Geometry &g, Role role) {
  constexpr auto f32 = memory::data_type::f32;
  switch (role) {
  case Role::data: return {g.data, f32, data_tag(config.data_layout)};
  case Role::output: return {g.output, f32, data_tag(config.data_layout)};
  case Role::weight: break;
  }
  return {g.weight, f32, weight_tag(config.weight_layout, g.grouped)};
}

memory::desc any_desc(const memory::dims &dims) { return {dims, memory::data_type::f32, Tag::any}; }

/// strict: an environment variable (DNNL_DEFAULT_FPMATH_MODE) could otherwise let oneDNN compute in bf16, which
/// no float32 bound admits. user scratchpad: each call owns its scratch memory, so cached primitives shared by
/// the fuzzer's threads never share a scratchpad, whatever the library's build options.
dnnl::primitive_attr strict_attr() {
  dnnl::primitive_attr attr;
  attr.set_fpmath_mode(dnnl::fpmath_mode::strict);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

dnnl::convolution_forward::primitive_desc forward_pd(const Geometry &g) {
  const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                                             any_desc(g.data), any_desc(g.weight), any_desc(g.output), g.strides,
                                             g.dilates, g.padding_l, g.padding_r);
  return {desc, strict_attr(), cpu_engine()};
}

/// The primitive descriptor of `direction`; throws dnnl::error when oneDNN refuses the problem.
dnnl::primitive_desc direction_pd(const Geometry &g, Direction direction) {
  const auto forward = forward_pd(g);
  switch (direction) {
  case Direction::output: return forward;
  case Direction::grad_data: {
    const dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct, any_desc(g.data),
                                                     any_desc(g.weight), any_desc(g.output), g.strides, g.dilates,
                                                     g.padding_l, g.padding_r);
    return dnnl::convolution_backward_data::primitive_desc(desc, strict_attr(), cpu_engine(), forward);
  }
  case Direction::grad_weight: {
    const dnnl::convolution_backward_weights::desc desc(dnnl::algorithm::convolution_direct, any_desc(g.data),
                                                        any_desc(g.weight), any_desc(g.output), g.strides,
                                                        g.dilates, g.padding_l, g.padding_r);
    return dnnl::convolution_backward_weights::primitive_desc(desc, strict_attr(), cpu_engine(), forward);
  }
  }
  throw std::logic_error("unknown direction");
}

/// Which operands a direction reads and writes: (oneDNN argument, role, canonical tensor).
struct Operand {
  int argument;
  Role role;
  const Tensor *canonical; // null for the result
};

struct Operands {
  Operand first, second, result;
};

Operands operands_of(const ConvCase &c, Direction direction) {
  switch (direction) {
  case Direction::output:
    return {{DNNL_ARG_SRC, Role::data, &c.data}, {DNNL_ARG_WEIGHTS, Role::weight, &c.weight},
            {DNNL_ARG_DST, Role::output, nullptr}};
  case Direction::grad_data:
    return {{DNNL_ARG_DIFF_DST, Role::output, &c.grad_output}, {DNNL_ARG_WEIGHTS, Role::weight, &c.weight},
            {DNNL_ARG_DIFF_SRC, Role::data, nullptr}};
  case Direction::grad_weight: break;
  }
  return {{DNNL_ARG_SRC, Role::data, &c.data}, {DNNL_ARG_DIFF_DST, Role::output, &c.grad_output},
          {DNNL_ARG_DIFF_WEIGHTS, Role::weight, nullptr}};
}

/// A canonical tensor permuted into the case's layout for its role (the buffer a user would hand to oneDNN).
Tensor to_user_layout(const ConvConfig &config, const Tensor &canonical, Role role) {
  return role == Role::weight ? to_weight_layout(canonical, config.weight_layout)
                              : to_data_layout(canonical, config.data_layout);
}

Tensor from_user_layout(const ConvConfig &config, const Tensor &user, Role role) {
  return role == Role::weight ? from_weight_layout(user, config.weight_layout)
                              : from_data_layout(user, config.data_layout);
}

/// The memory a primitive reads for an input: the user's buffer itself when oneDNN chose the same layout,
/// otherwise a reorder of it into the layout oneDNN chose.
memory input_memory(memory user, const memory::desc &wanted, dnnl::stream &stream) {
  if (user.get_desc() == wanted) return user;
  memory converted(wanted, cpu_engine());
  dnnl::reorder(user, converted).execute(stream, user, converted);
  return converted;
}

/// Runs `direction` and returns its result in canonical layout.
Tensor run_primitive(const ConvCase &c, Direction direction) {
  const ConvConfig &config = c.config;
  const Geometry geometry = geometry_of(config);
  const dnnl::primitive_desc pd = direction_pd(geometry, direction);
  const auto wanted = [&pd](const Operand &operand) { return pd.query_md(dnnl::query::exec_arg_md, operand.argument); };
  const Operands operands = operands_of(c, direction);
  dnnl::stream stream(cpu_engine());

  Tensor first_user = to_user_layout(config, *operands.first.canonical, operands.first.role);
  Tensor second_user = to_user_layout(config, *operands.second.canonical, operands.second.role);
  const memory first(user_desc(config, geometry, operands.first.role), cpu_engine(), first_user.data<float>());
  const memory second(user_desc(config, geometry, operands.second.role), cpu_engine(), second_user.data<float>());

  const Operand &out = operands.result;
  Tensor result_user = to_user_layout(config, Tensor(DType::float32, result_shape(config, direction)), out.role);
  memory result(user_desc(config, geometry, out.role), cpu_engine(), result_user.data<float>());
  memory computed = result.get_desc() == wanted(out) ? result : memory(wanted(out), cpu_engine());

  // dnnl::primitive(pd) goes through oneDNN's primitive cache (keyed by descriptor, attributes and thread count):
  // JIT code generation (25-100 us for the jit kernels measured here) is paid once per geometry, a hit is ~1 us.
  const std::unordered_map<int, memory> arguments{
      {operands.first.argument, input_memory(first, wanted(operands.first), stream)},
      {operands.second.argument, input_memory(second, wanted(operands.second), stream)},
      {out.argument, computed},
      {DNNL_ARG_SCRATCHPAD, memory(pd.scratchpad_desc(), cpu_engine())}};
  dnnl::primitive(pd).execute(stream, arguments);
  if (computed != result) dnnl::reorder(computed, result).execute(stream, computed, result);
  stream.wait();
  return from_user_layout(config, result_user, out.role);
}

/// dnnl::error::what() names only the failing call; add the status ("unimplemented", "invalid_arguments").
std::string describe(const dnnl::error &error) {
  return fmt::format("onednn: {} ({})", error.what(), dnnl_status2str(error.status));
}

const Registration registration{{
    .name = "onednn",
    .description = "oneDNN 2.x direct convolution primitives (CPU, blocked layouts, reorders); float32 only",
    .unsupported = [](const ConvConfig &config, Direction) -> std::string {
      if (config.dtype == DType::float64) return "oneDNN's CPU convolution has no float64 (f32, bf16, f16, int8 only)";
      return "";
    },
    .run =
        [](const ConvCase &c, Direction direction) {
          const SingleThreadInParallelRegion single_thread;
          try {
            return run_primitive(c, direction);
          } catch (const dnnl::error &error) {
            throw std::runtime_error(describe(error));
          }
        },
    // Called for every compared case, so it builds only the primitive descriptor (no JIT code generation).
    // It must not throw: the caller records it outside its exception guard.
    .implementation =
        [](const ConvCase &c, Direction direction) -> std::string {
      if (c.config.dtype != DType::float32) return "";
      const SingleThreadInParallelRegion single_thread; // the same decomposition, so the same choice, as `run`
      try {
        return direction_pd(geometry_of(c.config), direction).impl_info_str();
      } catch (const dnnl::error &error) {
        return "none: " + describe(error);
      }
    },
}};

} // namespace

} // namespace convcheck
