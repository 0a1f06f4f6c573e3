#!/usr/bin/env python3
"""IREE alone: six families of convolution modules, exported from PyTorch by iree-turbine, that iree-compile
(llvm-cpu) refuses (docs/findings.md, "IREE"). Each is the smallest problem convcheck shrank to, or smaller. Two
are limits IREE's source states (torch-mlir's direct aten.convolution_backward lowering), declared by convcheck's
server rather than reported, printed here but not counted in the exit status:

  convolution_backward_transposed  aten.convolution_backward of a transposed conv (any): "failed to legalize
                                   operation 'torch.aten.convolution_backward'" (torch-mlir's direct lowering in
                                   IREE: "unimplemented: transposed convolution backward")
  convolution_backward_padding     its data gradient where padding > dilation * (kernel - 1): 1-D, kernel 1,
                                   padding 1; the same message ("unimplemented: negative padding values")

Four are bugs:

  depthwise_conv3d                 a depthwise 3-D aten.convolution (2 channels, groups 2): "failed to
                                   legalize operation 'torch.aten.convolution'" (a grouped 3-D conv with 2
                                   channels per group compiles)
  depthwise_deconv                 a depthwise transposed conv (1-D or 2-D; 2 channels, groups 2):
                                   "'tensor.collapse_shape' op expected reassociation map #0 to have size equal to
                                   the expanded rank (5), but it is 4" (llvm/torch-mlir#4621 has the fix)
  fold_unit_extent_conv            a conv with one output position on an axis whose input is longer than the
                                   window (in 4, kernel 3, stride 2): FoldUnitExtentDimsPass
                                   (iree-dispatch-creation-fold-unit-extent-dims) makes an invalid linalg.generic:
                                   "'linalg.generic' op inferred input/output operand #1 has shape's dimension #0 to
                                   be 4, but found 3"; PyTorch computes it (1 element).
  im2col_low_precision_batch       with --iree-global-opt-use-im2col-for-convs: a 2-D bf16 conv of batch 2 (f32
                                   sums): ConvertConv2DToImg2ColPass, "'arith.addf' op requires the same type for
                                   all operands and results" (batch 1, f32, or no flag: compiles)

    venvs/iree/bin/python docs/findings/iree_compile_failures.py    # exit 1 while any of the four bugs shows
"""
import sys
from importlib.metadata import version

import torch
import iree.compiler as ireec
import iree.turbine.aot as aot


IM2COL = ["--iree-global-opt-use-im2col-for-convs"]


def compiles(forward, *args, flags=()):
    """None when iree-compile takes the module, else iree-compile's first error line."""
    module = type("M", (torch.nn.Module,), {"forward": lambda self, *a: forward(*a)})()
    mlir = str(aot.export(module, args=args).mlir_module)
    try:
        ireec.compile_str(mlir, target_backends=["llvm-cpu"], input_type="torch",
                          extra_args=["--iree-llvmcpu-target-cpu=host", *flags])
        return None
    except ireec.tools.CompilerToolError as error:
        lines = [line.split(" error: ", 1)[1] for line in str(error).splitlines() if " error: " in line]
        return (lines[0] if lines else str(error)).split(": %", 1)[0]


def backward(stride, padding, transposed, groups, mask):
    def f(dy, x, w):
        r = torch.ops.aten.convolution_backward(dy, x, w, None, stride, padding, [1] * len(stride), transposed,
                                                [0] * len(stride), groups, mask + [False])
        return tuple(t for t in r if t is not None)
    return f


def conv(stride, groups, transposed=False):
    return lambda x, w: torch.ops.aten.convolution(x, w, None, stride, [0] * len(stride), [1] * len(stride),
                                                   transposed, [0] * len(stride), groups)


def main():
    print(f"iree-base-compiler {version('iree-base-compiler')}, iree-turbine {version('iree-turbine')}, "
          f"torch {torch.__version__}")
    x1, w1 = torch.randn(1, 1, 3), torch.randn(1, 1, 3)
    limits = {  # declared, not bugs (docs/findings.md)
        # a deconv of in 3, kernel 3: out 5; its gradients
        "convolution_backward_transposed": compiles(backward([1], [0], True, 1, [True, True]),
                                                    torch.randn(1, 1, 5), x1, w1),
        # a conv of in 3, kernel 1, padding 1: out 5; its data gradient
        "convolution_backward_padding": compiles(backward([1], [1], False, 1, [True, False]),
                                                 torch.randn(1, 1, 5), x1, torch.randn(1, 1, 1)),
    }
    cases = {
        "depthwise_conv3d": compiles(conv([1, 1, 1], 2), torch.randn(1, 2, 1, 1, 1), torch.randn(2, 1, 1, 1, 1)),
        "depthwise_deconv": compiles(conv([1], 2, transposed=True), torch.randn(1, 2, 3), torch.randn(2, 1, 3)),
        "fold_unit_extent_conv": compiles(conv([2], 1), torch.randn(1, 1, 4), torch.randn(1, 1, 3)),
        "im2col_low_precision_batch": compiles(conv([1, 1], 1), torch.randn(2, 1, 2, 2, dtype=torch.bfloat16),
                                               torch.randn(1, 1, 1, 1, dtype=torch.bfloat16), flags=IM2COL),
    }
    # the controls: the same ops where IREE compiles them
    controls = {
        "convolution_backward, padding 0": compiles(backward([1], [0], False, 1, [True, True]),
                                                    torch.randn(1, 1, 3), torch.randn(1, 1, 3), torch.randn(1, 1, 1)),
        "depthwise conv2d": compiles(conv([1, 1], 2), torch.randn(1, 2, 1, 1), torch.randn(2, 1, 1, 1)),
        "grouped conv3d, 2 channels a group": compiles(conv([1, 1, 1], 2), torch.randn(1, 4, 1, 1, 1),
                                                       torch.randn(4, 2, 1, 1, 1)),
        "in 5, kernel 3, stride 2 (out 2)": compiles(conv([2], 1), torch.randn(1, 1, 5), w1),
        "im2col, bf16, batch 1": compiles(conv([1, 1], 1), torch.randn(1, 1, 2, 2, dtype=torch.bfloat16),
                                          torch.randn(1, 1, 1, 1, dtype=torch.bfloat16), flags=IM2COL),
    }
    for name, error in controls.items():
        print(f"control {name}: {'compiles' if error is None else error}")
    for name, error in limits.items():
        print(f"declared limit {name}: {'compiles (lifted)' if error is None else 'refused: ' + error}")
    shown = 0
    for name, error in cases.items():
        print(f"{name}: {'compiles (fixed)' if error is None else 'FAILS: ' + error}")
        shown += error is not None
    return 1 if shown else 0


if __name__ == "__main__":
    sys.exit(main())
