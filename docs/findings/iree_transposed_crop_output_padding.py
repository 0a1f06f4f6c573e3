#!/usr/bin/env python3
"""IREE alone: a transposed conv whose padding passes dilation * (kernel - 1) (a negative effective padding, a crop)
while its output_padding passes that difference computes wrong values: the last output positions are read from past
the end of a buffer, so they hold another channel's input, or whatever lies past the allocation (docs/findings.md,
"IREE: a transposed conv cropped and output-padded reads past its input").

IREE's copy of torch-mlir's TorchToLinalg lowers aten.convolution(transposed=True) by un-striding the input into a
zero tensor and cropping it by the negative effective padding e = dilation * (kernel - 1) - padding with a
tensor.extract_slice (createTransposedInputPadding, lib/Conversion/TorchToLinalg/Linear.cpp); where output_padding
> -e that slice runs min(-e, output_padding + e) rows past its source. The source is cast to a dynamic shape first,
so no verifier sees it (upstream torch-mlir's own pipeline refuses it at bufferization: docs/findings.md, "torch-mlir:
a transposed conv cropped and output-padded reads past its input"); IREE compiles it and reads out of bounds. The
smallest case: width 1, 2 channels, kernel 1, stride 3, padding 1, output_padding 2; PyTorch's output is one zero,
IREE returns the second channel's input times its weight. Float32, float16 and bfloat16, 1-D to 3-D, with or without
--iree-global-opt-use-im2col-for-convs, alike.

    venvs/iree/bin/python docs/findings/iree_transposed_crop_output_padding.py    # exit 1 while the bug shows
"""
import itertools
import sys
from importlib.metadata import version

import ml_dtypes
import numpy as np
import torch
import iree.compiler as ireec
import iree.runtime as ireert
import iree.turbine.aot as aot

FLAGS = ["--iree-llvmcpu-target-cpu=host"]
IM2COL = ["--iree-global-opt-use-im2col-for-convs"]


class ConvTranspose(torch.nn.Module):
    """aten.convolution, transposed, as torch.nn.functional.conv_transpose*d calls it."""

    def __init__(self, stride, padding, dilation, output_padding):
        super().__init__()
        self.stride, self.padding, self.dilation, self.output_padding = stride, padding, dilation, output_padding

    def forward(self, x, w):
        return torch.ops.aten.convolution(x, w, None, self.stride, self.padding, self.dilation, True,
                                          self.output_padding, 1)


def reference(x, w, stride, padding, dilation, output_padding):
    """PyTorch's transposed conv in float64 by its definition: each x[n, c, i...] times w[c, o, t...] lands on output
    position i * stride - padding + t * dilation; the output's length is (in - 1) * stride - 2 * padding +
    dilation * (kernel - 1) + output_padding + 1 (the output_padding's positions receive nothing but zeros)."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    spatial = x.shape[2:]
    out = [(n - 1) * s - 2 * p + d * (k - 1) + op + 1
           for n, k, s, p, d, op in zip(spatial, w.shape[2:], stride, padding, dilation, output_padding)]
    y = np.zeros([x.shape[0], w.shape[1]] + out)
    for i in itertools.product(*(range(n) for n in spatial)):
        for t in itertools.product(*(range(k) for k in w.shape[2:])):
            o = [a * s - p + b * d for a, b, s, p, d in zip(i, t, stride, padding, dilation)]
            if all(0 <= v < n for v, n in zip(o, out)):
                y[(slice(None), slice(None)) + tuple(o)] += x[(slice(None), slice(None)) + i] @ w[(slice(None),
                                                                                                   slice(None)) + t]
    return y


def run(x_shape, w_shape, stride, padding, dilation, output_padding, dtype=np.float32, flags=()):
    """IREE's output and the float64 reference, on small integers (exact in every format here)."""
    rng = np.random.default_rng(0)
    x = rng.integers(1, 5, size=x_shape).astype(dtype)
    w = rng.integers(1, 3, size=w_shape).astype(dtype)
    module = ConvTranspose(stride, padding, dilation, output_padding)
    example = {np.float32: torch.float32, np.float16: torch.float16, ml_dtypes.bfloat16: torch.bfloat16}[dtype]
    mlir = str(aot.export(module, args=(torch.zeros(x_shape, dtype=example),
                                        torch.zeros(w_shape, dtype=example))).mlir_module)
    vmfb = ireec.compile_str(mlir, target_backends=["llvm-cpu"], input_type="torch", extra_args=FLAGS + list(flags))
    got = np.asarray(ireert.load_vm_flatbuffer(vmfb, driver="local-sync").main(x, w).to_host()).astype(np.float64)
    return got, reference(x, w, stride, padding, dilation, output_padding)


def input_ir_slice():
    """The crop IREE's input conversion writes for the smallest case: an extract_slice past its width-1 source."""
    mlir = str(aot.export(ConvTranspose([3], [1], [1], [2]),
                          args=(torch.zeros(1, 2, 1), torch.zeros(2, 1, 1))).mlir_module)
    text = ireec.compile_str(mlir, target_backends=["llvm-cpu"], input_type="torch",
                             extra_args=FLAGS + ["--compile-to=input"]).decode()
    return next(line.strip().split(" loc(")[0] for line in text.splitlines() if "tensor.extract_slice" in line)


def main():
    print(f"iree-base-compiler {version('iree-base-compiler')}, iree-turbine {version('iree-turbine')}, "
          f"torch {torch.__version__}")
    print(f"input IR of the smallest case: {input_ir_slice()}")
    # (name, x shape, w shape, stride, padding, dilation, output_padding, dtype, flags); e = dilation * (kernel - 1)
    # - padding per axis; wrong where e < 0 and output_padding + e > 0
    cases = [
        ("smallest (shrunk by convcheck): width 1, 2 channels, k 1, s 3, p 1, op 2",
         [1, 2, 1], [2, 1, 1], [3], [1], [1], [2], np.float32, []),
        ("the same in bfloat16", [1, 2, 1], [2, 1, 1], [3], [1], [1], [2], ml_dtypes.bfloat16, []),
        ("the same with --iree-global-opt-use-im2col-for-convs", [1, 2, 1], [2, 1, 1], [3], [1], [1], [2],
         np.float32, IM2COL),
        ("the campaign's problem (2-D, 13x1, 3 channels, stride 3, dilation 2 on W)",
         [1, 3, 13, 1], [3, 3, 1, 1], [1, 3], [0, 1], [1, 2], [0, 2], np.float32, []),
        ("two rows past: k 1, s 5, p 2, op 4", [1, 2, 2], [2, 1, 1], [5], [2], [1], [4], np.float32, []),
        ("dilated: k 2, s 3, d 2, p 3, op 2", [1, 2, 3], [2, 1, 2], [3], [3], [2], [2], np.float32, []),
        ("3-D, on depth", [1, 2, 1, 2, 2], [2, 1, 1, 1, 1], [3, 1, 1], [1, 0, 0], [1, 1, 1], [2, 0, 0],
         np.float32, []),
    ]
    controls = [  # output_padding + e <= 0, or e >= 0: right
        ("control: k 1, s 3, p 1, op 1 (output_padding = -e)", [1, 2, 2], [2, 1, 1], [3], [1], [1], [1],
         np.float32, []),
        ("control: k 3, s 3, p 2, op 2 (e = 0)", [1, 2, 2], [2, 1, 3], [3], [2], [1], [2], np.float32, []),
    ]
    shown = 0
    for name, *problem in controls + cases:
        got, expected = run(*problem)
        wrong = np.argwhere(np.abs(got - expected) > 1e-6 * (1 + np.abs(expected)))
        detail = (f"{len(wrong)} of {expected.size} wrong, first at {wrong[0].tolist()}: expected "
                  f"{expected[tuple(wrong[0])]:g}, got {got[tuple(wrong[0])]:g}" if len(wrong) else "right")
        print(f"{name}: {detail}")
        shown += bool(len(wrong)) and not name.startswith("control")
    print(f"{shown} of {len(cases)} transposed convs read past their input" if shown
          else "no transposed conv reads past its input")
    return 1 if shown else 0


if __name__ == "__main__":
    sys.exit(main())
