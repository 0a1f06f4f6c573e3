// XNNPACK's known bugs: the rows that hold a direction of `xnnpack` back (core/run/known_bug.hpp). XNNPACK names
// no kernel (xnn_operator is opaque), so each row decides from the problem alone (deconv_shape.hpp), and
// verification asks the table before the strategy runs (core/run/verify.cpp).
//
// Versions: XNNPACK has no version of its own at run time; Debian 12's package is 0.0~git20220216.ae108ef, so the
// version compared is the commit's date. The subconv2d crash is fixed upstream by February 2026 (the XNNPACK of
// LiteRT 2.3, issue 37), not yet run here: `fixed_in` waits for that run.

#include "core/numerics/fill_special.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/xnnpack/deconv_shape.hpp"

namespace convcheck {

namespace {

const KnownBugRegistration xnnpack_bugs{{
    .library = "XNNPACK",
    .version = [] { return std::string("2022-02-16"); },
    .rows =
        {
            {
                .id = "xnnpack-subconv2d-short-output",
                .versions = {"2022-02-16", ""},
                .strategies = {"xnnpack"},
                .directions = {Direction::output},
                // Measured on every 1-D and 2-D probe of stride 3 to 5, kernel 3 to 5, input 1 to 2, paddings 0 to 4
                // with outputs 1 to stride long: 268 problems, 101 failed (99 SIGSEGV, 2 wrong values), every one
                // with an output shorter than stride - 1; stride 2 never failed.
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      if (p.op != Op::deconv || !subconv2d(p)) return false;
                      for (const SpatialAxis *axis : {&p.height(), &p.width()})
                        if (deconv_output(*axis) < axis->stride - 1) return true;
                      return false;
                    },
                .reason = "the subconv2d deconvolution crashes or returns wrong values where an output is shorter than "
                          "the stride less 1",
                .upstream = "fixed upstream (XNNPACK, February 2026) before it was reported",
                .docs = "docs/findings.md#xnnpack-ae108efs-subconv2d-deconvolution-crashes-on-an-output-shorter-than-"
                        "its-stride-less-1",
                // `check mb1ic1iw1oc1kw3sw3pl1pr1_deconv --strategies xnnpack --run-held-back`: SIGSEGV.
                .corpus_case = "corpus/upstream/xnnpack-output-7d28530ef0ef93d0.h5",
            },
            {
                .id = "xnnpack-denormals-off",
                .versions = {"2022-02-16", ""},
                .strategies = {"xnnpack"},
                .directions = {Direction::output},
                // `fuzz --strategies xnnpack --fill-special subnormal --cases 300 --seed 1`: 37 of 142 outputs judged
                // wrong, every one of a subnormal input read as zero; none in the other kinds.
                .reached = [](const Case &c, Direction, const Ran &) { return c.special == FillSpecial::subnormal; },
                .reason = "XNNPACK turns denormals off (flush-to-zero, denormals-are-zero) while an operator runs: "
                          "subnormal inputs are read as zero, by design",
                .upstream = "by design (XNNPACK's xnn_run_operator disables denormals); not a bug report",
                .docs = "docs/findings.md#subnormal-inputs-read-as-zero-onednns-bf16-kernels-and-xnnpack",
                .why_no_case = "documented behaviour, not a bug: held back so that the subnormal fill judges the "
                               "others; the planted half_input_daz shows the fill finds it",
            },
        },
}};

} // namespace

} // namespace convcheck
