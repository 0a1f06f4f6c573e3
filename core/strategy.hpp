#pragma once
// A strategy is one way of computing a convolution. Each lives in one file under oracles/ and registers itself
// with a file-static token:
//
//   static const Registration registration{{
//       .name = "naive", .description = "...",
//       .unsupported = nullptr,              // or: why a (config, direction) cannot run, "" when it can
//       .run = [](const ConvCase &c, Direction d) { ... return result; },
//   }};
//
// `run` returns the direction's result in canonical layout and the case dtype. A strategy marked `injected`
// is a deliberately broken variant reproducing a real bug; it runs only when asked for with --inject.

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "core/conv_case.hpp"
#include "core/direction.hpp"
#include "core/tensor.hpp"

namespace convcheck {

/// What one call produced for one direction: a result, or why there is none.
struct RunResult {
  Tensor result;       // empty when skipped or failed
  std::string skipped; // why the direction was not computed (reported as skipped)
  std::string error;   // why no usable result came back (reported as a failure)
};

struct Strategy {
  std::string name;
  std::string description; // one line: what it computes and what it supports
  bool injected = false;
  /// Why `direction` cannot run on `config` ("" or a null function: it can). Such a case is skipped, not failed.
  std::function<std::string(const ConvConfig &, Direction)> unsupported;
  /// The direction's result, canonical layout, case dtype. May throw; that is recorded as a finding.
  std::function<Tensor(const ConvCase &, Direction)> run;
  /// Optional, instead of `run`: all three directions from one call (indexed by Direction), for
  /// implementations that compute them together, such as an external process.
  std::function<std::array<RunResult, 3>(const ConvCase &)> run_case;
  /// Optional: one-time work of the process (oneDNN compiling its GEMM kernels, say), done once by a campaign
  /// before it forks its workers, so that each worker inherits it instead of repeating it on its first case.
  std::function<void()> warm_up;
  /// Optional: which implementation ran (e.g. oneDNN's impl_info_str), recorded with a finding.
  std::function<std::string(const ConvCase &, Direction)> implementation;

  std::string unsupported_reason(const ConvConfig &config, Direction direction) const {
    return unsupported ? unsupported(config, direction) : std::string();
  }
};

/// Every registered strategy, real ones first then injected ones, each group sorted by name.
std::vector<const Strategy *> registered_strategies();

/// The registered strategy called `name`, or nullptr.
const Strategy *find_strategy(const std::string &name);

/// Real (not injected) strategies selected by a comma-separated list ("" means all real ones) plus the
/// injected ones named in `inject`; throws InputError naming an unknown or misplaced name.
std::vector<Strategy> select_strategies(const std::string &names, const std::vector<std::string> &inject);

/// File-static registration token.
struct Registration {
  explicit Registration(Strategy strategy);
};

} // namespace convcheck
