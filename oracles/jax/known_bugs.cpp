// JAX's (XLA:CPU's) known bugs: the rows that hold a direction of its strategies back (core/run/known_bug.hpp). Its
// strategies are outside servers, so verification asks the table before the server is sent the case
// (core/run/verify.cpp), and each row decides from the problem alone. The version compared is jaxlib's, which carries
// XLA (the adapter's version probe: "jax 0.10.2 jaxlib 0.10.2"; asked once per process, and only when a row is
// reached).

#include <algorithm>
#include <string>
#include <utility>

#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

std::string jaxlib_version() { return adapter_package_version("jax", "jaxlib"); }

/// The low and high padding, on one axis, of the convolution XLA runs for `direction` of the problem, as JAX writes
/// it: the forward conv itself; its data gradient by JAX's _conv_general_vjp_lhs_padding, its weight gradient by
/// _conv_general_vjp_rhs_padding (jax/_src/lax/convolution.py); a deconv as jax_server.py builds it (the data
/// gradient of its equivalent conv) and the gradients of that.
std::pair<int64_t, int64_t> xla_padding(const Problem &p, const SpatialAxis &axis, Direction direction) {
  const int64_t span = axis.dilation * (axis.kernel - 1);
  if (p.op == Op::deconv) {
    if (direction == Direction::grad_data) return {axis.pad_begin, axis.pad_end - axis.output_padding};
    return {span - axis.pad_begin, span - axis.pad_end + axis.output_padding};
  }
  const int64_t remainder = (axis.in + axis.pad_begin + axis.pad_end - span - 1) % axis.stride;
  if (direction == Direction::output) return {axis.pad_begin, axis.pad_end};
  if (direction == Direction::grad_data) return {span - axis.pad_begin, span - axis.pad_end + remainder};
  return {axis.pad_begin, axis.pad_end - remainder};
}

const KnownBugRegistration jax_bugs{{
    .library = "JAX (jaxlib's XLA:CPU)",
    .version = jaxlib_version,
    .rows =
        {
            {
                .id = "xla-cpu-eigen-negative-low-padding",
                // seen in jaxlib 0.10.2, the only version run (docs/libraries/jax.md); older ones not run
                .versions = {"0.10.2", ""},
                .strategies = {"jax", "jax_eigen"},
                .directions = {Direction::output, Direction::grad_data, Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction direction, const Ran &) {
                      const Problem &p = c.problem;
                      // f64 convolutions (f64, f32_f64acc) run on XLA's loops, which are right; every other row
                      // is an f32 convolution that Eigen may take
                      if (p.precision.acc == DType::float64) return false;
                      for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
                        const auto [low, high] = xla_padding(p, p.axes[a], direction);
                        if (low < 0 && high > 0) return true;
                      }
                      return false;
                    },
                .reason = "XLA:CPU's Eigen convolution (f32, f16) with a negative low and a positive high padding on "
                          "an axis takes the unpadded fast path: the output rows that should be padding read the "
                          "next image's rows or memory past the input (wrong values, an out-of-bounds read)",
                .upstream = "openxla/xla#48713 (open; the fix openxla/xla#48748 is an open pull request)",
                .docs = "docs/findings.md#xlacpus-eigen-convolution-with-a-negative-low-and-positive-high-padding-"
                        "reads-out-of-bounds-jax-0102",
                .why_no_case = "the corpus replays built-in strategies; ctest jax_server runs this one with the "
                               "hold-back lifted and fails when XLA no longer shows the bug",
            },
            {
                .id = "xla-cpu-ynn-empty-crop",
                // seen in jaxlib 0.10.2, the only version run; the YNNPACK fusion is new in XLA
                .versions = {"0.10.2", ""},
                .strategies = {"jax", "jax_ynn"},
                .directions = {Direction::output, Direction::grad_data, Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      // The server computes all three directions in one program, and the crash ends it: a case any
                      // of whose convolutions reaches the bug is held back whole.
                      // YNNPACK takes only 2-D convolutions with more than 16 channels on one side (the weight
                      // gradient's convolution has the batch as its input channels)
                      const int64_t widest = std::max({p.in_channels, p.out_channels, p.batch});
                      if (p.ndims != 2 || widest <= 16) return false;
                      for (const Direction direction :
                           {Direction::output, Direction::grad_data, Direction::grad_weight}) {
                        for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
                          const auto [low, high] = xla_padding(p, p.axes[a], direction);
                          // the extent of the convolution's input on this axis: grad_output for a data gradient, the
                          // data otherwise, dilated by the stride where JAX writes it as lhs_dilation
                          const bool data_gradient = direction == Direction::grad_data;
                          const int64_t size = data_gradient ? p.out_size(a) : p.axes[a].in;
                          const int64_t lhs_dilation = (p.op == Op::deconv) != data_gradient ? p.axes[a].stride : 1;
                          const int64_t in = (size - 1) * lhs_dilation + 1;
                          const int64_t kept = in + std::min<int64_t>(low, 0) + std::min<int64_t>(high, 0);
                          if (kept <= 0 && in + low + high == 1) return true;
                        }
                      }
                      return false;
                    },
                .reason = "XLA:CPU's YNNPACK convolution fusion on an axis whose padding crops the whole input and "
                          "leaves one padding position: the server crashes (SIGSEGV) or returns the input's sum "
                          "where 0 is right",
                .upstream = "not reported upstream yet (draft in docs/findings.md)",
                .docs = "docs/findings.md#xlacpus-ynnpack-convolution-crashes-when-the-padding-crops-the-whole-"
                        "input-jax-0102",
                .why_no_case = "the corpus replays built-in strategies; docs/findings/jax_ynn_empty_crop.py shows it "
                               "with JAX alone",
            },
        },
}};

} // namespace

} // namespace convcheck
