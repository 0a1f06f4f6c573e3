// `onednn_winograd` and `onednn_auto`: oneDNN's convolution_winograd and convolution_auto, through the `onednn`
// strategy's code (oracles/onednn/onednn.cpp) on its blocked path (every tensor format_tag::any: oneDNN's Winograd kernels
// take only their own blocked and transformed layouts), each result judged under the class of the kernel that ran.
//
// oneDNN 2.6 has two float32 Winograd kernels, both AVX-512 (src/cpu/x64/, read at oneDNN's tag v2.6):
//   jit_fp32_wino_2x3:avx512_core  (jit_avx512_core_f32_wino_conv_2x3.cpp) forward only: F(2x2, 3x3). Its source
//     transform is d0 - d2, d1 + d2, d2 - d1, d1 - d3 and its output transform m0 + m1 + m2, m1 - m2 - m3 per axis:
//     Lavin and Gray's points 0, 1, -1 (and infinity), convcheck's default for F(2,3).
//   jit_wino_4x3:avx512_core  (jit_avx512_core_f32_wino_conv_4x3.cpp) forward, backward data and backward
//     weights: F(4x4, 3x3) on points 0, +-5/8, +-3/2 (and infinity), not Lavin and Gray's 0, +-1, +-2. The output
//     transform's constants are the points' powers {0.625, 1.5, 0.390625, 2.25, 0.244140625, 3.375}
//     (output_transform_data), the source transform's their squares and products {2.25, 0.390625, 0.87890625,
//     2.640625 = 2.25 + 0.390625} (input_transform_data), and the weight transform's first row 1.13777... =
//     1 / (0.625^2 * 1.5^2), the 1/f of point 0 (weight_transform_data). Its G and B^T are convcheck's (with these
//     points) scaled by one diagonal and its inverse, which leaves the Winograd bound's magnitudes unchanged
//     (|D G g| . |D^-1 B^T d| = |G g| . |B^T d| componentwise for a diagonal D): docs/bounds.md.
// Its backward data is wrong when an image's top and bottom padding differ (held back: onednn-wino-4x3-dgrad-pad, known_bugs.cpp). Its weight gradient
// tiles the sum over output positions, not the output, which the Winograd bound does not model:
// skipped with that reason (onednn.cpp). Both kernels are AVX-512: a case whose ISA cap is below avx512_core, or a
// host without it, is skipped with the reason, and so is a problem oneDNN has no Winograd kernel for (oneDNN's
// "unimplemented": it takes 2-D, kernel 3x3, stride 1, no dilation, channels in multiples of 16).

#include <algorithm>

#include <fmt/format.h>

#include "core/numerics/fill.hpp"
#include "core/problem/fields.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "core/run/strategy.hpp"
#include "oracles/onednn/onednn.hpp"
#include "oracles/onednn/isa_server.hpp"

namespace convcheck {

namespace {

constexpr const char *winograd_isa = "avx512_core";

/// F(4,3) on oneDNN's points 0, 5/8, -5/8, 3/2, -3/2.
Algorithm onednn_f43() { return {AlgorithmKind::winograd, 4, {{0, 1}, {5, 8}, {-5, 8}, {3, 2}, {-3, 2}}}; }

/// Why case `c` cannot run oneDNN's Winograd kernels under its cap ("" when it can).
std::string cap_refusal(const std::string &cap) {
  if (const std::string lacks = host_lacks(winograd_isa); !lacks.empty())
    return fmt::format("oneDNN's Winograd convolutions are AVX-512 kernels only: {}", lacks);
  if (!isa_cap_at_least(cap, winograd_isa))
    return fmt::format("oneDNN's Winograd convolutions are AVX-512 kernels only, and this case's ISA cap is {}", cap);
  return "";
}

std::string implementation_under_cap(const Case &c, Direction direction, OnednnAlgorithm algorithm) {
  const std::string cap = isa_cap_of(c);
  if (!cap.empty() && !host_lacks(cap).empty()) return "";
  try {
    return fmt::format("{} (blocked path, cap {}, oneDNN isa {})",
                       onednn_implementation_under(cap, c.problem, direction, OnednnPath::blocked, algorithm),
                       cap.empty() ? "none" : cap, onednn_isa_under(cap));
  } catch (const std::exception &error) {
    return fmt::format("unknown: {}", error.what());
  }
}

/// Half the cases (a hash of seed and case index, so shrinking and repro keep it) ask for the forward pass as
/// forward_inference: oneDNN then transforms the weights in its Winograd weight reorder and may pick its
/// jit_fp32_wino_2x3 kernel, which takes no other forward pass; the others run forward_training, as a training step.
OnednnAlgorithm winograd_request(const Case &c) {
  return mix64(mix64(c.seed ^ 0x77696e6f2d696e66ULL) ^ c.case_index) % 2 == 0 ? OnednnAlgorithm::winograd_inference
                                                                              : OnednnAlgorithm::winograd;
}

ImplementationIdentity identity() {
  const Strategy *onednn = find_strategy("onednn");
  return onednn != nullptr && onednn->identity ? onednn->identity() : ImplementationIdentity{"oneDNN", "unknown"};
}

const Registration winograd{{
    .name = "onednn_winograd",
    .description = "oneDNN's convolution_winograd (jit_fp32_wino_2x3 forward, F(2,3); jit_wino_4x3 forward and "
                   "backward data, F(4,3) on points 0, +-5/8, +-3/2), blocked layouts, judged under the Winograd "
                   "bound; AVX-512 only, 2-D 3x3 stride 1 (what oneDNN refuses is skipped with its answer); its "
                   "weight gradient is skipped (no bound models it)",
    .in_default_set = false,
    .algorithm = onednn_f43(),
    .supports = {.ops = {Op::conv},
                 .ranks = {2},
                 .dtypes = {DType::float32},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .kernels = {3},
                 .strides = {1},
                 .dilations = {1}},
    .run_case =
        [](const Case &c, const Asked &asked) {
          const std::string cap = isa_cap_of(c);
          if (const std::string refused = cap_refusal(cap); !refused.empty())
            return every_direction_skipped(c.problem.op, refused);
          return onednn_results_under(cap, c, OnednnPath::blocked, winograd_request(c), asked.run_held_back);
        },
    .identity = identity,
    .implementation = [](const Case &c, Direction direction) {
      return implementation_under_cap(c, direction, winograd_request(c));
    },
}};

const Registration automatic{{
    .name = "onednn_auto",
    .description = "oneDNN's convolution_auto (oneDNN picks direct or Winograd per problem), blocked layouts, each "
                   "result judged under the class of the kernel it picked; 1-D, 2-D and 3-D, crops as `onednn`",
    .in_default_set = false,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .unsupported = [](const Problem &problem, Direction) { return onednn_refused_padding(problem); },
    .run_case =
        [](const Case &c, const Asked &asked) {
          return onednn_results_capped(c, OnednnPath::blocked, OnednnAlgorithm::automatic, asked.run_held_back);
        },
    .identity = identity,
    .implementation = [](const Case &c, Direction direction) {
      return implementation_under_cap(c, direction, OnednnAlgorithm::automatic);
    },
}};

} // namespace

std::optional<Algorithm> onednn_algorithm_class(const std::string &implementation) {
  if (implementation.find("wino") == std::string::npos) return Algorithm{};
  if (implementation.rfind("jit_fp32_wino_2x3:", 0) == 0) return Algorithm{AlgorithmKind::winograd, 2, {}};
  if (implementation.rfind("jit_wino_4x3:", 0) == 0) return onednn_f43();
  return std::nullopt;
}

} // namespace convcheck
