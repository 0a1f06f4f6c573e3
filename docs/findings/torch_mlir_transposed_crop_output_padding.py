#!/usr/bin/env python3
"""torch-mlir alone: a transposed conv whose padding passes dilation * (kernel - 1) (a negative effective padding, a
crop) while its output_padding passes that difference (so the end is padded again) lowers to a tensor.extract_slice
past its source (docs/findings.md, "torch-mlir").

createTransposedInputPadding (lib/Conversion/TorchToLinalg/Linear.cpp; its negative path from llvm/torch-mlir#4369)
crops the un-strided input by the negative effective padding but reads the output_padding's extra rows from past the
input's end instead of padding them with zeros: with input width 1, kernel 1, stride 3, padding 1, output_padding 2
it extracts [1, 2) of a dimension of size 1. torch-mlir's verifier does not see it (the source is cast to a dynamic
shape first); MLIR's bufferization does, once the cast folds: "offset 2 is out-of-bounds: 1 >= 1". Run without that
check, it reads out of bounds. PyTorch computes the output (width 1) as the zero-padded row.

    venvs/torch_mlir/bin/python docs/findings/torch_mlir_transposed_crop_output_padding.py   # exit 1 while it shows
"""
import sys
from importlib.metadata import version

import torch
from torch_mlir import fx, ir
from torch_mlir.dialects import torch as torch_d
from torch_mlir.extras.fx_importer import FxImporter
from torch_mlir.passmanager import PassManager


# the first steps of oracles/torch_mlir/torch_mlir_server.py's LOWERING (upstream MLIR passes)
BUFFERIZE = ("builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion="
             "identity-layout-map},buffer-results-to-out-params{modify-public-functions hoist-static-allocs},"
             "func.func(buffer-deallocation-pipeline))")


class ConvTranspose1d(torch.nn.Module):
    def __init__(self, stride, padding, output_padding):
        super().__init__()
        self.stride, self.padding, self.output_padding = stride, padding, output_padding

    def forward(self, x, w):
        return torch.ops.aten.convolution(x, w, None, [self.stride], [self.padding], [1], True, [self.output_padding],
                                          1)


def canonicalizes(width, kernel, stride, padding, output_padding):
    """True where torch-mlir's linalg for the transposed conv bufferizes; else the diagnostic."""
    x, w = torch.zeros([1, 1, width]), torch.zeros([1, 1, kernel])
    context, diagnostics = ir.Context(), []
    torch_d.register_dialect(context)
    context.attach_diagnostic_handler(lambda d: diagnostics.append(str(d.message)) or True)
    module = fx.export_and_import(ConvTranspose1d(stride, padding, output_padding), x, w,
                                  output_type="linalg-on-tensors", fx_importer=FxImporter(context=context))
    try:
        with context:
            PassManager.parse(BUFFERIZE).run(
                module.operation)
        return True
    except Exception as error:
        return " | ".join(diagnostics) or str(error)


def main():
    print("torch-mlir", version("torch-mlir"), "torch", torch.__version__)
    failed = 0
    # (width, kernel, stride, padding, output_padding, broken): broken where padding > dilation * (kernel - 1) and
    # padding < dilation * (kernel - 1) + output_padding
    for case in ((1, 1, 3, 1, 2, True), (3, 1, 3, 1, 2, True), (4, 3, 4, 3, 3, True), (3, 1, 3, 1, 1, False),
                 (3, 1, 2, 1, 0, False), (3, 3, 2, 1, 1, False)):
        *shape, broken = case
        result = canonicalizes(*shape)
        print(f"width {shape[0]} kernel {shape[1]} stride {shape[2]} padding {shape[3]} output_padding {shape[4]}: "
              f"{'fine' if result is True else 'FAILS: ' + result}")
        failed += broken and result is not True
    print(f"{failed} of 3 transposed convs read past their input" if failed else "no transposed conv reads past its input")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
