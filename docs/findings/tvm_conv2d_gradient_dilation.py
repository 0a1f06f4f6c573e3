#!/usr/bin/env python3
"""TVM alone: Relax's conv2d gradient (relax/op/_op_gradient.py, conv2d_grad) leaves the dilation out of the size it
gives grad_data's conv2d_transpose, so a dilated conv2d either cannot be differentiated or gets a grad_data of the
wrong size (docs/findings.md, "TVM").

conv2d_grad computes the output_padding of the conv2d_transpose that makes grad_data as
    out_h = (grad_h - 1) * stride_h - pad_top - pad_bottom + filter_h
    output_padding = in_h - out_h
where the transposed conv's size is (grad_h - 1) * stride_h - pad_top - pad_bottom + dilation_h * (filter_h - 1) + 1:
its output_padding comes out (dilation_h - 1) * (filter_h - 1) too large. Where that passes the stride, Relax's own
check refuses the transpose it built ("Conv2dTranspose expects the output padding less than the strides"); below it,
grad_data comes out (dilation - 1) * (kernel - 1) rows too large.

    venvs/tvm/bin/python docs/findings/tvm_conv2d_gradient_dilation.py    # exit 1 while the bug shows
"""
import sys

import numpy as np
import tvm
from tvm import relax
from tvm.relax.op import nn


def adjoint(x_shape, w_shape, stride, dilation):
    """Relax's Gradient of sum(conv2d(x, w) * dy) over x and w; the module, or the error it raised."""
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorType(x_shape, "float32"))
    w = relax.Var("w", relax.TensorType(w_shape, "float32"))
    out = [(n - dilation * (k - 1) - 1) // stride + 1 for n, k in zip(x_shape[2:], w_shape[2:])]
    dy = relax.Var("dy", relax.TensorType([x_shape[0], w_shape[0]] + out, "float32"))
    with bb.function("loss", [x, w, dy]):
        with bb.dataflow():
            y = bb.emit(nn.conv2d(x, w, strides=stride, dilation=dilation))
            loss = bb.emit_output(relax.op.sum(relax.op.multiply(y, dy)))
        bb.emit_func_output(loss)
    return relax.transform.Gradient("loss", [x, w])(bb.get())


def main():
    print("tvm", tvm.__version__)
    failures = 0
    # 1. dilation 2, kernel 3, stride 1: output_padding 2 >= stride 1, refused by Relax's own check
    try:
        adjoint([1, 1, 5, 5], [1, 1, 3, 3], stride=1, dilation=2)
        print("dilation 2, kernel 3, stride 1: differentiated")
    except Exception as error:  # noqa: BLE001 (TVM raises ValueError here)
        failures += 1
        print("dilation 2, kernel 3, stride 1: Gradient raised", type(error).__name__, str(error).splitlines()[-1])
    # 2. dilation 2, kernel 2, stride 3: output_padding 1 < 3, accepted; grad_data's type is 1 row too large
    module = adjoint([1, 1, 7, 7], [1, 1, 2, 2], stride=3, dilation=2)
    grads = module["loss_adjoint"].ret_ty.fields[1]
    grad_data = [int(v) for v in grads.fields[0].shape.values]
    print("dilation 2, kernel 2, stride 3: grad_data", grad_data, "for x [1, 1, 7, 7]")
    if grad_data != [1, 1, 7, 7]:
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
