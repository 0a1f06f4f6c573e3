#!/usr/bin/env python3
"""OpenVINO's CPU plugin as a convcheck server (docs/external.md, docs/libraries/openvino.md).

usage: openvino_server.py openvino        every compile with INFERENCE_PRECISION_HINT f32: the model's own formats,
                                          float32 arithmetic (the CPU plugin's default on a bf16-capable CPU is
                                          bf16, which would round a float32 model's tensors without saying so)
       openvino_server.py openvino_bf16   every compile with INFERENCE_PRECISION_HINT bf16: bfloat16 tensors into
                                          oneDNN's bf16 convolutions, float32 sums; declares nothing on a CPU where
                                          the plugin does not honour the hint (main())

Run it with venvs/openvino/bin/python (scripts/install-deps.sh openvino). Each case becomes a one-op ov.Model built in
memory with the opset16 Python API (opset16 is the newest complete opset of the pinned version: openvino.opset17
adds only ErfInv and GroupedMatMul, and every convolution op there is still version 1), as a converter would write
it: X [N, C, spatial...] a Parameter of static shape, W a Constant, no bias:
- conv, one group: Convolution, W as convcheck's [C_out, C_in, k...] (OpenVINO's OIX);
- conv, G groups: GroupConvolution, W reshaped to [G, C_out/G, C_in/G, k...];
- deconv, one group: ConvolutionBackpropData, W as convcheck's [C_in, C_out, k...] (OpenVINO's IOX);
- deconv, G groups: GroupConvolutionBackpropData, W reshaped to [G, C_in/G, C_out/G, k...];
strides, dilations, pads_begin and pads_end as the problem says them, a deconv's output_padding, no output_shape
input (the op's own formula is convcheck's). The model is compiled on the "CPU" device with one inference thread
(INFERENCE_NUM_THREADS 1: convcheck runs cases in parallel already) and the inference precision hint above, and the
output is sent back as OpenVINO computed it.

What it declares (the hello), and why:
- ops conv and deconv, `"directions": ["output"]`: an inference runtime computes no gradients;
- ranks 1 to 3 (the CPU plugin's Convolution node takes 1-D to 3-D);
- formats (openvino) float32, float16 and bfloat16: a float16 or bfloat16 model is computed, as the runtime model
  says, by a Convert to float32, the float32 convolution and a Convert of the result back (the f16_f32acc and
  bf16_f32acc rows: float32 sums, one rounding). An input-only low-precision problem (f16_to_f32, bf16_to_f32) is
  the model a converter writes for it: X and W Converted to float32 in the graph, then a float32 convolution. No
  float64: the CPU plugin computes f64 models in f32. The server checks each compiled model: a convolution node
  that runs in anything but f32 is an error (a finding), never a silent result, except a bfloat16 model's on a CPU
  with bf16 convolutions (AVX512-BF16, AMX), which the plugin runs natively in oneDNN's bf16 kernels with f32 sums:
  the row's own arithmetic;
- layouts NCHW (`ncx`) and the canonical weights (`oix`): OpenVINO's ops take no other;
- no negative padding: OpenVINO's opset spec says pads_begin and pads_end are non-negative, and the CPU plugin
  refuses them at compile ("could not construct a memory descriptor using a format tag" for a Convolution, "could
  not create a primitive descriptor for the deconvolution forward propagation primitive" for a
  ConvolutionBackpropData). The server declares crops and answers `unsupported` to a negative pad, because a
  deconv whose output_padding passes its end padding counts as a crop of its equivalent conv and OpenVINO
  expresses it (as onnxruntime_server.py does);
- every kernel size, stride, dilation, group count and asymmetric padding; a deconv's output_padding.

Anything OpenVINO raises on a problem inside that is sent back as an error: a finding, never a skip.

Environment (for tests and campaigns):
  CONVCHECK_OV_PLANT_ERROR=1   a deliberate error: the first element of every output is changed, so a campaign must
                               find it (tests/interop/openvino_server.sh)
  CONVCHECK_OV_THREADS=N       N inference threads instead of 1
  CONVCHECK_OV_GRAPHS=FILE     append one JSON line a case to FILE: the problem and the nodes of the runtime model
                               the CPU plugin compiled (compiled_model.get_runtime_model(): each node's layerType,
                               primitiveType and runtimePrecision, e.g. Convolution brgconv_avx2_f32 f32)
"""
import json
import os
import pathlib
import sys

import numpy as np
import openvino as ov
import openvino.opset16 as ops

# the server helper lives with the other outside-implementation pieces (oracles/outside/python/)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
from convcheck_server import InFormat, Unsupported, serve  # noqa: E402

HINTS = {"openvino": "f32", "openvino_bf16": "bf16"}
ELEMENT = {"float32": ov.Type.f32, "float16": ov.Type.f16, "bfloat16": ov.Type.bf16}
THREADS = int(os.environ.get("CONVCHECK_OV_THREADS", "1"))
CONV_NODES = ("Convolution", "Deconvolution")  # the CPU plugin's layerType for the four ops
NEGATIVE_PADS = ("negative padding: OpenVINO's pads_begin and pads_end are non-negative (the CPU plugin: \"could not "
                 "construct a memory descriptor using a format tag\")")
CORE = ov.Core()


def constant(array, dtype):
    """A Constant of `dtype`; a bfloat16 one from the uint16 bits convcheck sends (NumPy has no bfloat16)."""
    if dtype == "bfloat16":
        tensor = ov.Tensor(ov.Type.bf16, list(array.shape))
        tensor.data.view(np.uint16)[...] = array
        return ops.constant(tensor)
    return ops.constant(np.ascontiguousarray(array, dtype))


def convolution(problem, x, w):
    """The problem's op on nodes x and w (w holding convcheck's canonical weight)."""
    op, groups, ndims = problem.get("op", "conv"), int(problem["groups"]), int(problem["ndims"])
    shape = w.get_output_partial_shape(0).to_shape()
    common = dict(strides=list(problem["stride"]), pads_begin=list(problem["pad_begin"]),
                  pads_end=list(problem["pad_end"]), dilations=list(problem["dilation"]))
    if op == "conv":
        if groups == 1:
            return ops.convolution(x, w, **common)
        grouped = [groups, shape[0] // groups, shape[1]] + list(shape[2:])  # [G, C_out/G, C_in/G, k...]
        return ops.group_convolution(x, ops.reshape(w, grouped, special_zero=False), **common)
    output_padding = list(problem.get("output_padding", [0] * ndims))
    if groups == 1:
        return ops.convolution_backprop_data(x, w, output_padding=output_padding, **common)
    grouped = [groups, shape[0] // groups, shape[1]] + list(shape[2:])  # [G, C_in/G, C_out/G, k...]
    return ops.group_convolution_backprop_data(x, ops.reshape(w, grouped, special_zero=False),
                                               output_padding=output_padding, **common)


def model(problem, weight):
    """The problem as a one-op ov.Model: X a Parameter, W `weight` a Constant."""
    src, wei, dst = problem["src_dtype"], problem["weight_dtype"], problem["dst_dtype"]
    if problem.get("op", "conv") not in ("conv", "deconv"):
        raise Unsupported(f"op {problem.get('op')}")
    if src != wei or src not in ELEMENT or dst not in ELEMENT or (src != dst and dst != "float32"):
        raise Unsupported(f"formats {src}, {wei} -> {dst}")
    if any(p < 0 for p in problem["pad_begin"] + problem["pad_end"]):
        raise Unsupported(NEGATIVE_PADS)
    x_shape = [int(problem["batch"]), int(problem["in_channels"])] + list(problem["in_size"])
    x = ops.parameter(x_shape, ELEMENT[src], name="X")
    x_node, w_node = x, constant(weight, wei)
    if src != dst:  # low-precision inputs, a float32 result: one element type per op, so the inputs are converted
        x_node, w_node = ops.convert(x_node, "f32"), ops.convert(w_node, "f32")
    return ov.Model([convolution(problem, x_node, w_node)], [x], problem.get("op", "conv"))


def compile_model(ov_model, strategy):
    return CORE.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": HINTS[strategy],
                                                "INFERENCE_NUM_THREADS": THREADS})


def runtime_nodes(compiled):
    """The runtime model's nodes: (layerType, primitiveType, runtimePrecision), in execution order."""
    nodes = []
    for node in compiled.get_runtime_model().get_ordered_ops():
        info = node.get_rt_info()
        nodes.append(tuple(info[key].astype(str) for key in ("layerType", "primitiveType", "runtimePrecision")))
    return nodes


def compute(strategy, problem, tensors):
    if strategy == "openvino_bf16" and problem["src_dtype"] != "bfloat16":
        raise Unsupported("float32 tensors under the bf16 inference precision hint are rounded to bfloat16 by "
                          "design (the openvino strategy computes them in f32)")
    compiled = compile_model(model(problem, tensors["weight"]), strategy)
    nodes = runtime_nodes(compiled)
    ran = [node for node in nodes if node[0] in CONV_NODES]
    # Under the f32 hint a float32 model's convolution must run in f32. A bfloat16 model (bf16_f32acc: bfloat16 input,
    # weight and output) is the model's own format: a CPU with bf16 convolutions (AVX512-BF16, AMX) runs it natively
    # in oneDNN's bf16 kernels, summing in f32, the row's own arithmetic; one without converts it to f32 first. Under
    # the bf16 hint the convolution runs in bf16, except one whose output is float32 (bf16_to_f32: the inputs
    # Converted in the graph), which the plugin keeps in f32: exact bf16 inputs, f32 sums, the row's arithmetic too.
    expected = {"bf16"} if strategy == "openvino_bf16" else {"f32"}
    if strategy == "openvino" and {problem["src_dtype"], problem["weight_dtype"], problem["dst_dtype"]} == {"bfloat16"}:
        expected.add("bf16")
    if strategy == "openvino_bf16" and problem["dst_dtype"] == "float32":
        expected.add("f32")
    if len(ran) != 1 or ran[0][2] not in expected:
        raise RuntimeError(f"the compiled model runs {ran or 'no convolution'}, not one {' or '.join(sorted(expected))} "
                           f"convolution: {nodes}")
    src, dst = problem["src_dtype"], problem["dst_dtype"]
    x = ov.Tensor(ELEMENT[src], list(tensors["data"].shape))
    x.data.view(np.uint16 if src == "bfloat16" else x.data.dtype)[...] = tensors["data"]
    request = compiled.create_infer_request()
    request.infer({0: x})
    y = request.get_output_tensor(0)
    if y.get_element_type() != ELEMENT[dst]:
        raise RuntimeError(f"OpenVINO returned {y.get_element_type()}, the model says {ELEMENT[dst]}")
    result = y.data.view(np.uint16).copy() if dst == "bfloat16" else y.data.copy()
    if os.environ.get("CONVCHECK_OV_PLANT_ERROR") == "1" and result.size:
        if dst == "bfloat16":
            result.flat[0] ^= 0x4000  # an exponent bit: never within a bound
        else:
            result.flat[0] = result.flat[0] * 2 + 1  # 1 + |y| away where |y| < 1, double it elsewhere
    graphs = os.environ.get("CONVCHECK_OV_GRAPHS")
    if graphs:
        with open(graphs, "a") as log:
            log.write(json.dumps({"problem": problem, "nodes": nodes}) + "\n")
    return {"output": InFormat(result, "bfloat16") if dst == "bfloat16" else result}


def probe(strategy):
    """(hint read back from the compiled model, the convolution node's primitiveType and runtimePrecision) for a
    one-channel 3x3 float32 conv compiled under the strategy's hint, and for its bfloat16 model."""
    problem = {"op": "conv", "ndims": 2, "batch": 1, "in_channels": 1, "in_size": [8, 8], "groups": 1,
               "stride": [1, 1], "dilation": [1, 1], "pad_begin": [0, 0], "pad_end": [0, 0],
               "src_dtype": "float32", "weight_dtype": "float32", "dst_dtype": "float32"}
    found = {}
    for dtype, weight in (("float32", np.ones([1, 1, 3, 3], np.float32)),
                          ("bfloat16", np.full([1, 1, 3, 3], 0x3F80, np.uint16))):
        compiled = compile_model(model(dict(problem, src_dtype=dtype, weight_dtype=dtype, dst_dtype=dtype), weight),
                                 strategy)
        conv = [node for node in runtime_nodes(compiled) if node[0] in CONV_NODES][0]
        found[dtype] = (compiled.get_property("INFERENCE_PRECISION_HINT").to_string(), conv[1], conv[2])
    return found


def main(strategy):
    capabilities = ", ".join(CORE.get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
    found = probe(strategy)
    hint, primitive, precision = found["float32"]
    what = (f"CPU plugin ({CORE.get_property('CPU', 'FULL_DEVICE_NAME')}; capabilities {capabilities}), "
            f"INFERENCE_PRECISION_HINT {HINTS[strategy]} read back as {hint}, a 3x3 float32 conv runs "
            f"{primitive} in {precision}, {THREADS} thread" + ("s" if THREADS > 1 else ""))
    dtypes = ["float32", "float16", "bfloat16"]
    if strategy == "openvino_bf16":
        # The CPU plugin honours the bf16 hint only where oneDNN has bf16 convolutions (precision_support.cpp:
        # avx512_core and up); elsewhere it keeps f32, and the compiled model reads the hint back as f32. Then this
        # strategy computes nothing the `openvino` strategy does not, so it declares nothing.
        if found["bfloat16"][2] != "bf16":
            what += "; the bf16 hint is not honoured on this CPU: nothing declared"
            dtypes = []
            print(f"openvino_bf16: {what}", file=sys.stderr)
        else:
            dtypes = ["float32", "bfloat16"]  # its bf16 rows; float32 problems are answered unsupported (compute)
    serve(lambda problem, tensors: compute(strategy, problem, tensors), name="openvino",
          version=f"{ov.get_version()} ({what})",
          supports={"ops": ["conv", "deconv"], "ranks": [1, 2, 3], "dtypes": dtypes, "data_layouts": ["ncx"],
                    "weight_layouts": ["oix"], "crops": True, "directions": ["output"]})



if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in HINTS:
        sys.exit("usage: openvino_server.py openvino|openvino_bf16")
    main(sys.argv[1])
