// IREE's known bugs: the rows that hold a direction of its strategies back (core/run/known_bug.hpp). Its strategies
// are outside servers, so verification asks the table before the server is sent the case (core/run/verify.cpp), and
// each row decides from the problem alone. The version compared is iree-base-compiler's (the adapter's version probe:
// "iree 3.13.0"; asked once per process, and only when a row is reached). Four are compile failures (iree-compile
// refuses the module), one a wrong value (iree-transposed-crop-output-padding): docs/findings.md. What IREE refuses by
// design (a transposed conv's aten.convolution_backward) is no row: the server answers it skipped in the lowering's
// words (docs/external.md).

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"
#include "oracles/torch_mlir/transposed_padding.hpp"

namespace convcheck {

namespace {

std::string iree_version() { return adapter_package_version("iree", "iree"); }

const char *why_no_case = "the corpus replays built-in strategies; docs/findings/iree_*.py shows each with IREE alone";

const KnownBugRegistration iree_bugs{{
    .library = "IREE",
    .version = iree_version,
    .rows =
        {
            {
                .id = "iree-depthwise-conv3d",
                .versions = {"3.13", ""},
                .strategies = {"iree", "iree_im2col"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem; // one input and one output channel per group
                      return p.ndims == 3 && p.groups > 1 && p.in_channels == p.groups && p.out_channels == p.groups;
                    },
                .reason = "a depthwise 3-D aten.convolution (conv or transposed; one channel per group in and out) "
                          "is not lowered by torch-mlir's TorchToLinalg in IREE: iree-compile fails with 'failed to "
                          "legalize operation torch.aten.convolution' (other grouped 3-D convs compile)",
                .upstream = "llvm/torch-mlir#3858 (its list: 3-D depthwise convolution), #3429",
                .docs = "docs/findings.md#iree-a-depthwise-3-d-conv-or-a-depthwise-deconv-does-not-compile",
                .why_no_case = why_no_case,
            },
            {
                .id = "iree-depthwise-deconv",
                .versions = {"3.13", ""},
                .strategies = {"iree", "iree_im2col", "iree_winograd"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem; // 3-D: the row above
                      return p.op == Op::deconv && p.ndims <= 2 && p.groups > 1 && p.in_channels == p.groups &&
                             p.out_channels == p.groups;
                    },
                .reason = "torch-mlir's TorchToLinalg in IREE expands a depthwise transposed conv's weight to rank 5 "
                          "and collapses it with a rank-4 map: iree-compile fails with \"'tensor.collapse_shape' op "
                          "expected reassociation map #0 to have size equal to the expanded rank (5), but it is 4\"",
                .upstream = "llvm/torch-mlir#4621 (open pull request with the fix, not in IREE 3.13's copy)",
                .docs = "docs/findings.md#iree-a-depthwise-3-d-conv-or-a-depthwise-deconv-does-not-compile",
                .why_no_case = why_no_case,
            },
            {
                .id = "iree-im2col-low-precision-batch",
                .versions = {"3.13", ""},
                .strategies = {"iree_im2col"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem; // a 2-D conv (or deconv) run in bf16 or f16, f32 sums
                      const DType low = p.precision.src;
                      return p.ndims == 2 && p.batch > 1 && p.groups == 1 &&
                             (low == DType::bfloat16 || low == DType::float16) && p.precision.weight == low &&
                             p.precision.dst == low;
                    },
                .reason = "--iree-global-opt-use-im2col-for-convs on a 2-D bf16 or f16 conv with f32 sums and a batch "
                          "over 1: ConvertConv2DToImg2ColPass builds an arith.addf of mixed types and iree-compile "
                          "fails with \"'arith.addf' op requires the same type for all operands and results\"",
                .upstream = "not reported upstream yet (draft: docs/findings.md)",
                .docs = "docs/findings.md#iree-im2col-of-a-bf16-or-f16-conv-with-a-batch-over-1-does-not-compile",
                .why_no_case = why_no_case,
            },
            {
                .id = "iree-fold-unit-extent-conv",
                .versions = {"3.13", ""},
                .strategies = {"iree", "iree_im2col", "iree_winograd"},
                .directions = {Direction::output, Direction::grad_weight},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      if (p.op != Op::conv) return false;
                      for (const SpatialAxis &axis : p.axes) // one output position, input rows the window misses
                        if (axis.out() == 1 && axis.kernel > 1 &&
                            axis.in + axis.pad_begin + axis.pad_end > axis.dilated_kernel())
                          return true;
                      return false;
                    },
                .reason = "a conv with one output position on an axis whose (padded) input is longer than its "
                          "window: IREE's FoldUnitExtentDimsPass (iree-dispatch-creation-fold-unit-extent-dims) "
                          "makes an invalid linalg.generic of it, and iree-compile fails with \"'linalg.generic' op "
                          "inferred input/output operand #1 has shape's dimension #0 to be 4, but found 3\"",
                .upstream = "not reported upstream yet (draft: docs/findings.md)",
                .docs = "docs/findings.md#iree-a-conv-with-one-output-position-and-unused-input-does-not-compile",
                .why_no_case = why_no_case,
            },
            {
                .id = "iree-transposed-crop-output-padding",
                .versions = {"3.13", ""},
                // not iree_winograd: it takes stride 1 and dilation 1 only, where output_padding is 0
                .strategies = {"iree", "iree_im2col"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      if (p.op != Op::deconv) return false;
                      for (const SpatialAxis &axis : p.axes) { // unit axes: padding 0, output_padding 0
                        const int64_t effective = transposed_input_padding(axis);
                        if (effective >= 0) continue;
                        // the op's last min(-effective, output_padding + effective) positions are read past its
                        // input; the module then crops the rest of the end padding, which may take them all off
                        const int64_t read_past = std::min(-effective, effective + axis.output_padding);
                        if (read_past > axis.pad_end - shared_padding(axis)) return true;
                      }
                      return false;
                    },
                .reason = "aten.convolution lowering (torch-mlir's TorchToLinalg in IREE, "
                          "createTransposedInputPadding): a transposed conv whose padding passes dilation * (kernel - "
                          "1) by less than its output_padding crops the un-strided input with a tensor.extract_slice "
                          "that runs past its end (cast to a dynamic shape, so no verifier sees it): the output's last "
                          "positions are read out of bounds (another channel's input, or what lies past the buffer) "
                          "instead of being zeros",
                .upstream = "not reported upstream yet (draft: docs/findings.md); the same lowering in upstream "
                            "torch-mlir is refused at bufferization (row torch-mlir-transposed-crop-output-padding)",
                .docs = "docs/findings.md#iree-a-transposed-conv-cropped-and-output-padded-reads-past-its-input",
                .why_no_case = why_no_case,
            },
        },
}};

} // namespace

} // namespace convcheck
