#pragma once
// A strategy is one way of computing a convolution. Each lives in its implementation's room under oracles/ (a loop
// strategy is one file of oracles/loops/; a library's may share its room's files) and registers itself with a
// file-static token:
//
//   static const Registration registration{{
//       .name = "naive", .description = "...",
//       .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64}},
//       .unsupported = nullptr,              // or: why a (problem, direction) it supports still cannot run
//       .run = [](const Case &c, Direction d) { ... return result; },
//   }};
//
// What a strategy supports is opt-in, every key of it: a problem whose op, rank, formats or layouts it does not list
// is skipped with the reason, so no strategy computes a 2-D conv on a problem it does not understand. A strategy that
// computes from the canonical tensors takes every layout and says so (every_data_layout, every_weight_layout).
// `run` returns the direction's result in canonical layout and the result's format. A strategy marked `injected` is a
// deliberately broken variant reproducing a real bug; it runs only when asked for with --inject.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/run/implementation_identity.hpp"
#include "core/run/known_bug.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

/// What one call produced for one direction: a result, or why there is none.
struct RunResult {
  Tensor result;       // empty when skipped or failed
  std::string skipped; // why the direction was not computed (reported as skipped)
  std::string error;   // why no usable result came back (reported as a failure)
  std::string held_back; // the known bug that kept it from running (held_back_detail, core/run/known_bug.hpp)
  std::optional<Algorithm> algorithm; // the class that computed it, when it differs from the strategy's own
};

/// What one run_case call produced, per direction. A direction of the case's op missing from it is a failure.
using RunResults = ByDirection<RunResult>;

/// Every direction of `op` skipped with `skipped`, or failed with `error`, for a call that produced nothing (an
/// external implementation that declined the case or died on it).
RunResults every_direction_skipped(Op op, const std::string &skipped);
RunResults every_direction_failed(Op op, const std::string &error);
/// Every direction of `op` held back with `detail` (held_back_detail): a known bug every direction reaches.
RunResults every_direction_held_back(Op op, const std::string &detail);

/// What one run_case call is asked: the directions the caller judges (a compiler may build only those; results of
/// others are ignored), and whether the problems of known library bugs run anyway (core/run/known_bug.hpp).
struct Asked {
  std::vector<Direction> directions;
  bool run_held_back = false;

  /// The known bug holding back `direction` of `conv_case` on `strategy` once the strategy knows what would run it
  /// (`ran`), or nullptr: no row is reached, or held-back bugs run.
  const KnownBug *held_back(const std::string &strategy, const Case &conv_case, Direction direction,
                            const Ran &ran = Ran()) const {
    return run_held_back ? nullptr : held_back_by(strategy, conv_case, direction, ran);
  }
};

/// Every layout, what a strategy that reads and writes the canonical tensors takes.
inline const std::vector<DataLayout> every_data_layout = {DataLayout::ncx, DataLayout::nxc};
inline const std::vector<WeightLayout> every_weight_layout = {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi};

/// What a strategy declares it can compute. Empty lists support nothing.
struct Support {
  std::vector<Op> ops;
  std::vector<int64_t> ranks;  ///< spatial dimensions
  std::vector<DType> dtypes;   ///< problems whose tensors and accumulation all use one of these formats
  /// and these combinations of formats besides (rows of core/problem/precision_table.hpp: bf16 storage with f32
  /// accumulation, say). A combination listed nowhere is skipped with the reason.
  std::vector<Precision> precisions = {};
  /// Also problems mixing formats, each of them listed in `dtypes`: what an outside implementation declaring the
  /// formats gets (oracles/outside/declared_support.hpp); a built-in strategy computes one format at a time.
  bool mixed_formats = false;
  std::vector<DataLayout> data_layouts;
  std::vector<WeightLayout> weight_layouts;
  bool crops = false;          ///< negative padding
  /// Per axis of the problem's own, the kernel sizes, strides and dilations taken; empty: any (a Winograd kernel
  /// takes kernel 3, stride 1, dilation 1).
  std::vector<int64_t> kernels, strides, dilations;

  /// Why `problem` is outside this support ("" when it is inside), e.g. "rank 3 is not supported (ranks 2)".
  std::string refusal(const Problem &problem) const;
  /// Why problems of `precision` are outside it ("" when inside): the formats part of `refusal`, and the one answer
  /// to "does it take these formats" that --focus and the outside draw ask too.
  std::string format_refusal(const Precision &precision) const;
  bool takes(const Precision &precision) const { return format_refusal(precision).empty(); }
};

struct Strategy {
  std::string name;
  std::string description; // one line: what it computes and what it supports
  bool injected = false;
  /// An implementation outside convcheck (a command, a server, a plugin: oracles/outside/): a campaign with one draws
  /// only the precision rows every such one takes.
  bool outside = false;
  /// Whether it runs when no --strategies list is given. A strategy too dear for every default campaign (a whole
  /// framework per case) says false and runs when named or with `--strategies all`.
  bool in_default_set = true;
  /// The algorithm class its results are judged under (core/numerics/algorithm.hpp): direct unless it says.
  Algorithm algorithm;
  /// What its declaration said that convcheck could not use (an unknown name, a format no row reaches; an outside
  /// implementation's, oracles/outside/declared_support.hpp): warned at start and kept in every report.
  std::vector<std::string> declaration_warnings = {};
  /// The problems it can compute at all.
  Support supports;
  /// Why `direction` cannot run on a problem inside `supports` ("" or a null function: it can), such as a
  /// workspace over the cap. Such a case is skipped, not failed.
  std::function<std::string(const Problem &, Direction)> unsupported;
  /// The direction's result, canonical layout, the result's format. May throw; that is recorded as a finding.
  std::function<Tensor(const Case &, Direction)> run;
  /// Optional, instead of `run`: the directions from one call, for implementations that compute them together, such
  /// as an external process; a library's, which learns only while running what would run a direction, asks
  /// `asked.held_back` then.
  std::function<RunResults(const Case &, const Asked &asked)> run_case;
  /// Optional: one-time work of the process (oneDNN compiling its GEMM kernels, say), done once by a campaign
  /// before it forks its workers, so that each worker inherits it instead of repeating it on its first case.
  std::function<void()> warm_up;
  /// Optional: who it is (a server's hello, a plugin's name, a library's version), asked once by the process that
  /// runs a campaign or a replay and shown in every report and repro row.
  std::function<ImplementationIdentity()> identity;
  /// Optional: which implementation ran (e.g. oneDNN's impl_info_str), recorded with a finding.
  std::function<std::string(const Case &, Direction)> implementation;
  /// Its loops run at about the definition's speed, many times a BLAS's: on a case over the cost plan's limit it
  /// runs only on a share of cases that shrinks as the case grows (core/run/cost_plan.hpp). --full-check clears it.
  bool cost_planned = false;
  /// Whether the problems of its known library bugs run anyway (each is then a finding again): set on a selection
  /// once, by --run-held-back, and by `corpus run` on an upstream case's strategy; verification reads it here.
  bool run_held_back = false;

  /// Why `direction` of `problem` is skipped: outside `supports`, or `unsupported`'s reason; "" when it runs.
  std::string unsupported_reason(const Problem &problem, Direction direction) const {
    if (std::string refused = supports.refusal(problem); !refused.empty()) return refused;
    return unsupported ? unsupported(problem, direction) : std::string();
  }
};

/// Every registered strategy, real ones first then injected ones, each group sorted by name.
std::vector<const Strategy *> registered_strategies();

/// The registered strategy called `name`, or nullptr.
const Strategy *find_strategy(const std::string &name);

/// Real (not injected) strategies selected by a comma-separated list ("" means the default set, "all" every real
/// one) plus the injected ones named in `inject`; throws InputError naming an unknown, unbuilt or misplaced name.
std::vector<Strategy> select_strategies(const std::string &names, const std::vector<std::string> &inject);

/// File-static registration token.
struct Registration {
  explicit Registration(Strategy strategy);
};

/// A strategy this build does not have, and why (its library was not found when convcheck was configured).
struct UnbuiltStrategy {
  std::string name;
  std::string reason; ///< "libtorch was not found when convcheck was configured (find_package(Torch))"
};

/// Every strategy left out of this build, sorted by name.
std::vector<UnbuiltStrategy> unbuilt_strategies();

/// File-static token of a strategy left out of the build: `convcheck strategies` lists it with the reason, and
/// naming it is an error that gives the reason.
struct UnbuiltRegistration {
  explicit UnbuiltRegistration(UnbuiltStrategy unbuilt);
};

} // namespace convcheck
