// oneDNN's known bugs: the rows that hold a direction back from a oneDNN kernel known to get it wrong
// (core/run/known_bug.hpp). Each was found by convcheck, reduced to a standalone C program and written up in
// docs/findings.md; the measurements behind each predicate are there and in bug_6035.hpp and bf16_bugs.hpp. What a
// row is told ran is onednn_ran's "IMPLEMENTATION (PATH path)": the kernel oneDNN chose and the path the case's
// tensors took (a blocked path hands oneDNN no channels-last tensor).
//
// Versions: the 2.6 rows were found on Debian 12's oneDNN 2.6.3 and re-checked on 3.13.2 (docs/findings.md,
// "Re-checked on the current versions"); a row's range ends where a fix is known (the release that first carries
// the fixing commit) and is open where 3.13.2 still showed the bug or was not reached. The Winograd row went with
// the kernel (x64 Winograd was deleted in v3.2, and with it the `onednn_winograd` strategy). The row found on 3.13.2
// starts there: 2.6 is no longer installed to say whether it had it.

#include <algorithm>

#include "core/numerics/fill_special.hpp"
#include "core/problem/op.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/onednn/bf16_bugs.hpp"
#include "oracles/onednn/brgconv_one_column.hpp"
#include "oracles/onednn/bug_6035.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {

namespace {

bool starts_with(const std::string &text, const char *prefix) { return text.rfind(prefix, 0) == 0; }

/// The kernel that ran, without the prefix a deconvolution adds for the convolution it runs ("conv:any+").
std::string conv_kernel(const std::string &implementation) {
  const std::string deconv_prefix = "conv:any+";
  return starts_with(implementation, deconv_prefix.c_str()) ? implementation.substr(deconv_prefix.size()) : implementation;
}

bool on_blocked_path(const std::string &implementation) {
  return implementation.find("(blocked path)") != std::string::npos;
}

// An outer axis (depth or height) padded at the beginning and cropped at the end.
bool padded_then_cropped_outer_axis(const Problem &problem) {
  for (int64_t index = problem.first_axis(); index < max_ndims - 1; ++index) {
    const SpatialAxis &axis = problem.axes[static_cast<size_t>(index)];
    if (axis.pad_begin > 0 && axis.pad_end < 0) return true;
  }
  return false;
}

const std::vector<std::string> every_onednn_strategy = {"onednn", "onednn_auto"};

const KnownBugRegistration onednn_bugs{{
    .library = "oneDNN",
    .version = onednn_version,
    .rows =
        {
            {
                .id = "onednn-6035",
                .versions = {"2.6", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_weight},
                // A deconv's weight gradient is oneDNN's conv weight gradient of its equivalent conv (op.hpp).
                // 3.13.2 also wraps jit_1x1 for a channels-first source ("jit_uni_ncsp:conv+jit_1x1:avx512_core",
                // which reorders it to channels-last): with two threads or more it wrote past its scratchpad too
                // (bug_6035.hpp).
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      if (!has_onednn_6035_shape(equivalent_conv(c.problem)) || on_blocked_path(ran())) return false;
                      // jit_bf16_1x1 too: its bf16 weight gradient wrote 352 bytes past a 2,986-byte scratchpad on
                      // `mb1ic1ih6iw7oc1kh1kw1sh2_nhwc` (a focused bf16 campaign on 3.13.2).
                      // A deconv's weight gradient runs it behind "conv:any+" (a focused deconv campaign: 24 bytes
                      // past the scratchpad on `mb1ic1ih2iw10oc1kh1kw1sh3oph2_deconv_nhwc`, jit_1x1:avx2).
                      const std::string kernel = conv_kernel(ran());
                      const bool one_by_one = starts_with(kernel, "jit_1x1") || starts_with(kernel, "jit_bf16_1x1");
                      return (c.problem.data_layout == DataLayout::nxc && one_by_one) ||
                             starts_with(kernel, "jit_uni_ncsp:conv+jit_1x1") ||
                             starts_with(kernel, "jit_uni_ncsp:conv+jit_bf16_1x1");
                    },
                .reason = "the jit_1x1 weight gradient of a strided 1x1 conv on a channels-last source (or reordered "
                          "to one) with under 16 input channels per group writes past its per-thread part of the "
                          "scratchpad: past its end on one thread, into another thread's part (wrong values) on more",
                .upstream = "oneDNN issue #6035",
                .docs = "docs/findings.md#onednn-26s-jit_1x1-weight-gradient-writes-past-its-scratchpad-reached-"
                        "through-pytorchs-channels_last",
                .corpus_case = "corpus/upstream/onednn-grad_weight-1af70a319c8f3de2.h5",
            },
            {
                .id = "onednn-jit-wgrad-crop",
                .versions = {"2.6", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_weight},
                // jit:avx2 alone: on 3.13.2 jit:avx512_core and the plain path's gemm (behind jit_uni_ncsp) compute
                // its problems right (docs/findings.md); 2.6's sse41 kernel did too.
                // A deconv's weight gradient runs the kernel on its own padding ("conv:any+jit:avx2"): the default
                // campaign of 3.13.2 found `mb1ic2ih1iw5oc1kh4kw13sh3pt1pb-2oph1_deconv_nhwc_hwio` writing 3,848
                // bytes past diff_weights.
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      return padded_then_cropped_outer_axis(c.problem) && starts_with(conv_kernel(ran()), "jit:avx2");
                    },
                .reason = "the jit:avx2 weight gradient reads past diff_dst when an outer axis is padded at the beginning "
                          "and cropped at the end: wrong results, heap corruption or a crash",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-26s-jit-weight-gradient-reads-past-diff_dst-when-an-outer-axis-is-"
                        "padded-at-the-beginning-and-cropped-at-the-end",
                .corpus_case = "corpus/upstream/onednn-grad_weight-7e71acf0a1041df7.h5",
            },
            {
                .id = "onednn-brgconv-one-column",
                .versions = {"3.13", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::output, Direction::grad_data},
                // Measured on 3.13.2, f32 (docs/findings.md): of the swept problems with a one-column output and a
                // width stride over 1 that ran brg_conv_fwd:avx512_core, 1,041 of 1,680 with one input channel wrong
                // on one thread (1,415 on two), 0 of 5,030 with two input channels; none on brg_conv_fwd:avx2, none
                // with stride 1 or two columns out. Its bf16 kernel the same through PyTorch 2.15 (grouped).
                .reached =
                    [](const Case &c, Direction direction, const Ran &ran) {
                      return has_onednn_brgconv_one_column_shape(c.problem, direction) &&
                             ran().find("brg_conv_fwd:avx512_core") != std::string::npos;
                    },
                .reason = "brg_conv_fwd on AVX-512 computes a one-column output reached with a width stride over 1, "
                          "from one input channel per group, from the wrong input rows",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-313s-brg_conv_fwd-gets-a-one-column-output-with-a-width-stride-"
                        "over-1-wrong",
                .corpus_case = "corpus/upstream/onednn-output-855c6ca97eab92fe.h5",
            },
            {
                .id = "onednn-brgconv-weights-overread",
                .versions = {"3.13", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::output, Direction::grad_data},
                // Found by a focused campaign on 3.13.2 (`mb1ic1281ih1iw1oc1kh1kw1pb1`, any_weights path: NaN where the
                // reference is 184): the kernel reads the float just past its weights buffer, which convcheck's
                // guard makes a NaN. 1,281, 1,282 and 1,297 input channels failed; 1,280, 1,296 and fewer passed.
                .reached =
                    [](const Case &c, Direction direction, const Ran &ran) {
                      // The forward conv it runs: a conv's output, a deconv's data gradient (from diff_dst, whose
                      // channels are the deconv's output channels: `mb1ic1ih2iw1oc1281kh1kw1pb1_deconv`, NaN, found
                      // by a focused deconv campaign).
                      if (conv_direction(c.problem.op, direction) != Direction::output) return false;
                      const int64_t channels = equivalent_conv(c.problem).in_channels_per_group();
                      return channels > 1280 && channels % 16 != 0 &&
                             ran().find("brg_conv_fwd:avx512_core") != std::string::npos;
                    },
                .reason = "brg_conv_fwd on AVX-512 reads past the end of its weights with over 1,280 input channels "
                          "per group that are not a multiple of 16",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-313s-brg_conv_fwd-reads-past-its-weights-with-over-1280-input-channels",
                .corpus_case = "corpus/upstream/onednn-output-2f63cc121589200a.h5",
            },
            {
                .id = "onednn-bf16-wgrad-stride",
                .versions = {"2.6", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      return c.problem.precision.src == DType::bfloat16 &&
                             has_onednn_bf16_stride_over_input_shape(c.problem) && starts_with(ran(), "jit_bf16:");
                    },
                .reason = "the jit_bf16 weight gradient of a stride larger than its axis's input returns what it never "
                          "wrote",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-26s-bf16-kernels-a-weight-gradient-of-an-input-width-of-1-and-a-1x1-"
                        "data-gradient-with-odd-channels",
                .why_no_case = "its wrong values are whatever memory held, so a case passes some runs: "
                               "tests/oracles/onednn/onednn_low_precision_test.cpp checks the hold-back instead",
            },
            {
                .id = "onednn-bf16-wgrad-depth-stride",
                .versions = {"2.6", "3.1"},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      return c.problem.precision.src == DType::bfloat16 &&
                             has_onednn_bf16_depth_stride_padding_shape(c.problem) && starts_with(ran(), "jit_bf16:");
                    },
                .reason = "the jit_bf16 weight gradient of a 3-D depth stride above 1 with depth padding returns wrong "
                          "values",
                .upstream = "fixed by oneDNN d5c259b46c (v3.1); not reported by us",
                .docs = "docs/findings.md#onednn-26s-bf16-kernels-a-weight-gradient-of-an-input-width-of-1-and-a-1x1-"
                        "data-gradient-with-odd-channels",
                .why_no_case = "fixed before a case was kept (oneDNN 3.1); tests/oracles/onednn/"
                               "onednn_low_precision_test.cpp checks that 3.13 runs and passes its problem",
            },
            {
                .id = "onednn-bf16-wgrad-depth-kernel-over-input",
                .versions = {"3.13", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      return c.problem.precision.src == DType::bfloat16 &&
                             has_onednn_bf16_depth_kernel_over_input_shape(c.problem) && starts_with(ran(), "jit_bf16:");
                    },
                .reason = "the jit_bf16 weight gradient of a 3-D conv whose depth kernel is longer than the input "
                          "depth, padded at both ends, returns wrong values",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-313s-jit_bf16-weight-gradient-of-a-depth-kernel-longer-than-the-"
                        "input-padded-at-both-ends",
                .corpus_case = "corpus/upstream/onednn-grad_weight-ee989e7d9aa543d6.h5",
            },
            {
                .id = "onednn-bf16-wgrad-dilated-groups",
                .versions = {"2.6", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_weight},
                // The 2.6 entry's third shape (`g2mb1ic2ih2iw29oc2kh1kw2dlh2dlw2pr2_nhwc`), found again by the
                // README's campaign on 3.13.2 (`g6mb1ic6ih6iw37oc6kh1kw5dlh2dlw2pr2_nhwc_ohwi`), pinned by a sweep.
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      return c.problem.precision.src == DType::bfloat16 && c.problem.data_layout == DataLayout::nxc &&
                             has_onednn_bf16_dilated_groups_shape(c.problem) && !on_blocked_path(ran()) &&
                             starts_with(ran(), "jit_bf16:");
                    },
                .reason = "the jit_bf16 weight gradient of a grouped channels-last conv with a dilated outer axis "
                          "returns wrong values",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-26s-bf16-kernels-a-weight-gradient-of-an-input-width-of-1-and-a-1x1-"
                        "data-gradient-with-odd-channels",
                .corpus_case = "corpus/upstream/onednn-grad_weight-1d949678c444e7a4.h5",
            },
            {
                .id = "onednn-bf16-strided-crop-crash",
                .versions = {"3.13", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_data},
                // Found by the README's campaign on 3.13.2 (`mb1ic1iw12oc8kw3sw3pl1pr-2_nwc`, bf16): SIGSEGV, with
                // oneDNN alone too (docs/findings/onednn_bf16_strided_crop_crash.c); its f32 kernel returns.
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      const auto &axes = c.problem.axes;
                      return c.problem.precision.src == DType::bfloat16 &&
                             std::any_of(axes.begin(), axes.end(), [](const SpatialAxis &a) { return a.pad_end < 0; }) &&
                             starts_with(ran(), "brgconv_strided:avx512_core_bf16");
                    },
                .reason = "the brgconv_strided bf16 data gradient of a conv cropped at the end of an axis dies of "
                          "SIGSEGV",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-313s-brgconv_strided-bf16-data-gradient-crashes-on-a-width-cropped-"
                        "at-the-end",
                .corpus_case = "corpus/upstream/onednn-grad_data-f67ebec6eade23d3.h5",
            },
            {
                .id = "onednn-bf16-3d-kernel-past-input",
                .versions = {"3.13", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::output, Direction::grad_weight},
                // A focused bf16 campaign on 3.13.2 (`fuzz --strategies onednn --focus onednn --rows bf16_f32acc,
                // bf16_to_f32 --time 300 --seed 20261129`, docs/findings.md): 3-D outputs on brg_conv_fwd wrong
                // (`mb1ic1id1ih2iw3oc1kd3kh2kw3pfr1pbk1_ndhwc` bf16:bf16:f32: expected 48, got 40) and 3-D weight
                // gradients on jit_bf16 returning what they never wrote (expected 0, got 47360), each with a kernel
                // longer than its input on an axis: the shape PyTorch's row torch-onednn-bf16-wgrad-3d-deep-kernel
                // holds back through ATen. Held back on that shape alone, more widely than measured; the narrower
                // depth row above is its measured part.
                .reached =
                    [](const Case &c, Direction direction, const Ran &ran) {
                      const Problem &p = c.problem;
                      const bool kernel_past_input = std::any_of(p.axes.begin(), p.axes.end(), [](const SpatialAxis &a) {
                        return a.kernel > a.in;
                      });
                      if (p.precision.src != DType::bfloat16 || p.ndims != 3 || !kernel_past_input) return false;
                      return direction == Direction::output ? ran().find("brg_conv_fwd:avx512_core_bf16") != std::string::npos
                                                            : starts_with(ran(), "jit_bf16:");
                    },
                .reason = "its bf16 kernels (brg_conv_fwd forward, jit_bf16 weight gradient) get a 3-D conv with a "
                          "kernel longer than its input on an axis wrong",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-313s-jit_bf16-weight-gradient-of-a-depth-kernel-longer-than-the-"
                        "input-padded-at-both-ends",
                .corpus_case = "corpus/upstream/onednn-output-446c3aba0c128c9d.h5",
            },
            {
                .id = "onednn-bf16-1x1-dgrad-odd",
                .versions = {"2.6", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::grad_data},
                .reached =
                    [](const Case &c, Direction, const Ran &ran) {
                      const Problem &p = c.problem;
                      return p.precision.src == DType::bfloat16 && !on_blocked_path(ran()) &&
                             has_onednn_bf16_odd_channels_1x1_shape(p, p.data_layout == DataLayout::nxc) &&
                             starts_with(ran(), "jit_bf16_1x1");
                    },
                .reason = "the jit_bf16_1x1 data gradient of a 1x1 conv on a channels-last diff_dst with an odd number "
                          "of output channels per group returns wrong values",
                .upstream = "not reported upstream yet (docs/findings.md has the draft)",
                .docs = "docs/findings.md#onednn-26s-bf16-kernels-a-weight-gradient-of-an-input-width-of-1-and-a-1x1-"
                        "data-gradient-with-odd-channels",
                // Open: 3.13.2 sends these problems to brg_conv_bwd (right), so whether jit_bf16_1x1 still has the
                // bug was not measured; the kernel-name test keeps the row from holding anything else back.
                .why_no_case = "3.13.2 no longer runs jit_bf16_1x1 on its problems (brgconv takes them), so no case "
                               "of this oneDNN fails",
            },
            {
                .id = "onednn-bf16-daz",
                .versions = {"2.6", ""},
                .strategies = every_onednn_strategy,
                .directions = {Direction::output, Direction::grad_data, Direction::grad_weight},
                // `fuzz --strategies onednn --fill-special subnormal --cases 300 --seed 1` on 3.13.2, AVX512-BF16
                // host: 26 results wrong, each bf16 under avx512_core_bf16 (x64:gemm:jit among them), each a
                // subnormal product read as zero (expected -5.2e-39, got 0); its f32 results are right. The same on
                // 2.6.3.
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Precision &p = c.problem.precision;
                      const bool bf16_input = p.src == DType::bfloat16 || p.weight == DType::bfloat16 ||
                                              p.dst == DType::bfloat16;
                      return c.special == FillSpecial::subnormal && bf16_input && onednn_may_use(c, "avx512_core_bf16");
                    },
                .reason = "its bf16 kernels on AVX512-BF16 read bfloat16 subnormal inputs as zero (VDPBF16PS treats "
                          "denormal inputs as zero, as Intel documents it)",
                .upstream = "the instruction's documented behaviour; not a bug report",
                .docs = "docs/findings.md#subnormal-inputs-read-as-zero-onednns-bf16-kernels-and-xnnpack",
                .why_no_case = "documented behaviour, not a bug: held back so that the subnormal fill judges the "
                               "others; the planted half_input_daz shows the fill finds it",
            },
        },
}};

} // namespace

} // namespace convcheck
