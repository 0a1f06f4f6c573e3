#pragma once
// The options of a oneDNN benchdnn conv or deconv batch file as convcheck reads them (tests/benchdnn/conv/
// bench_conv.cpp and utils/parser.cpp): each option sets a driver setting that persists, through includes, until
// `--reset` puts every setting back to its default. Most settings are lists (`--dir=FWD_B,BWD_D`, `--dt=f32,bf16`),
// and each descriptor runs once per combination of their values (benchdnn's check_correctness loops).
//
// What each option does to the problem convcheck judges is a row of one table (benchdnn_options()):
// - applied: --dir, --dt (and the older --cfg), --stag/--wtag/--dtag, --mb, --match;
// - no effect: options that choose how oneDNN runs a problem, not which (--alg, --skip-impl, --impl,
//   --attr-scratchpad, --ctx-init, ...); their values still multiply the runs, as in benchdnn;
// - unmodelled: options that change the problem in a way convcheck does not model (post-ops, scales, zero points,
//   --attr-fpmath, --bia-dt, memory --strides, ...): a run with a value other than the option's default is skipped,
//   counted under the option's name.
// An option the table does not know is kept like an unmodelled one with no default: every run under it is skipped,
// counted under its name.

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "core/problem/benchdnn_precision.hpp"
#include "core/problem/direction.hpp"

namespace convcheck {

enum class OptionEffect { applied, no_effect, unmodelled };

/// One benchdnn option as convcheck reads it.
struct BenchdnnOption {
  const char *name;            ///< "attr-post-ops": the option without its leading `--`
  OptionEffect effect;
  bool list;                   ///< a comma-separated list, each value a run of its own
  std::vector<std::string> defaults; ///< an unmodelled option's values that leave the problem as convcheck models it
};

/// Every option convcheck knows, applied ones first.
const std::vector<BenchdnnOption> &benchdnn_options();

/// One value of `--dt`: the option spelled with it ("--dt=u8:s8:u8") and the precision, or why convcheck cannot take it (an integer
/// or 8-bit float format, a combination that is no row of the precision table).
struct BenchdnnDt {
  std::string spelled;
  std::optional<Precision> precision;
};

/// The settings a descriptor runs under: benchdnn's defaults (FWD_B, f32, tags any, mb 0: the descriptor's own)
/// until options change them.
struct BenchdnnSettings {
  std::vector<std::pair<std::string, Direction>> dirs{{"FWD_B", Direction::output}};
  std::vector<BenchdnnDt> dts{{"--dt=f32", Precision{}}};
  std::vector<std::string> stags{"any"}, wtags{"any"}, dtags{"any"};
  std::vector<int64_t> mbs{0};
  std::string match;                 // the --match pattern ("" none)
  std::optional<std::regex> pattern; // compiled
  /// The other options set since the last --reset, in the order first set: name and values (one value for a
  /// non-list option); their effect is looked up in benchdnn_options() (unknown: not there).
  std::vector<std::pair<std::string, std::vector<std::string>>> others;

  /// Applies one option word (`--dir=BWD_D,BWD_W`, `--reset`; an empty list, `--stag=`, is the option's default);
  /// `--batch` is the reader's. Throws InputError with
  /// the option and the malformed value ("--mb=x: 'x' is not a batch size").
  void apply(const std::string &word);
};

/// The option named in `word` ("--attr-post-ops=relu": "attr-post-ops").
std::string benchdnn_option_name(const std::string &word);

/// The row of `name`, or nullptr for an option the table does not know.
const BenchdnnOption *find_benchdnn_option(const std::string &name);

} // namespace convcheck
