#include "oracles/onednn/accumulation_modes.hpp"

#include <fmt/format.h>

#include "core/numerics/dispatch_setting.hpp"

namespace convcheck {

namespace {

/// The values, each needing nothing of the host (a mode is an attribute, not an ISA). Lowest first is the dispatch
/// settings' order; here, the strictest first.
std::vector<DispatchValue> modes() {
  return {{"strict", "strict", {}}, {"f32", "f32", {}}, {"relaxed", "relaxed", {}}, {"any", "any", {}},
          {"f16", "f16", {}}};
}

/// A campaign's modes by slot: 11 of 16 cases set none (oneDNN's default, as every case ran before the setting), 3
/// set strict explicitly, 1 relaxed and 1 any. relaxed and any widen the bound of the bfloat16 and float16 rows to
/// sums kept in their format (in bfloat16 about n/128 of the sum of |products| for n terms, and no bound at all past
/// 126 terms), so they are kept to an eighth of the cases. f32 and f16 run when named with --acc-modes: oneDNN 3.13
/// refuses both for every convolution (docs/libraries/onednn.md), and a refusal is an error, not a skip.
std::vector<std::string> default_slots(const std::vector<std::string> &) {
  std::vector<std::string> slots(11, "");
  slots.insert(slots.end(), {"strict", "strict", "strict", "relaxed", "any"});
  return slots;
}

const DispatchSettingRegistration registration{{
    acc_mode_setting,
    "oneDNN",
    "accumulation mode",
    "onednn and onednn_auto",
    "",
    "", // no environment variable: each primitive gets it as an attribute
    "acc-modes",
    "", // no server: every mode runs in the worker's own process
    modes(),
    0x6163632d6d6f6465ULL,
    default_slots,
    "none set (oneDNN's strict) for 11/16 of the cases, strict set for 3/16, relaxed and any 1/16 each; f32 and f16 "
    "when named (oneDNN 3.13's convolutions refuse them)",
}};

/// The narrower of two formats, by unit roundoff.
DType narrower(DType a, DType b) { return info(a).unit_roundoff >= info(b).unit_roundoff ? a : b; }

/// Direct with sums in `format`, or direct where `format` is no narrower than the problem's accumulation.
Algorithm sums_in(DType format, const Problem &problem) {
  if (info(format).unit_roundoff <= info(problem.precision.acc).unit_roundoff) return {};
  Algorithm algorithm;
  algorithm.storage_sums = true;
  algorithm.sums_format = format;
  return algorithm;
}

} // namespace

std::string acc_mode_of(const Case &conv_case) { return setting_of(conv_case, acc_mode_setting); }

AccumulationClass accumulation_class(const std::string &mode, const Problem &problem, Direction direction) {
  if (mode.empty() || mode == "strict" || mode == "f32") return {};
  const Precision &p = problem.precision;
  // src/dst of every direction's primitive: src and dst, diff_src and diff_dst, or src and diff_dst; the result (a
  // weight gradient's diff_weights) joins them, so that it is never narrower than the sums and is their last value.
  const DType narrowest = narrower(narrower(p.src, p.dst), result_dtype(problem, direction));
  if (mode == "relaxed" || mode == "any") return {sums_in(narrowest, problem), ""};
  if (mode == "f16") {
    if (narrowest == DType::float16) return {sums_in(DType::float16, problem), ""};
    return {{},
            fmt::format("accumulation mode f16 on {} data: float16 sums overflow where {} does not, which no bound "
                        "here models",
                        to_string(narrowest), to_string(narrowest))};
  }
  return {{}, fmt::format("unknown accumulation mode '{}'", mode)};
}

std::string onednn_accumulation_mode_c_name(const std::string &mode) {
  return mode.empty() ? "" : "dnnl_accumulation_mode_" + mode;
}

} // namespace convcheck
