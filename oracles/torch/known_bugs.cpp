// PyTorch's known bugs: the rows that hold a direction of `torch` or `torch_native` back (core/run/known_bug.hpp).
// What a row is told ran is ATen's backend ("Mkldnn", "Slow2d", ...), which ATen selects on real tensors, so a row
// asks for it only after its cheaper tests (torch.cpp passes it lazily). ATen does not say which oneDNN kernel its
// Mkldnn backend ran, so the rows of oneDNN bugs reached through it decide by the shape alone
// (oracles/onednn/bug_6035.hpp, bf16_bugs.hpp). docs/findings.md has each write-up.
//
// Versions: the rows from 1.13 were measured on Debian 12's libtorch 1.13.1 (the build before issue 35), and every row
// was run again on PyTorch 2.15.0's libtorch, which convcheck now builds against (CMakeLists.txt); docs/findings.md's
// "PyTorch findings on 2.15" table has each one's evidence. The version compared is the libtorch CMake found
// (Torch_VERSION), the library the module loads. A `fixed_in` is the first version run that was fixed: no version
// between 1.13 and 2.15 was run.

#include <algorithm>

#include "core/numerics/fill_special.hpp"
#include "core/problem/op.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/bf16_bugs.hpp"
#include "oracles/onednn/brgconv_one_column.hpp"
#include "oracles/onednn/bug_6035.hpp"

namespace convcheck {

namespace {

#ifdef CONVCHECK_TORCH_VERSION
std::string torch_version() { return CONVCHECK_TORCH_VERSION; }
#else
std::string torch_version() { return ""; }
#endif

bool bf16(const Case &c) { return c.problem.precision.src == DType::bfloat16; }

/// ATen ran one of its oneDNN backends (a conv's Mkldnn, a deconv's MkldnnTranspose).
bool on_mkldnn(const Ran &ran) { return ran() == "Mkldnn" || ran() == "MkldnnTranspose"; }

bool low_precision(const Case &c) { return bf16(c) || c.problem.precision.src == DType::float16; }

/// Whether two kernel taps of `conv` reach one element of its data gradient: on some axis an output step `o` in
/// [1, out - 1] and a tap step `k` in [1, kernel - 1] with o * stride == k * dilation.
bool taps_overlap(const Problem &conv) {
  for (const SpatialAxis &axis : conv.axes)
    for (int64_t o = 1; o < axis.out(); ++o)
      for (int64_t k = 1; k < axis.kernel; ++k)
        if (o * axis.stride == k * axis.dilation) return true;
  return false;
}

const std::vector<Direction> every_direction = {Direction::output, Direction::grad_data, Direction::grad_weight};
const char *findings = "docs/findings.md#";

const KnownBugRegistration torch_bugs{{
    .library = "PyTorch",
    .version = torch_version,
    .rows =
        {
            {
                .id = "torch-onednn-6035",
                // Still in 2.15.0's bundled oneDNN 3.13.3 (jit_1x1:avx512_core backward_weights): its reproducer
                // crashes with 3 and 4 threads (docs/findings.md).
                .versions = {"1.13", ""},
                .strategies = {"torch"},
                .directions = {Direction::grad_weight},
                .reached =
                    // A deconv's weight gradient on MkldnnTranspose runs the same kernel on its equivalent conv:
                    // oneDNN 3.13.2 wrote past its scratchpad so (`conv:any+jit_1x1:avx2`, the `onednn` deconv
                    // campaign), and the hour-long torch campaign's torch servers under the avx2 cap died of SIGSEGV
                    // on cases that pass alone, as an earlier case's overflow leaves them.
                    [](const Case &c, Direction, const Ran &ran) {
                      const Problem &p = c.problem;
                      return p.precision.src == DType::float32 && has_onednn_6035_shape(equivalent_conv(p)) &&
                             (p.data_layout == DataLayout::nxc || p.weight_layout == WeightLayout::oxi) &&
                             on_mkldnn(ran);
                    },
                .reason = "ATen's Mkldnn weight gradient of a strided 1x1 conv with under 16 input channels per group "
                          "in channels-last memory runs oneDNN's jit_1x1 backward-weights kernel, which writes past its "
                          "scratchpad (heap corruption)",
                .upstream = "oneDNN issue #6035",
                .docs = std::string(findings) +
                        "onednn-26s-jit_1x1-weight-gradient-writes-past-its-scratchpad-reached-through-pytorchs-"
                        "channels_last",
                .why_no_case = "a run corrupts the worker's heap and fails a few cases later, not on the case itself; "
                               "corpus/upstream/onednn-grad_weight-22d0a043a832b052.h5 keeps the bug on oneDNN",
            },
            {
                .id = "torch-bf16-slow-sums",
                // 2.15's bf16 forward rounds once (docs/findings/torch215_lowprec.py); its gradients are the next
                // row's. No version between was run.
                .versions = {"1.13", "2.15"},
                .strategies = {"torch", "torch_native"},
                .directions = every_direction,
                .reached = [](const Case &c, Direction,
                              const Ran &ran) { return bf16(c) && c.problem.op == Op::conv && ran() != "Mkldnn"; },
                .reason = "ATen's own bf16 convolutions (Slow2d, SlowDilated2d, Slow3d, SlowDilated3d) round their sums "
                          "to bfloat16, not once from float32",
                .upstream = "not reported upstream (its forward is fixed in 2.15, measured; its gradients are "
                            "torch-slow-lowp-partial-sums)",
                .docs = std::string(findings) + "aten-113s-own-bf16-convolutions-round-their-sums-to-bf16",
                // Shrunk on an AVX2 host from `check mb1ic1ih3iw3oc1kh2kw2_bf16:bf16:bf16:f32 --strategies
                // torch_native --run-held-back --fill exact`: two products, expected -20378, got -20480.
                .corpus_case = "corpus/regression/torch_native-output-c9f804734c34801d.h5",
            },
            {
                .id = "torch-slow-lowp-partial-sums",
                // Measured on 2.15.0: docs/findings/torch215_lowprec_model.py predicts its results bit for bit. 1.13.1
                // has the bf16 conv gradients of it too, held back there by torch-bf16-slow-sums (all of a bf16 conv),
                // and no f16 or bf16 transposed CPU kernel (skipped with ATen's message): from 2.15, then.
                .versions = {"2.15", ""},
                .strategies = {"torch", "torch_native"},
                .directions = every_direction,
                // The conv forward and a deconv's data gradient round once; a data gradient (a deconv's output)
                // only where taps overlap, a weight gradient only over more than one sample.
                .reached =
                    [](const Case &c, Direction direction, const Ran &ran) {
                      if (!low_precision(c)) return false;
                      const Direction as_conv = conv_direction(c.problem.op, direction);
                      if (as_conv == Direction::output) return false;
                      const Problem conv = equivalent_conv(c.problem);
                      if (as_conv == Direction::grad_weight ? conv.batch <= 1 : !taps_overlap(conv)) return false;
                      return ran().starts_with("Slow");
                    },
                .reason = "ATen's own CPU convolutions keep bf16/f16 partial sums in the tensor's format: a conv's data "
                          "gradient and a deconv's output round each kernel tap's GEMM column and add overlapping "
                          "taps in the format (col2im, col2vol), and both weight gradients add one GEMM per sample "
                          "into the format",
                .upstream = "PyTorch issues #153276 and #153700 (the f16 deconv output); the weight gradients and "
                            "the conv data gradient not reported yet",
                .docs = std::string(findings) + "atens-own-bf16-and-f16-convolutions-round-partial-sums-to-the-"
                                                "format-libtorch-215",
                .why_no_case = "needs libtorch 2.15 (an opt-in build): on 1.13 the bf16 cases are torch-bf16-slow-sums' "
                               "and f16 has no kernel; docs/findings/torch215_lowprec.py shows it with PyTorch alone",
            },
            {
                .id = "torch-bf16-deconv-as-conv",
                // 2.15.0 runs a bf16 deconv on MkldnnTranspose (oneDNN's deconvolution) and gets it right.
                .versions = {"1.13", "2.15"},
                .strategies = {"torch", "torch_native"},
                .directions = every_direction,
                .reached = [](const Case &c, Direction,
                              const Ran &ran) { return bf16(c) && c.problem.op == Op::deconv && ran() == "Mkldnn"; },
                .reason = "ATen's Mkldnn backend computes a bf16 transposed convolution as a plain convolution (it "
                          "ignores transposed)",
                .upstream = "fixed upstream: the MkldnnTranspose backend (pytorch/pytorch#92530, January 2023, so "
                            "PyTorch 2.0) runs it as a deconvolution; 2.15.0 measured right",
                .docs = std::string(findings) + "aten-113-computes-a-bf16-transposed-convolution-as-a-plain-convolution",
                .why_no_case = "tests/oracles/torch/torch_low_precision_test.cpp runs the bug instead",
            },
            {
                .id = "torch-bf16-below-onednn-cap",
                // 2.15.0 under ONEDNN_MAX_CPU_ISA=AVX2 sends bf16 to Slow2d (measured), whose sums are the next rows'.
                .versions = {"1.13", "2.15"},
                .strategies = {"torch"},
                .directions = every_direction,
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      const std::string cap = isa_cap_of(c);
                      return bf16(c) && (cap == "sse41" || cap == "avx2") && ran() == "Mkldnn";
                    },
                .reason = "ATen sends bf16 to its Mkldnn backend by the host's ISA, not oneDNN's cap: under a cap "
                          "below avx512_core oneDNN has no bf16 convolution and ATen throws \"could not create a "
                          "primitive descriptor iterator\"",
                .upstream = "not reported upstream; fixed by 2.15.0 (measured)",
                .docs = std::string(findings) + "aten-113-sends-bf16-to-onednn-by-the-hosts-isa-not-onednns-cap",
                .why_no_case = "needs an AVX-512 host (ATen sends bf16 to Mkldnn only there)",
            },
            {
                .id = "torch-onednn-bf16-wgrad-stride",
                // Still in 2.15.0's oneDNN 3.13.3 (jit_bf16 backward_weights): right on the shrunk shape in a few
                // runs, but the first 2.15 campaign failed three weight gradients of this shape (values that change
                // from run to run, as on 2.6).
                .versions = {"1.13", ""},
                .strategies = {"torch"},
                .directions = {Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      // A deconv's weight gradient on MkldnnTranspose too (2.15 campaign: mb1ic1iw1oc3kw3sw2pl1pr1
                      // and mb1ic1iw1oc2kw5sw3pl2pr2, deconv, OWI weights), whose conv is its equivalent one (the
                      // stride over that conv's input, the deconv's output: `mb1ic2ih1iw2oc2kh1kw5sw2pl3pr3_deconv_nhwc`
                      // of the hour-long campaign, expected 0, got 35).
                      return bf16(c) && has_onednn_bf16_weight_gradient_shape(equivalent_conv(c.problem)) &&
                             on_mkldnn(ran);
                    },
                .reason = "ATen's Mkldnn bf16 weight gradient of a stride larger than its axis's input, or of a 3-D "
                          "depth stride above 1 with depth padding, runs oneDNN's jit_bf16 kernel, which returns "
                          "wrong values",
                .upstream = "not reported upstream yet (the oneDNN row onednn-bf16-wgrad-stride); still in 2.15.0's "
                            "oneDNN 3.13.3",
                .docs = std::string(findings) +
                        "onednn-26s-bf16-kernels-a-weight-gradient-of-an-input-width-of-1-and-a-1x1-data-gradient-with-"
                        "odd-channels",
                .why_no_case = "its kernel needs AVX512-BF16",
            },
            {
                .id = "torch-onednn-bf16-wgrad-3d-deep-kernel",
                // Measured on 2.15.0 (oneDNN 3.13.3): the weight gradient fails with kd3 on id2 (depth padding 1 each
                // side), whatever the other axes, one image or two, and with kh10 on ih8 (mb1ic2id2ih8iw1oc1kd1kh10kw1
                // sh2pt1pb1); passes with id3, kd2, channels-first, and in 2-D with kh over ih. The forward fails the
                // same way (g2mb1ic2id1ih3iw5oc4kd2kh1kw2pfr1pbk1pr1), and so does a deconv's data gradient, its
                // forward conv (g3mb3ic6id1ih7iw3oc3kd3kh1kw2sd3dld3pfr3pbk3pl1, deconv): all held back, on the
                // shape alone, more widely than measured. Found by the 3-D bf16 edge configs and the 2.15 campaign.
                .versions = {"2.15", ""},
                .strategies = {"torch"},
                .directions = every_direction,
                .reached =
                    [](const Case &c, Direction direction, const Ran &ran) {
                      const Problem &p = c.problem;
                      const bool channels_last = p.data_layout == DataLayout::nxc || p.weight_layout == WeightLayout::oxi;
                      const bool kernel_past_input = std::any_of(p.axes.begin(), p.axes.end(), [](const SpatialAxis &axis) {
                        return axis.kernel > axis.in;
                      });
                      return bf16(c) && p.ndims == 3 && channels_last && kernel_past_input &&
                             conv_direction(p.op, direction) != Direction::grad_data &&
                             on_mkldnn(ran);
                    },
                .reason = "ATen's Mkldnn bf16 forward or weight gradient of a 3-D conv in channels-last memory (or a "
                          "deconv's data or weight gradient) with a kernel larger than its input on an axis runs "
                          "oneDNN's bf16 kernels (jit_bf16:avx512_core_bf16 for the weight gradient), which return "
                          "wrong values",
                .upstream = "not reported upstream yet (oneDNN 3.13.3 in PyTorch 2.15.0)",
                .docs = std::string(findings) + "pytorch-findings-on-pytorch-215-issue-35",
                .why_no_case = "its kernel needs AVX512-BF16; `convcheck check mb1ic2id2ih3iw2oc2kd3kh1kw1pfr1pbk1_ndhwc_"
                               "bf16:bf16:bf16:f32 --strategies torch --run-held-back --fill exact` shows it, and "
                               "docs/findings/torch215_bf16_wgrad_3d_deep_kernel.py with PyTorch alone",
            },
            {
                .id = "torch-onednn-brgconv-one-column",
                // Found through ATen by the first 2.15 campaign, pinned down on oneDNN 3.13.2 by the `onednn` row of
                // the same name. ATen hands oneDNN channels-last tensors as they are; on contiguous ones oneDNN runs
                // jit:avx512_core, which is right.
                .versions = {"2.15", ""},
                .strategies = {"torch"},
                .directions = {Direction::output, Direction::grad_data},
                .reached =
                    [](const Case &c, Direction direction, const Ran &ran) {
                      return onednn_may_use(c, "avx512_core") && c.problem.data_layout == DataLayout::nxc &&
                             has_onednn_brgconv_one_column_shape(c.problem, direction) &&
                             on_mkldnn(ran);
                    },
                .reason = "ATen's Mkldnn backend runs oneDNN's brg_conv_fwd on AVX-512 for a channels-last forward "
                          "convolution (or a deconv's data gradient) with a one-column output reached with a width "
                          "stride over 1 from one input channel per group, and it reads the wrong input rows",
                .upstream = "not reported upstream yet (the oneDNN row onednn-brgconv-one-column)",
                .docs = std::string(findings) +
                        "onednn-313s-brg_conv_fwd-gets-a-one-column-output-with-a-width-stride-over-1-wrong",
                .why_no_case = "its kernel needs AVX-512; docs/findings/torch215_brgconv_one_column.py shows it with "
                               "PyTorch alone, and the oneDNN row's corpus case with oneDNN",
            },
            {
                .id = "torch-onednn-bf16-wgrad-dilated-groups",
                // Found by a 20,000-case `--strategies all` campaign on 2.15.0 (`g4mb2ic4ih3iw34oc4kh2kw2dlh3pt1_nhwc`
                // bf16, "expected -0.9168, got -3.6875"); the shape pinned on oneDNN 3.13.2 (the `onednn` row).
                .versions = {"2.15", ""},
                .strategies = {"torch"},
                .directions = {Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      return bf16(c) && c.problem.op == Op::conv && c.problem.data_layout == DataLayout::nxc &&
                             has_onednn_bf16_dilated_groups_shape(c.problem) && onednn_may_use(c, "avx512_core_bf16") &&
                             ran() == "Mkldnn";
                    },
                .reason = "ATen's Mkldnn bf16 weight gradient of a grouped channels-last conv with a dilated outer "
                          "axis runs oneDNN's jit_bf16 kernel, which returns wrong values",
                .upstream = "not reported upstream yet (the oneDNN row onednn-bf16-wgrad-dilated-groups)",
                .docs = std::string(findings) +
                        "onednn-26s-bf16-kernels-a-weight-gradient-of-an-input-width-of-1-and-a-1x1-data-gradient-with-"
                        "odd-channels",
                .why_no_case = "its kernel needs AVX512-BF16; the oneDNN row's corpus case shows it with oneDNN",
            },
            {
                .id = "torch-onednn-bf16-daz",
                // `fuzz --cases 20000 --strategies all --seed 20261203` on 2.15.0, AVX512-BF16 host: 168 torch
                // results of subnormal-filled bf16 cases read as zero (expected 4.8e-39, got 0), on Mkldnn; and with
                // mkldnn on, ATen's own SlowTranspose2d too (`mb1ic36ih1iw3oc38kh1kw1dlh2oph1_deconv`: its bf16 GEMM
                // goes to oneDNN's), which torch_native (mkldnn off) computes right. So any backend of `torch`.
                .versions = {"2.15", ""},
                .strategies = {"torch"},
                .directions = every_direction,
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      return c.special == FillSpecial::subnormal && bf16(c) && onednn_may_use(c, "avx512_core_bf16");
                    },
                .reason = "with mkldnn on, ATen runs bf16 on oneDNN's kernels (its Mkldnn backends, and its own "
                          "backends' GEMMs), which on AVX512-BF16 read bfloat16 subnormal inputs as zero (VDPBF16PS "
                          "treats denormal inputs as zero, as Intel documents it)",
                .upstream = "the instruction's documented behaviour; not a bug report (the oneDNN row onednn-bf16-daz)",
                .docs = std::string(findings) + "subnormal-inputs-read-as-zero-onednns-bf16-kernels-and-xnnpack",
                .why_no_case = "documented behaviour, not a bug: held back so that the subnormal fill judges the others",
            },
            {
                .id = "torch-onednn-bf16-1x1-dgrad-odd",
                // 2.15.0's oneDNN 3.13.3 runs brgconv_1x1 for a conv's data gradient (right), but a bf16 deconv's
                // output, the same computation on MkldnnTranspose, still runs jit_bf16_1x1 and fails (the first 2.15
                // campaign): held back there too, and the conv's kept (ATen does not name the kernel).
                .versions = {"1.13", ""},
                .strategies = {"torch"},
                .directions = {Direction::grad_data, Direction::output},
                .reached =
                    [](const Case &c, Direction direction, const Ran &ran) {
                      const Problem &p = c.problem;
                      const bool channels_last = p.data_layout == DataLayout::nxc || p.weight_layout == WeightLayout::oxi;
                      return bf16(c) && conv_direction(p.op, direction) == Direction::grad_data &&
                             has_onednn_bf16_odd_channels_1x1_shape(equivalent_conv(p), channels_last) &&
                             on_mkldnn(ran);
                    },
                .reason = "ATen's Mkldnn bf16 data gradient of a 1x1 conv (or a deconv's output, on MkldnnTranspose) in "
                          "channels-last memory with an odd number of output channels per group runs oneDNN's "
                          "jit_bf16_1x1 kernel, which returns wrong values",
                .upstream = "not reported upstream yet (the oneDNN row onednn-bf16-1x1-dgrad-odd); still in 2.15.0's "
                            "oneDNN 3.13.3 through a deconv's output",
                .docs = std::string(findings) +
                        "onednn-26s-bf16-kernels-a-weight-gradient-of-an-input-width-of-1-and-a-1x1-data-gradient-with-"
                        "odd-channels",
                .why_no_case = "its kernel needs AVX512-BF16",
            },
        },
}};

} // namespace

} // namespace convcheck
