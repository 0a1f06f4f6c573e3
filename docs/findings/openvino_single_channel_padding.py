#!/usr/bin/env python3
"""OpenVINO's CPU plugin returns garbage where a one-channel convolution's window lies wholly in the padding
(docs/findings.md): with OpenVINO alone, no convcheck.

    venvs/openvino/bin/python docs/findings/openvino_single_channel_padding.py   # exit 1 while the bug shows

A Convolution with one input and one output channel, 2-D or 3-D, f32 (INFERENCE_PRECISION_HINT f32, one thread),
runs oneDNN's jit_avx2_f32 kernel on an AVX2 host (the runtime model's primitiveType). Where its padding on the last
axis is at least the dilated kernel's extent, some output columns see only padding and must be exactly 0; OpenVINO
returns the first input column times a value that changes from run to run (1e34, 1e-42, sometimes 0): memory the
kernel reads that holds neither the weight nor the data. Integer data and weights make every right value exact, so
any difference is the bug. Each shape is compiled and run REPEATS times, since the garbage is sometimes 0.
"""
import sys

import numpy as np
import openvino as ov
import openvino.opset16 as ops

CORE = ov.Core()
REPEATS = 5


def run(x, w, pads_begin, pads_end):
    spatial = x.ndim - 2
    p = ops.parameter(list(x.shape), ov.Type.f32, name="X")
    y = ops.convolution(p, ops.constant(w), [1] * spatial, pads_begin, pads_end, [1] * spatial)
    compiled = CORE.compile_model(ov.Model([y], [p]), "CPU", {"INFERENCE_PRECISION_HINT": "f32",
                                                              "INFERENCE_NUM_THREADS": 1})
    request = compiled.create_infer_request()
    request.infer({0: x})
    nodes = [node.get_rt_info() for node in compiled.get_runtime_model().get_ordered_ops()]
    primitive = [info["primitiveType"].astype(str) for info in nodes if info["layerType"].astype(str) == "Convolution"]
    return request.get_output_tensor(0).data.copy(), primitive[0]


def main():
    print(f"OpenVINO {ov.get_version()}, CPU {CORE.get_property('CPU', 'FULL_DEVICE_NAME')}")
    rng = np.random.default_rng(1)
    wrong = 0
    # x [1, 1, 4, 6], w [1, 1, 1, 1] = 2, padding 2 at the beginning of the width: output [1, 1, 4, 8] whose first two
    # columns see only padding (0), the rest 2 * x. The 3-D and pad_end forms show the same.
    shapes = [([1, 1, 4, 6], [1, 1, 1, 1], [0, 2], [0, 0]),
              ([1, 1, 4, 6], [1, 1, 1, 1], [0, 0], [0, 3]),
              ([1, 1, 3, 4, 6], [1, 1, 1, 1, 1], [0, 0, 2], [0, 0, 0])]
    for x_shape, w_shape, pads_begin, pads_end in shapes:
        x = rng.integers(-4, 5, x_shape).astype(np.float32)
        w = np.full(w_shape, 2, np.float32)
        expected = 2 * np.pad(x, [(0, 0)] * (len(x_shape) - 1) + [(pads_begin[-1], pads_end[-1])])
        for _ in range(REPEATS):
            y, primitive = run(x, w, pads_begin, pads_end)
            bad = y != expected
            if bad.any():
                wrong += 1
                print(f"x {x_shape}, w {w_shape} = 2, pads_begin {pads_begin}, pads_end {pads_end}: {primitive} "
                      f"returns {int(bad.sum())} of {y.size} elements wrong, e.g. {y[bad][:3]} where "
                      f"{expected[bad][:3]} is right")
                break
        else:
            print(f"x {x_shape}, pads_begin {pads_begin}, pads_end {pads_end}: {primitive} right in {REPEATS} runs")
    if wrong:
        print("the bug shows")
        return 1
    print("no wrong result: the bug does not show here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
