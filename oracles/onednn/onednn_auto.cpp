// `onednn_auto`: oneDNN's convolution_auto, through the `onednn` strategy's code (oracles/onednn/onednn.cpp) on its
// blocked path, each result judged under the class of the kernel that ran (onednn_algorithm_class).
//
// oneDNN 3.x picks a direct kernel for auto on the CPU: its x64 Winograd kernels (jit_fp32_wino_2x3 and jit_wino_4x3,
// which `onednn_winograd` ran on oneDNN 2.6) were deleted in v3.2, so there is no `onednn_winograd` strategy any more
// (docs/findings.md keeps the Winograd finding it made; the Winograd class, its bound and the `winograd` and `fft`
// reference strategies stay). What frameworks that ask for auto get is still worth running: the blocked path's
// kernels, chosen by oneDNN's own heuristics.

#include <fmt/format.h>

#include "core/run/strategy.hpp"
#include "oracles/onednn/accumulation_modes.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/isa_server.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {

namespace {

std::string implementation_under_cap(const Case &c, Direction direction) {
  const std::string cap = isa_cap_of(c), mode = acc_mode_of(c);
  if (!cap.empty() && !host_lacks(cap).empty()) return "";
  try {
    return fmt::format("{} (blocked path, cap {}, oneDNN isa {}, accumulation mode {})",
                       onednn_implementation_under(cap, c.problem, direction, OnednnPath::blocked,
                                                   OnednnAlgorithm::automatic, mode),
                       cap.empty() ? "none" : cap, onednn_isa_under(cap), mode.empty() ? "none set" : mode);
  } catch (const std::exception &error) {
    return fmt::format("unknown: {}", error.what());
  }
}

const Registration automatic{{
    .name = "onednn_auto",
    .description = "oneDNN's convolution_auto (oneDNN picks the kernel per problem; 3.x has only direct ones on the "
                   "CPU), blocked layouts, each result judged under the class of the kernel it picked; 1-D, 2-D and "
                   "3-D, crops as `onednn`",
    .in_default_set = false,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .unsupported = [](const Problem &problem, Direction) { return onednn_refused_padding(problem); },
    .run_case =
        [](const Case &c, const Asked &asked) {
          return onednn_results_capped(c, OnednnPath::blocked, OnednnAlgorithm::automatic, asked.run_held_back);
        },
    .identity =
        [] {
          const Strategy *onednn = find_strategy("onednn");
          return onednn != nullptr && onednn->identity ? onednn->identity()
                                                       : ImplementationIdentity{"oneDNN", "unknown"};
        },
    .implementation = implementation_under_cap,
}};

} // namespace

std::optional<Algorithm> onednn_algorithm_class(const std::string &implementation) {
  // A Winograd kernel (none in oneDNN 3.x's CPU engine) has transforms convcheck would have to be told: not judged.
  if (implementation.find("wino") != std::string::npos) return std::nullopt;
  return Algorithm{};
}

} // namespace convcheck
