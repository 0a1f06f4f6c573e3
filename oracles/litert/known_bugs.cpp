// LiteRT's known bugs: the rows that hold a direction of its strategies back (core/run/known_bug.hpp). Its strategies
// are outside servers, so verification asks the table before the server is sent the case (core/run/verify.cpp), and
// each row decides from the problem as litert_server.py writes its model (oracles/litert/tflite_model.py). The
// version compared is the one the venv's ai-edge-litert reports (the adapter's version probe: asked once per process,
// and only when a row is reached).

#include <cstdlib>
#include <string>

#include "core/numerics/fill_special.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

std::string litert_version() { return adapter_package_version("litert_builtin", "ai-edge-litert"); }

/// The Interpreter's threads the servers run with: CONVCHECK_LITERT_THREADS, which the server reads from the
/// environment convcheck passes it (litert_server.py), 1 where unset.
int litert_threads() {
  const char *threads = std::getenv("CONVCHECK_LITERT_THREADS");
  return threads != nullptr ? std::atoi(threads) : 1;
}

/// Whether the server writes `p` as a DEPTHWISE_CONV_2D: a 1-D or 2-D conv with groups == in_channels > 1.
bool depthwise(const Problem &p) {
  return p.op == Op::conv && p.ndims <= 2 && p.groups > 1 && p.groups == p.in_channels;
}

/// Whether the server writes `p` as one CONV_2D with SAME padding (its padding exactly TFLite's, not all zero) whose
/// filter is as large as the input: then TFLite's SAME padding before is 0 on every axis, so each axis is either
/// 2 long with stride 1 and one row of padding at the end, or no longer than its stride without padding.
bool same_padding_full_filter(const Problem &p) {
  if (p.op != Op::conv || p.ndims > 2 || p.groups != 1) return false;
  bool padded = false;
  for (const SpatialAxis &axis : p.axes) { // unit axes: in and kernel 1, no padding
    if (axis.dilation != 1 || axis.kernel != axis.in || axis.pad_begin != 0) return false;
    if (axis.in == 2 && axis.stride == 1 && axis.pad_end == 1) padded = true;
    else if (axis.pad_end != 0 || axis.in > axis.stride) return false;
  }
  return padded;
}

const KnownBugRegistration litert_bugs{{
    .library = "LiteRT",
    .version = litert_version,
    .rows =
        {
            {
                .id = "litert-depthwise-wide-output-hang",
                // 1.0.1, ai-edge-litert's first release, and 2.3.0 checked (docs/libraries/litert.md): the kernel is
                // older (TensorFlow Lite's), not run here.
                .versions = {"1.0", ""},
                .strategies = {"litert_builtin"},
                .directions = {Direction::output},
                .reached = [](const Case &c, Direction,
                              const Ran &) { return depthwise(c.problem) && c.problem.out_channels > 4832; },
                .reason = "the builtin optimized float DEPTHWISE_CONV_2D never returns for more than 4,832 output "
                          "channels: its stack accumulator holds 4,832 floats, 4832 / output_depth output pixels a "
                          "pass is 0, and its loop over the output columns advances by 0 (the TFLITE_DCHECK is "
                          "compiled out)",
                .upstream = "not reported upstream yet (draft: docs/findings.md)",
                .docs = "docs/findings.md#litert-builtin-depthwise-conv-never-returns-past-4832-output-channels",
                .why_no_case = "the corpus replays built-in strategies; docs/findings/"
                               "litert_depthwise_wide_output_hang.py shows it with LiteRT alone",
            },
            {
                .id = "litert-eigen-conv-same-full-filter",
                // 1.0.1 and 2.3.0 checked; the multithreaded Eigen kernel runs only with more than one Interpreter
                // thread.
                .versions = {"1.0", ""},
                .strategies = {"litert_builtin"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      return litert_threads() > 1 && same_padding_full_filter(c.problem);
                    },
                .reason = "the builtin float CONV_2D on more than one thread (the multithreaded Eigen kernel) takes "
                          "its 'filter as large as the input' matrix-product shortcut for SAME padding whose padding "
                          "before is 0, and computes one output pixel per image: the others keep what the buffer "
                          "held, and with several images each lands at another's place",
                .upstream = "not reported upstream yet (draft: docs/findings.md)",
                .docs = "docs/findings.md#litert-multithreaded-conv_2d-computes-one-pixel-for-same-padding-with-a-"
                        "filter-as-large-as-the-input",
                .why_no_case = "the corpus replays built-in strategies; docs/findings/"
                               "litert_eigen_conv_same_full_kernel.py shows it with LiteRT alone",
            },
            {
                .id = "litert-denormals-off",
                .versions = {"1.0", ""},
                .strategies = {"litert_xnnpack", "litert_builtin"},
                .directions = {Direction::output},
                // ctest litert_server (1,000 cases of seed 7): 30 litert_xnnpack outputs of subnormal inputs came
                // back 0, e.g. expected 3.6e-39, got 0, and litert_builtin's too (expected 1.15e-38, got 0).
                .reached = [](const Case &c, Direction, const Ran &) { return c.special == FillSpecial::subnormal; },
                .reason = "its kernels (the XNNPACK delegate's, and the builtin ones) run with denormals off: "
                          "subnormal inputs are read as zero, by design (XNNPACK's own row: xnnpack-denormals-off)",
                .upstream = "by design; not a bug report",
                .docs = "docs/findings.md#subnormal-inputs-read-as-zero-onednns-bf16-kernels-and-xnnpack",
                .why_no_case = "documented behaviour, not a bug: held back so that the subnormal fill judges the "
                               "others",
            },
        },
}};

} // namespace

} // namespace convcheck
