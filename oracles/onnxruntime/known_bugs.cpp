// ONNX Runtime's known bugs: the rows that hold a direction of its strategies back (core/run/known_bug.hpp). Its
// strategies are outside servers, so verification asks the table before the server is sent the case
// (core/run/verify.cpp), and each row decides from the problem alone. The version compared is the one the venv's
// onnxruntime reports (the adapter's version probe: asked once per process, and only when a row is reached).

#include <string>

#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

std::string onnxruntime_version() { return adapter_package_version("onnxruntime", "onnxruntime"); }

const KnownBugRegistration onnxruntime_bugs{{
    .library = "ONNX Runtime",
    .version = onnxruntime_version,
    .rows =
        {
            {
                .id = "onnxruntime-convtranspose-output-padding",
                // 1.26.0 and 1.27.0 return wrong values, 1.28.0 to 1.32.0 refuse at run time (each run:
                // docs/libraries/onnxruntime.md); older versions not run.
                .versions = {"1.26", ""},
                .strategies = {"onnxruntime"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      if (p.op != Op::deconv) return false;
                      for (const SpatialAxis &axis : p.axes) // unit axes: output_padding 0, stride 1
                        if (axis.output_padding >= axis.stride) return true;
                      return false;
                    },
                .reason = "ConvTranspose with an output_padding >= its stride (< its dilation, which its own first "
                          "check allows) returns wrong values up to 1.27 and is refused with INVALID_ARGUMENT "
                          "'Computed output shape is inconsistent with input spatial dimensions' from 1.28",
                .upstream = "microsoft/onnxruntime#14208 (the wrong values, closed as stale); the refusal not reported",
                .docs = "docs/findings.md#onnx-runtimes-convtranspose-with-output_padding--stride-wrong-values-up-to-"
                        "127-refused-from-128",
                .why_no_case = "the corpus replays built-in strategies; ctest onnxruntime_server runs this one with the "
                               "hold-back lifted and fails when ONNX Runtime no longer shows the bug",
            },
        },
}};

} // namespace

} // namespace convcheck
