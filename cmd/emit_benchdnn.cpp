// `repro --emit benchdnn`: the benchdnn command line a oneDNN maintainer pastes (core/problem/benchdnn_writer.hpp),
// for its conv or deconv driver by the case's op, with the layouts the finding ran on: for an `onednn` finding those
// of the case's oneDNN path (format_tag::any where oneDNN chose, oracles/onednn/onednn.hpp), its ISA cap as
// ONEDNN_MAX_CPU_ISA and its accumulation mode as --attr-acc-mode; for a case without a finding (or, --emit-anyway, another strategy's) the case's own layouts,
// so oneDNN can be checked on the same problem. `check --format benchdnn` reads the lines back (ctest
// benchdnn_roundtrip), and a note says which problem where benchdnn derives another end padding.

#include <fmt/format.h>

#include "cmd/emit.hpp"
#include "core/input_error.hpp"
#include "core/problem/benchdnn_writer.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/precision_table.hpp"
#include "oracles/onednn/accumulation_modes.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {

namespace {

/// benchdnn's `--dt=SRC:WEI:DST` (one word when the three are one format). It accumulates in f64 when every tensor is f64 and in f32 otherwise
/// (core/problem/benchdnn_precision.hpp), so a case summed in another format (f32 tensors with f64 sums) has no
/// benchdnn line: an InputError naming the case.
std::string benchdnn_dt(const Problem &problem, const std::string &case_path) {
  const Precision &p = problem.precision;
  const DType implied = p.single() == DType::float64 ? DType::float64 : DType::float32;
  if (p.acc != implied)
    throw InputError(fmt::format("repro --emit benchdnn: {} is {}, summed in {}, and benchdnn sums {} tensors in {}",
                                 case_path, format_descriptor(problem), to_string(p.acc), precision_words(p),
                                 to_string(implied)));
  if (p.src == p.weight && p.src == p.dst) return info(p.src).word; // one word for all three
  return fmt::format("{}:{}:{}", info(p.src).word, info(p.weight).word, info(p.dst).word);
}

std::string command_line(const CaseFile &case_file, Direction direction, const std::string &dt) {
  const Case &c = case_file.conv_case;
  const Problem &problem = c.problem;
  const bool onednn = case_file.finding && case_file.finding->strategy == "onednn";
  const OnednnPath path = onednn ? onednn_path(c) : OnednnPath::plain;
  const std::string data = path == OnednnPath::blocked ? "any" : benchdnn_data_tag(problem.data_layout, problem.ndims);
  const WeightLayout weight_layout = onednn ? onednn_weight_layout(problem, path) : problem.weight_layout;
  const std::string weight = path == OnednnPath::plain
                                 ? benchdnn_weight_tag(weight_layout, problem.groups > 1, problem.ndims, problem.op)
                                 : "any";
  const std::string cap = isa_cap_of(c);
  const std::string isa = onednn_isa_value(cap);
  // The accumulation mode an `onednn` finding's primitives were created with (oracles/onednn/accumulation_modes.hpp);
  // none set is benchdnn's default too (strict).
  const std::string mode = onednn ? acc_mode_of(c) : "";
  std::string note;
  // A deconv's output size is spelled out: only its split into pad_end and output_padding can read back
  // differently (benchdnn has no output_padding; its end padding carries it).
  if (with_derived_pad_end(problem) != problem)
    note = problem.op == Op::conv
               ? fmt::format("# benchdnn derives each end padding from the output size: {} here, the same convolution "
                             "(no window reaches past it), which oneDNN may refuse where the case's was a crop\n",
                             format_descriptor(with_derived_pad_end(problem)))
               : fmt::format("# benchdnn has no output_padding: it derives each end padding from the output size, "
                             "which reads back as {}, the same deconvolution (the same output rows), which oneDNN may "
                             "refuse where an end padding comes out negative\n",
                             format_descriptor(with_derived_pad_end(problem)));
  // convcheck hands oneDNN its scratchpad (user mode): that is where #6035 writes past. It runs oneDNN on one
  // thread, and `taskset -c 0` makes benchdnn's (TBB's or OpenMP's) pool one thread too: some bugs show only there.
  // benchdnn's driver is the op (--conv, --deconv), and --dir the op's own direction.
  return note + fmt::format("{}taskset -c 0 ./benchdnn --{} --dir={} --dt={} --stag={} --wtag={} --dtag={} --alg=direct "
                     "--attr-scratchpad=user {}{}\n",
                     isa.empty() ? "" : fmt::format("ONEDNN_MAX_CPU_ISA={} ", isa),
                     to_string(problem.op), benchdnn_dir(direction), dt, data, weight, data,
                     mode.empty() ? "" : fmt::format("--attr-acc-mode={} ", mode), benchdnn_descriptor(problem));
}

} // namespace

std::string emit_benchdnn(const CaseFile &case_file, const std::string &case_path) {
  const Problem &problem = case_file.conv_case.problem;
  const std::string dt = benchdnn_dt(problem, case_path);
  std::string text = fmt::format("# {}: {}\n", case_path, format_descriptor(problem));
  if (case_file.finding) {
    text += fmt::format("# {} {}: {}\n", case_file.finding->strategy, to_string(case_file.finding->direction),
                        case_file.finding->problem);
    if (!case_file.finding->implementation.empty()) text += fmt::format("# ran {}\n", case_file.finding->implementation);
    return text + command_line(case_file, case_file.finding->direction, dt);
  }
  for (const DirectionInfo &each : directions(problem.op)) text += command_line(case_file, each.direction, dt);
  return text;
}

} // namespace convcheck
