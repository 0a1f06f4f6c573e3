#!/usr/bin/env python3
"""OpenVINO's CPU plugin rounds float32 to bfloat16 wrongly on CPUs without AVX-512 (docs/findings.md): with OpenVINO
alone, no convcheck.

    venvs/openvino/bin/python docs/findings/openvino_bf16_rounding.py      # exit 1 while the bug shows, 0 once fixed

On AVX2 and SSE4.1 the CPU plugin's "round_to_nearest_even emulation" (jit_uni_vcvtneps2bf16, emitters/plugin/x64/
jit_bf16_emitters.hpp) adds (bits & 0x10000) >> 1 before it keeps the upper 16 bits: half an ulp when the kept part is
odd, nothing when it is even. So a float32 whose kept part is even is truncated (an error up to one bfloat16 ulp, not
half), one whose kept part is odd rounds half up. ov::bfloat16's own round_to_nearest_even (core/type/bfloat16.hpp),
which converts a Constant, has the same formula. Round to nearest even adds 0x7FFF + ((bits >> 16) & 1).

1. Convert f32 -> bf16 of values around 1.0 and 1.0078125 (the bfloat16 after it), against round to nearest even.
2. A bfloat16 Convolution (kernel 2, x = [1, 1], w = [1, 0.005859375], all exact in bfloat16): the float32 sum is
   1.005859375, 0.75 ulp above 1.0; round to nearest gives 1.0078125, OpenVINO 1.0.
3. The whole error of a bfloat16 convolution is that rounding: for random bfloat16 convolutions, OpenVINO's bfloat16
   output is bit for bit the formula above applied to OpenVINO's own float32 output on the same values (the CPU
   plugin runs a bfloat16 model as Convert -> f32 convolution -> Convert, with f32 sums).
"""
import sys

import numpy as np
import openvino as ov
import openvino.opset16 as ops

CORE = ov.Core()
CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}


def nearest_even(values):
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def openvino_formula(values):  # what the AVX2 emulation and ov::bfloat16 compute
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + ((bits & 0x10000) >> 1)) >> 16).astype(np.uint16)


def widen(bits):
    return (np.asarray(bits, np.uint32) << 16).view(np.float32)


def bf16_tensor(bits):
    tensor = ov.Tensor(ov.Type.bf16, list(bits.shape))
    tensor.data.view(np.uint16)[...] = bits
    return tensor


def run(model, inputs):
    request = CORE.compile_model(model, "CPU", CONFIG).create_infer_request()
    request.infer(inputs)
    output = request.get_output_tensor(0)
    return output.data.view(np.uint16).copy() if output.get_element_type() == ov.Type.bf16 else output.data.copy()


def conv_model(x_shape, w_bits, element, groups, stride, pad_begin, pad_end, dilation):
    x = ops.parameter(x_shape, element, name="X")
    w = ops.constant(bf16_tensor(w_bits)) if element == ov.Type.bf16 else ops.constant(widen(w_bits))
    if groups > 1:
        w = ops.reshape(w, [groups, w_bits.shape[0] // groups] + list(w_bits.shape[1:]), special_zero=False)
        y = ops.group_convolution(x, w, stride, pad_begin, pad_end, dilation)
    else:
        y = ops.convolution(x, w, stride, pad_begin, pad_end, dilation)
    return ov.Model([y], [x])


def main():
    print(f"OpenVINO {ov.get_version()}, CPU {CORE.get_property('CPU', 'FULL_DEVICE_NAME')}, capabilities "
          f"{', '.join(CORE.get_property('CPU', 'OPTIMIZATION_CAPABILITIES'))}")
    wrong = 0

    # 1. Convert
    low_halves = [0x0000, 0x4000, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFF]
    bits = np.array([(high << 16) | low for high in (0x3F80, 0x3F81) for low in low_halves], np.uint32)
    values = bits.view(np.float32)
    p = ops.parameter([len(values)], ov.Type.f32, name="P")
    converted = run(ov.Model([ops.convert(p, "bf16")], [p]), {0: values})
    print("1. Convert f32 -> bf16\n   float32 bits  nearest even  OpenVINO")
    for b, expected, got in zip(bits, nearest_even(values), converted):
        print(f"   0x{b:08X}    0x{expected:04X}        0x{got:04X}" + ("   <- wrong" if expected != got else ""))
    wrong += int(np.sum(converted != nearest_even(values)))

    # 2. a one-output convolution
    x_bits = nearest_even([[[1.0, 1.0]]])
    w_bits = nearest_even([[[1.0, 0.005859375]]])
    y = run(conv_model([1, 1, 2], w_bits, ov.Type.bf16, 1, [1], [0], [0], [1]), {0: bf16_tensor(x_bits)})
    print(f"2. Convolution of x = [1, 1] with w = [1, 0.005859375] in bfloat16: sum 1.005859375, nearest bfloat16 "
          f"{widen(nearest_even([1.005859375]))[0]}, OpenVINO {widen(y).ravel()[0]}")
    wrong += int(y.ravel()[0] != nearest_even([1.005859375])[0])

    # 3. random convolutions: the bf16 result is the formula on OpenVINO's own f32 result
    rng = np.random.default_rng(1)
    cases = exact = differ = 0
    for _ in range(40):
        groups = int(rng.choice([1, 2]))
        c, k = groups * int(rng.integers(1, 5)), groups * int(rng.integers(1, 5))
        kernel, size = [int(rng.integers(1, 4)) for _ in range(2)], [int(rng.integers(4, 9)) for _ in range(2)]
        x_bits = nearest_even(rng.uniform(-2, 2, [1, c] + size))
        w_bits = nearest_even(rng.uniform(-2, 2, [k, c // groups] + kernel))
        shape = dict(groups=groups, stride=[1, 1], pad_begin=[1, 0], pad_end=[0, 1], dilation=[1, 1])
        y_bf16 = run(conv_model(list(x_bits.shape), w_bits, ov.Type.bf16, **shape), {0: bf16_tensor(x_bits)})
        y_f32 = run(conv_model(list(x_bits.shape), w_bits, ov.Type.f32, **shape), {0: widen(x_bits)})
        cases += 1
        exact += int(np.array_equal(y_bf16, openvino_formula(y_f32)))
        differ += int(np.sum(y_bf16 != nearest_even(y_f32)))
    print(f"3. {cases} random 2-D bfloat16 convolutions: OpenVINO's bfloat16 output is the formula on its own float32 "
          f"output in {exact} of {cases}; {differ} elements differ from that output rounded to nearest even")
    wrong += differ
    if wrong:
        print("the bug shows: float32 -> bfloat16 is not rounded to nearest even")
        return 1
    print("no wrong rounding: the bug does not show on this CPU or this version")
    return 0


if __name__ == "__main__":
    sys.exit(main())
