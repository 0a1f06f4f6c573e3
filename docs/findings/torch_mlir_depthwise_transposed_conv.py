#!/usr/bin/env python3
"""torch-mlir alone: a depthwise transposed convolution (aten.convolution with transposed=True and in_channels =
out_channels = groups > 1) does not lower to linalg, in any rank (docs/findings.md, "torch-mlir").

ConvertAtenConvolutionOp (lib/Conversion/TorchToLinalg/Linear.cpp) expands a transposed grouped conv's weight to
[G, C_out/G, C_in/G, k...] first (the expandWeight step, llvm/torch-mlir#4056), and then, still in the same pattern,
takes its special depthwise case (C_in = groups, weight [groups, 1, ...]): that case collapses the weight with a
reassociation written for the unexpanded [G, 1, k...], one dimension short, and the verifier refuses it:
"'tensor.collapse_shape' op expected reassociation map #0 to have size equal to the expanded rank (5), but it is 4"
(2-D). A grouped transposed conv that is not depthwise (C_in/G > 1 or C_out/G > 1) lowers, and so does a depthwise
conv that is not transposed.

    venvs/torch_mlir/bin/python docs/findings/torch_mlir_depthwise_transposed_conv.py   # exit 1 while the bug shows
"""
import sys
from importlib.metadata import version

import torch
from torch_mlir import fx, ir
from torch_mlir.dialects import torch as torch_d
from torch_mlir.extras.fx_importer import FxImporter


class ConvTranspose(torch.nn.Module):
    def __init__(self, ndims, groups):
        super().__init__()
        self.ndims, self.groups = ndims, groups

    def forward(self, x, w):
        ones, zeros = [1] * self.ndims, [0] * self.ndims
        return torch.ops.aten.convolution(x, w, None, ones, zeros, ones, True, zeros, self.groups)


def lowers(ndims, channels, groups, out_per_group):
    """True where torch-mlir lowers the transposed conv to linalg-on-tensors; else its error diagnostic."""
    x = torch.zeros([1, channels] + [4] * ndims)
    w = torch.zeros([channels, out_per_group] + [3] * ndims)  # a transposed conv's weight: [C_in, C_out/G, k...]
    context, diagnostics = ir.Context(), []
    torch_d.register_dialect(context)
    context.attach_diagnostic_handler(lambda d: diagnostics.append(str(d.message)) or True)
    try:
        fx.export_and_import(ConvTranspose(ndims, groups), x, w, output_type="linalg-on-tensors",
                             fx_importer=FxImporter(context=context))
        return True
    except Exception as error:  # TorchMlirCompilerError, whose message leaves the diagnostics out
        return " | ".join(diagnostics) or str(error).strip().splitlines()[0]


def main():
    print("torch-mlir", version("torch-mlir"), "torch", torch.__version__)
    failed = 0
    for ndims in (1, 2, 3):
        for channels, groups, out_per_group, depthwise in ((2, 2, 1, True), (4, 4, 1, True), (4, 2, 1, False),
                                                           (2, 2, 2, False), (2, 1, 2, False)):
            result = lowers(ndims, channels, groups, out_per_group)
            print(f"{ndims}-D C_in {channels} groups {groups} C_out {groups * out_per_group}: "
                  f"{'lowers' if result is True else 'FAILS: ' + result}")
            if depthwise and result is not True:
                failed += 1
            elif not depthwise and result is not True:
                print("  (unexpected: a non-depthwise transposed conv failed too)")
    print(f"{failed} of 6 depthwise transposed convs do not lower" if failed else "every depthwise transposed conv lowers")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
