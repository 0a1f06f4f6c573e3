// Apache TVM's known bugs: the rows that hold a direction of its strategy back (core/run/known_bug.hpp). Its strategy
// is an outside server, so verification asks the table before the server is sent the case (core/run/verify.cpp), and
// each row decides from the problem alone. The version compared is the one the venv's tvm reports (the adapter's
// version probe: asked once per process, and only when a row is reached).

#include <string>

#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

std::string tvm_version() { return adapter_package_version("tvm", "tvm"); }

const KnownBugRegistration tvm_bugs{{
    .library = "TVM",
    .version = tvm_version,
    .rows =
        {
            {
                .id = "tvm-conv2d-gradient-dilation",
                // 0.27.0.post1 run (docs/libraries/tvm.md); the formula is older than Relax's Gradient pass in the
                // wheel, older versions not run.
                .versions = {"0.27", ""},
                .strategies = {"tvm"},
                .directions = {Direction::grad_data, Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      if (p.op != Op::conv || p.ndims != 2) return false; // Relax registers conv2d's gradient only
                      for (const SpatialAxis &axis : p.axes) // unit axes: dilation 1, kernel 1
                        if (axis.dilation > 1 && axis.kernel > 1) return true;
                      return false;
                    },
                .reason = "Relax's conv2d gradient sizes grad_data's conv2d_transpose without the dilation: its "
                          "output_padding comes out (dilation - 1) * (kernel - 1) too large, so Gradient raises "
                          "'Conv2dTranspose expects the output padding less than the strides' or grad_data has the "
                          "wrong shape",
                .upstream = "not reported upstream yet (draft: docs/findings.md)",
                .docs = "docs/findings.md#tvms-relax-conv2d-gradient-leaves-out-the-dilation-refused-or-wrong-shape",
                .why_no_case = "the corpus replays built-in strategies; ctest tvm_server runs this one with the "
                               "hold-back lifted and fails when TVM no longer shows the bug",
            },
        },
}};

} // namespace

} // namespace convcheck
