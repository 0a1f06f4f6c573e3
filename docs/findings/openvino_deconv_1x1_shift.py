#!/usr/bin/env python3
"""OpenVINO's CPU plugin ignores pads_begin in a 1x1, stride-1 ConvolutionBackpropData whose output_padding gives the
output back the input's size (docs/findings.md): with OpenVINO alone, no convcheck.

    venvs/openvino/bin/python docs/findings/openvino_deconv_1x1_shift.py     # exit 1 while the bug shows

A ConvolutionBackpropData with a 1-tap kernel and stride 1 on every axis, pads_begin p > 0 and output_padding p
(allowed: output_padding < dilation, and the dilation of a 1-tap kernel changes nothing else) has the output size of
its input: Y = stride * (X - 1) + 1 - pads_begin - pads_end + output_padding = X. By the spec the output is the input
times the weight moved p positions towards the beginning (pads_begin crops p positions there) with p zeros at the end
(output_padding adds them). OpenVINO returns the input times the weight where it is, unmoved (jit_gemm_f32 on AVX2).
Integer data, so every right value is exact.
"""
import sys

import numpy as np
import openvino as ov
import openvino.opset16 as ops

CORE = ov.Core()


def run(x, weight, pads_begin, pads_end, output_padding, dilations):
    spatial = x.ndim - 2
    p = ops.parameter(list(x.shape), ov.Type.f32, name="X")
    w = ops.constant(np.full([x.shape[1], 1] + [1] * spatial, weight, np.float32))
    y = ops.convolution_backprop_data(p, w, [1] * spatial, pads_begin=pads_begin, pads_end=pads_end,
                                      dilations=dilations, output_padding=output_padding)
    compiled = CORE.compile_model(ov.Model([y], [p]), "CPU", {"INFERENCE_PRECISION_HINT": "f32",
                                                              "INFERENCE_NUM_THREADS": 1})
    request = compiled.create_infer_request()
    request.infer({0: x})
    nodes = [node.get_rt_info() for node in compiled.get_runtime_model().get_ordered_ops()]
    primitive = [info["primitiveType"].astype(str) for info in nodes
                 if info["layerType"].astype(str) == "Deconvolution"]
    return request.get_output_tensor(0).data.copy(), primitive[0]


def main():
    print(f"OpenVINO {ov.get_version()}, CPU {CORE.get_property('CPU', 'FULL_DEVICE_NAME')}")
    wrong = 0
    for shape, pads_begin, pads_end, output_padding, dilations in (
            ([1, 1, 7], [2], [0], [2], [3]),
            ([1, 1, 7], [1], [1], [2], [3]),
            ([1, 1, 4, 5], [0, 2], [0, 0], [0, 2], [1, 3]),
            ([1, 1, 7], [2], [0], [0], [1])):  # a control: no output_padding, a shorter output, right
        x = np.arange(1, np.prod(shape) + 1, dtype=np.float32).reshape(shape)
        y, primitive = run(x, 2.0, pads_begin, pads_end, output_padding, dilations)
        expected = np.zeros(y.shape, np.float32)
        index = tuple(slice(None, n - b) for n, b in zip(shape[2:], pads_begin))  # the kept input, moved back
        moved = tuple(slice(b, None) for b in pads_begin)
        expected[(slice(None),) * 2 + index] = 2 * x[(slice(None),) * 2 + moved][(slice(None),) * 2 + index]
        bad = int(np.sum(y != expected))
        wrong += bad
        print(f"x {shape} = 1.., w = 2, pads_begin {pads_begin}, pads_end {pads_end}, output_padding {output_padding}, "
              f"dilations {dilations}: {primitive}, {bad} of {y.size} wrong" +
              (f"; first row {y.reshape(-1, shape[-1] if y.shape[-1] == shape[-1] else y.shape[-1])[0]} where "
               f"{expected.reshape(-1, y.shape[-1])[0]} is right" if bad else ""))
    if wrong:
        print("the bug shows")
        return 1
    print("no wrong result: the bug does not show here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
