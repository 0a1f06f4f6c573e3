// torch-mlir's known bugs: the rows that hold a direction of its strategy back (core/run/known_bug.hpp). Its strategy
// is an outside server, so verification asks the table before the server is sent the case (core/run/verify.cpp), and
// each row decides from the problem alone. The version compared is the one the venv's torch-mlir reports (the
// adapter's version probe: asked once per process, and only when a row is reached).

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"
#include "oracles/torch_mlir/transposed_padding.hpp"

namespace convcheck {

namespace {

std::string torch_mlir_version() { return adapter_package_version("torch_mlir", "torch-mlir"); }

const KnownBugRegistration torch_mlir_bugs{{
    .library = "torch-mlir",
    .version = torch_mlir_version,
    .rows =
        {
            {
                .id = "torch-mlir-depthwise-transposed-conv",
                // 20261001 run (docs/libraries/torch_mlir.md); the transposed grouped lowering it breaks landed in
                // March 2025 (llvm/torch-mlir#4056), older wheels not run.
                .versions = {"20261001", ""},
                .strategies = {"torch_mlir"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      // the depthwise special case of ConvertAtenConvolutionOp: C_in = C_out = groups, groups > 1
                      return p.op == Op::deconv && p.groups > 1 && p.in_channels == p.groups &&
                             p.out_channels == p.groups;
                    },
                .reason = "aten.convolution lowering (TorchToLinalg): a transposed conv with in_channels = "
                          "out_channels = groups > 1 (depthwise) fails to compile in every rank: in 1-D and 2-D "
                          "'tensor.collapse_shape' op expected reassociation map #0 to have size equal to the expanded "
                          "rank (5), but it is 4', the depthwise case collapsing the weight the transposed path already "
                          "expanded to [G, 1, 1, k...]; in 3-D that case's 2-D-only refusal (the row below)",
                .upstream = "llvm/torch-mlir#4621 (the 2-D fix, open and not in 20261001)",
                .docs = "docs/findings.md#torch-mlir-a-depthwise-transposed-conv-does-not-compile-any-rank",
                .why_no_case = "the corpus replays built-in strategies; ctest torch_mlir_server runs this one with the "
                               "hold-back lifted and fails when torch-mlir no longer shows the bug",
            },
            {
                .id = "torch-mlir-3d-depthwise-conv",
                // 20261001 run; the 3-D grouped lowering it shadows landed in October 2025 (llvm/torch-mlir#4354).
                .versions = {"20261001", ""},
                .strategies = {"torch_mlir"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      // a deconv of these channels is the row above: it fails before this check
                      return p.op == Op::conv && p.ndims == 3 && p.groups > 1 && p.in_channels == p.groups &&
                             p.out_channels == p.groups;
                    },
                .reason = "aten.convolution lowering (TorchToLinalg): a 3-D conv with in_channels = out_channels = "
                          "groups > 1 takes the depthwise special case, which has linalg ops for 1-D and 2-D only "
                          "('unimplemented: only 1D and 2D depthwise convolution supported for special case of group "
                          "convolution'), so 'failed to legalize operation torch.aten.convolution', where the 3-D "
                          "grouped linalg.generic lowering would take it",
                .upstream = "llvm/torch-mlir#3858 (its tracking list names 3-D depthwise convolution as missing)",
                .docs = "docs/findings.md#torch-mlir-a-3-d-depthwise-conv-does-not-lower",
                .why_no_case = "the corpus replays built-in strategies; ctest torch_mlir_server runs the depthwise "
                               "transposed row held back; this one shows in docs/findings/torch_mlir_3d_depthwise_conv.py",
            },
            {
                .id = "torch-mlir-transposed-crop-output-padding",
                // 20261001 run; the negative-padding path it is in landed in November 2025 (llvm/torch-mlir#4369).
                .versions = {"20261001", ""},
                .strategies = {"torch_mlir"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      const Problem &p = c.problem;
                      if (p.op != Op::deconv) return false;
                      for (const SpatialAxis &axis : p.axes) { // unit axes: padding 0, output_padding 0
                        const int64_t effective = transposed_input_padding(axis);
                        if (effective < 0 && effective + axis.output_padding > 0) return true;
                      }
                      return false;
                    },
                .reason = "aten.convolution lowering (TorchToLinalg, createTransposedInputPadding): a transposed conv "
                          "whose padding passes dilation * (kernel - 1) by less than its output_padding crops the "
                          "un-strided input and then reads the output_padding's rows past its end: a "
                          "tensor.extract_slice out of bounds, which MLIR's bufferization refuses ('offset 2 is "
                          "out-of-bounds: 1 >= 1')",
                .upstream = "not reported upstream yet (draft: docs/findings.md); the TOSA lowering's like bug was "
                            "llvm/torch-mlir#4650",
                .docs = "docs/findings.md#torch-mlir-a-transposed-conv-cropped-and-output-padded-reads-past-its-input",
                .why_no_case = "the corpus replays built-in strategies; this one shows in "
                               "docs/findings/torch_mlir_transposed_crop_output_padding.py",
            },
        },
}};

} // namespace

} // namespace convcheck
