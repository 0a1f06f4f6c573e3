#!/usr/bin/env python3
"""ONNX Runtime as a convcheck server (docs/external.md, docs/libraries/onnxruntime.md).

usage: onnxruntime_server.py onnxruntime         graph optimizations off (ORT_DISABLE_ALL): ONNX Runtime's own Conv
                                                 and ConvTranspose CPU kernels on MLAS (direct GEMM, im2col + GEMM,
                                                 depthwise; ConvTranspose as GEMM + col2im)
       onnxruntime_server.py onnxruntime_nchwc   every optimization on (ORT_ENABLE_ALL): the NCHWc transformer
                                                 rewrites the Conv it can take into MLAS's blocked NchwcConv
                                                 (com.microsoft.nchwc), between ReorderInput and ReorderOutput

Run it with venvs/onnxruntime/bin/python (scripts/install-deps.sh onnxruntime). Each case becomes a one-node ONNX
model built in memory with onnx.helper, as a converter would write it: X [N, C, spatial...] a graph input of static
shape, W a constant initializer (as in every deployed model; the NCHWc transformer takes only a constant weight and
ConvTranspose prepacks one), no bias, and the node's attributes (group, dilations, strides, kernel_shape, pads as
[begin..., end...], output_padding for a ConvTranspose). convcheck's canonical tensors are ONNX's own layouts: data
NCHW, a conv's weight [C_out, C_in/group, k...] (ONNX's M x C/group x k), a deconv's [C_in, C_out/group, k...]
(ONNX ConvTranspose's C x M/group x k), output NCHW. The model runs in an InferenceSession on the CPU execution
provider with one intra-op thread (convcheck runs cases in parallel already); the output is sent back as ONNX Runtime
computed it.

What it declares (the hello), and why:
- ops conv and deconv (Conv, ConvTranspose), `"directions": ["output"]`: ONNX Runtime's inference sessions compute
  no gradients, so convcheck skips grad_data and grad_weight saying so;
- ranks 1 to 3 (ONNX Conv takes any; MLAS computes 1-D to 3-D). onnxruntime_nchwc declares 2-D convs only: the NCHWc
  transformer rewrites nothing else (main() says how that was checked);
- formats float32 and float16. The CPU execution provider has no float64 or bfloat16 Conv ("Could not find an
  implementation for Conv(22) node"), so neither is declared. float16 is computed, as ONNX Runtime says in the
  optimized model, by Cast to float32, the float32 Conv and a Cast of the result back to float16: the f16_f32acc row
  (float16 tensors, float32 sums, one rounding). ONNX's Conv has one type for X, W and Y, so the f16_to_f32 row
  (float16 inputs, a float32 result) is the model a converter writes for it: X and W Cast to float32 in the graph,
  then a float32 Conv;
- layouts NCHW (`ncx`) and the canonical weights (`oix`): ONNX's Conv has no other;
- no negative padding: ONNX's pads are >= 0 ("[ShapeInferenceError] Attribute pads must not contain negative
  values"). onnxruntime_nchwc declares `"crops": false`; onnxruntime declares crops and answers `unsupported` to a
  negative pad, because convcheck counts a deconv whose output_padding passes its end padding as a crop of its
  equivalent conv, and ONNX expresses that deconv (main());
- every kernel size, stride, dilation, group count and asymmetric padding; a deconv's output_padding.

Anything ONNX Runtime raises on a problem inside that is sent back as an error: a finding, never a skip.

A known ONNX Runtime bug is held back by convcheck, not here: a row of oracles/onnxruntime/known_bugs.cpp, asked
before a case is sent (`--run-held-back` sends it anyway).

Environment (for tests and campaigns):
  CONVCHECK_ORT_PLANT_ERROR=1   a deliberate error: the first element of every output is changed, so a campaign must
                                find it (tests/interop/onnxruntime_server.sh)
  CONVCHECK_ORT_THREADS=N       N intra-op threads instead of 1: MLAS's multithreaded partitions of the same kernels
  CONVCHECK_ORT_GRAPHS=FILE     append one JSON line a case to FILE: the problem and the nodes of the model ONNX
                                Runtime ran after its optimizations (SessionOptions.optimized_model_filepath), e.g.
                                ReorderInput, com.microsoft.nchwc:Conv, ReorderOutput
"""
import json
import os
import pathlib
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

# the server helper lives with the other outside-implementation pieces (oracles/outside/python/)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
from convcheck_server import Unsupported, serve  # noqa: E402

LEVELS = {"onnxruntime": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
          "onnxruntime_nchwc": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}
OPSET = 22  # Conv-22 and ConvTranspose-22, the newest versions of both ops
IR_VERSION = 10
ELEMENT = {"float32": TensorProto.FLOAT, "float16": TensorProto.FLOAT16}
NUMPY = {"float32": np.float32, "float16": np.float16}
THREADS = int(os.environ.get("CONVCHECK_ORT_THREADS", "1"))  # MLAS splits a conv across intra-op threads above 1
NEGATIVE_PADS = ("negative padding: ONNX's pads are >= 0 (ONNX Runtime: \"[ShapeInferenceError] Attribute pads must "
                 "not contain negative values\")")

def onnx_model(problem, weight):
    """The problem as a one-node ONNX model (bytes): X a graph input, W `weight` as an initializer."""
    op, ndims = problem.get("op", "conv"), int(problem["ndims"])
    src, wei, dst = problem["src_dtype"], problem["weight_dtype"], problem["dst_dtype"]
    if op not in ("conv", "deconv"):
        raise Unsupported(f"op {op}")
    if (src, wei) not in (("float32", "float32"), ("float16", "float16")) or dst not in ELEMENT:
        raise Unsupported(f"formats {src}, {wei} -> {dst}")
    if any(p < 0 for p in problem["pad_begin"] + problem["pad_end"]):
        raise Unsupported(NEGATIVE_PADS)
    attributes = dict(group=int(problem["groups"]), kernel_shape=list(weight.shape[2:]),
                      strides=list(problem["stride"]), dilations=list(problem["dilation"]),
                      pads=list(problem["pad_begin"]) + list(problem["pad_end"]))
    if op == "deconv":
        attributes["output_padding"] = list(problem.get("output_padding", [0] * ndims))
    x_shape = [int(problem["batch"]), int(problem["in_channels"])] + list(problem["in_size"])
    nodes, x_name, w_name = [], "X", "W"
    if src != dst:  # float16 inputs, a float32 result: one type per Conv, so the inputs are cast first
        nodes += [helper.make_node("Cast", ["X"], ["X32"], to=ELEMENT[dst]),
                  helper.make_node("Cast", ["W"], ["W32"], to=ELEMENT[dst])]
        x_name, w_name = "X32", "W32"
    nodes.append(helper.make_node("Conv" if op == "conv" else "ConvTranspose", [x_name, w_name], ["Y"],
                                  **attributes))
    graph = helper.make_graph(nodes, op, [helper.make_tensor_value_info("X", ELEMENT[src], x_shape)],
                              [helper.make_tensor_value_info("Y", ELEMENT[dst], None)],
                              initializer=[numpy_helper.from_array(np.ascontiguousarray(weight, NUMPY[wei]), "W")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION,
                              producer_name="convcheck")
    return model.SerializeToString()


def session(model_bytes, strategy, optimized_path=None):
    options = ort.SessionOptions()
    options.graph_optimization_level = LEVELS[strategy]
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only: the NCHWc transformer warns at every dump of an optimized model
    if optimized_path is not None:
        options.optimized_model_filepath = optimized_path
    return ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])


def optimized_nodes(model_bytes, strategy):
    """The nodes of the model ONNX Runtime runs after its graph optimizations, as "domain:op" (domain "" left out)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "optimized.onnx")
        session(model_bytes, strategy, path)
        graph = onnx.load(path).graph
    return [f"{node.domain}:{node.op_type}" if node.domain else node.op_type for node in graph.node]


def nchwc_block():
    """MLAS's NCHWc channel block on this CPU (8 with AVX2, 16 with AVX-512), read from the blocked weight the NCHWc
    transformer writes for a one-channel 3x3 conv; None where it does not rewrite it."""
    problem = {"op": "conv", "ndims": 2, "batch": 1, "in_channels": 1, "in_size": [8, 8], "groups": 1,
               "stride": [1, 1], "dilation": [1, 1], "pad_begin": [0, 0], "pad_end": [0, 0],
               "src_dtype": "float32", "weight_dtype": "float32", "dst_dtype": "float32"}
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "optimized.onnx")
        session(onnx_model(problem, np.ones([1, 1, 3, 3], np.float32)), "onnxruntime_nchwc", path)
        graph = onnx.load(path).graph
    if not any(node.domain == "com.microsoft.nchwc" for node in graph.node):
        return None
    return max(int(initializer.dims[0]) for initializer in graph.initializer)


def compute(strategy, problem, tensors):
    model_bytes = onnx_model(problem, tensors["weight"])
    x = np.ascontiguousarray(tensors["data"], NUMPY[problem["src_dtype"]])
    (y,) = session(model_bytes, strategy).run(None, {"X": x})
    expected = NUMPY[problem["dst_dtype"]]
    if y.dtype != expected:
        raise RuntimeError(f"ONNX Runtime returned {y.dtype}, the model says {np.dtype(expected)}")
    if os.environ.get("CONVCHECK_ORT_PLANT_ERROR") == "1" and y.size:
        y = y.copy()
        y.flat[0] = y.flat[0] * 2 + 1  # never within a bound: 1 + |y| away where |y| < 1, double it elsewhere
    graphs = os.environ.get("CONVCHECK_ORT_GRAPHS")
    if graphs:
        with open(graphs, "a") as log:
            log.write(json.dumps({"problem": problem, "nodes": optimized_nodes(model_bytes, strategy)}) + "\n")
    return {"output": y}


def main(strategy):
    if strategy == "onnxruntime":
        what = "CPU EP, ORT_DISABLE_ALL: Conv and ConvTranspose kernels on MLAS"
    else:
        block = nchwc_block()
        what = ("CPU EP, ORT_ENABLE_ALL: com.microsoft.nchwc Conv (channel block {}) where the NCHWc transformer "
                "takes the Conv, the Conv kernel on MLAS elsewhere").format(block or "none on this CPU")
    what += f", {THREADS} thread" + ("s" if THREADS > 1 else "")
    # The NCHWc transformer rewrites 2-D Convs only: a 1-D or 3-D Conv and every ConvTranspose stay the nodes and
    # kernels `onnxruntime` runs (their optimized models hold the same one node), so onnxruntime_nchwc declares only
    # 2-D convs and `fuzz --focus onnxruntime_nchwc` draws only problems the transformer is offered.
    #
    # convcheck's "crops" are negative paddings of what is computed, and a deconv is computed as its equivalent conv,
    # whose end padding is pad_end - output_padding: `"crops": false` would keep away every ConvTranspose whose
    # output_padding is larger than its end padding, which ONNX expresses (pads >= 0, output_padding > 0). So
    # `onnxruntime`, which takes deconvs, declares crops and answers `unsupported` to a negative ONNX pad; the
    # conv-only onnxruntime_nchwc declares none.
    ops, ranks = (["conv", "deconv"], [1, 2, 3]) if strategy == "onnxruntime" else (["conv"], [2])
    serve(lambda problem, tensors: compute(strategy, problem, tensors), name="onnxruntime",
          version=f"{ort.__version__} ({what})",
          supports={"ops": ops, "ranks": ranks, "dtypes": ["float32", "float16"], "data_layouts": ["ncx"],
                    "weight_layouts": ["oix"], "crops": strategy == "onnxruntime", "directions": ["output"]})


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in LEVELS:
        sys.exit("usage: onnxruntime_server.py onnxruntime|onnxruntime_nchwc")
    main(sys.argv[1])
