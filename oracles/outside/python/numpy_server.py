#!/usr/bin/python3
"""A convolution in NumPy as a convcheck server: all three directions, 1-D to 3-D, groups, stride, dilation,
padding and crops, any mix of float32 and float64 (docs/external.md). Sums are taken in float64 and each result is
rounded to its tensor's format.

    convcheck fuzz --external-server numpy="/usr/bin/python3 oracles/outside/python/numpy_server.py"
"""
import itertools

import numpy as np

from convcheck_server import serve


def pad(x, begin, end):
    """x [N, C, spatial...] over input positions [-begin, in + end): zeros where a padding is positive, cropped
    where it is negative. Padded first, then cut, so that a crop longer than the input eats into the other side's
    padding (in 1, begin -2, end 2 is the one position 2, a zero)."""
    padded = np.pad(x, [(0, 0), (0, 0)] + [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)])
    return padded[(slice(None),) * 2 + tuple(slice(max(b, 0) - b, max(b, 0) + n + e)
                                             for n, b, e in zip(x.shape[2:], begin, end))]


def unpad(grad_padded, shape, begin, end):
    """The gradient of pad(): what lands on the input positions pad() kept; zero on those it cropped. The window
    is widened with zeros to cover every input position, then the input's positions are cut out of it."""
    widened = np.pad(grad_padded, [(0, 0), (0, 0)] + [(max(-b, 0), max(-e, 0)) for b, e in zip(begin, end)])
    return widened[(slice(None),) * 2 + tuple(slice(max(b, 0), max(b, 0) + n)
                                              for n, b, e in zip(shape[2:], begin, end))]


def compute(problem, tensors):
    g, stride, dilation = problem["groups"], problem["stride"], problem["dilation"]
    begin, end = problem["pad_begin"], problem["pad_end"]
    data, weight, grad_output = (tensors[role].astype(np.float64) for role in ("data", "weight", "grad_output"))
    n, c = data.shape[:2]
    k, out = weight.shape[0], grad_output.shape[2:]
    x = pad(data, begin, end).reshape(n, g, c // g, *[s + b + e for s, b, e in zip(data.shape[2:], begin, end)])
    w = weight.reshape(g, k // g, c // g, *weight.shape[2:])
    dy = grad_output.reshape(n, g, k // g, *out)
    y, dx, dw = np.zeros(dy.shape), np.zeros(x.shape), np.zeros(w.shape)
    for tap in itertools.product(*(range(size) for size in weight.shape[2:])):
        window = (slice(None),) * 3 + tuple(slice(t * d, t * d + s * (o - 1) + 1, s)
                                            for t, d, s, o in zip(tap, dilation, stride, out))
        w_tap = w[(slice(None),) * 3 + tap]
        y += np.einsum("ngc...,gkc->ngk...", x[window], w_tap)
        dx[window] += np.einsum("ngk...,gkc->ngc...", dy, w_tap)
        dw[(slice(None),) * 3 + tap] = np.einsum("ngcp,ngkp->gkc", x[window].reshape(n, g, c // g, -1),
                                                 dy.reshape(n, g, k // g, -1))
    padded_shape = (n, c) + x.shape[3:]
    return {"output": y.reshape(n, k, *out).astype(problem["dst_dtype"]),
            "grad_data": unpad(dx.reshape(padded_shape), data.shape, begin, end).astype(problem["src_dtype"]),
            "grad_weight": dw.reshape(weight.shape).astype(problem["weight_dtype"])}


if __name__ == "__main__":
    serve(compute, name=f"numpy {np.__version__}", supports={"dtypes": ["float32", "float64"]})
