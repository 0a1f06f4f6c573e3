#!/usr/bin/env python3
"""torch-mlir alone: a 3-D depthwise convolution (aten.convolution, not transposed, in_channels = out_channels =
groups > 1) does not lower to linalg, though a 3-D grouped conv does (docs/findings.md, "torch-mlir").

ConvertAtenConvolutionOp (lib/Conversion/TorchToLinalg/Linear.cpp) checks for its special depthwise case (C_in =
groups, weight [groups, 1, k...]) before the general grouped lowering; that case has linalg ops for 1-D and 2-D only
and otherwise fails the pattern ("unimplemented: only 1D and 2D depthwise convolution supported for special case of
group convolution", a notifyMatchFailure a release build does not print), so the pipeline says "failed to legalize
operation 'torch.aten.convolution'". The 3-D grouped lowering below it (a linalg.generic, llvm/torch-mlir#4354)
would take the same problem: a 3-D grouped conv with C_out = 2 * groups lowers.

    venvs/torch_mlir/bin/python docs/findings/torch_mlir_3d_depthwise_conv.py   # exit 1 while the bug shows
"""
import sys
from importlib.metadata import version

import torch
from torch_mlir import fx, ir
from torch_mlir.dialects import torch as torch_d
from torch_mlir.extras.fx_importer import FxImporter


class Conv3d(torch.nn.Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, x, w):
        return torch.ops.aten.convolution(x, w, None, [1] * 3, [0] * 3, [1] * 3, False, [0] * 3, self.groups)


def lowers(channels, groups, out_channels):
    """True where torch-mlir lowers the 3-D conv to linalg-on-tensors; else its error diagnostic, cut short."""
    x = torch.zeros([1, channels, 4, 4, 4])
    w = torch.zeros([out_channels, channels // groups, 3, 3, 3])
    context, diagnostics = ir.Context(), []
    torch_d.register_dialect(context)
    context.attach_diagnostic_handler(lambda d: diagnostics.append(str(d.message)) or True)
    try:
        fx.export_and_import(Conv3d(groups), x, w, output_type="linalg-on-tensors", fx_importer=FxImporter(context=context))
        return True
    except Exception as error:  # TorchMlirCompilerError, whose message leaves the diagnostics out
        return (" | ".join(diagnostics) or str(error).strip().splitlines()[0])[:120]


def main():
    print("torch-mlir", version("torch-mlir"), "torch", torch.__version__)
    failed = 0
    for channels, groups, out_channels, depthwise in ((2, 2, 2, True), (8, 8, 8, True), (2, 2, 4, False),
                                                      (4, 2, 4, False)):
        result = lowers(channels, groups, out_channels)
        print(f"3-D C_in {channels} groups {groups} C_out {out_channels}: "
              f"{'lowers' if result is True else 'FAILS: ' + result}")
        failed += depthwise and result is not True
    print(f"{failed} of 2 depthwise 3-D convs do not lower" if failed else "every depthwise 3-D conv lowers")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
