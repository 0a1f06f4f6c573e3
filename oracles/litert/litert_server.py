#!/usr/bin/env python3
"""LiteRT (TensorFlow Lite) as a convcheck server (docs/external.md, docs/libraries/litert.md).

usage: litert_server.py litert_xnnpack     OpResolverType.AUTO: the builtin op resolver with LiteRT's default
                                           delegate, XNNPACK, which takes the whole model (checked per case)
       litert_server.py litert_builtin     BUILTIN_WITHOUT_DEFAULT_DELEGATES: the builtin optimized kernels, no
                                           delegate (one thread: im2col + GEMM; the reference kernel for a grouped
                                           CONV_2D, which the optimized one does not take)
       litert_server.py litert_reference   BUILTIN_REF: the reference kernels (BuiltinRefOpResolver), no delegate

Run it with venvs/litert/bin/python (scripts/install-deps.sh litert). Each case becomes a .tflite model built in
memory without TensorFlow (tflite_model.py: the TFLite schema module ai-edge-litert ships and the flatbuffers
package): the data a float32 graph input in NHWC (NDHWC), the weight a constant buffer in TFLite's filter layout,
and the operators a converter writes: CONV_2D (grouped where groups > 1 and not depthwise), DEPTHWISE_CONV_2D (groups
== in_channels > 1), CONV_3D, TRANSPOSE_CONV, CONV_3D_TRANSPOSE; SAME or VALID padding where the problem's is exactly
that, else a PAD (and a SLICE for a crop) before a VALID conv, or a PAD and SLICE after a VALID deconv; 1-D as 2-D
with a height of 1. The same model bytes run on each strategy's op resolver in an Interpreter of one thread
(convcheck runs cases in parallel already); the output is converted back to convcheck's channels-first layout, as
LiteRT computed it.

What it declares (the hello), and why:
- ops conv and deconv, `"directions": ["output"]`: the Interpreter runs inference only;
- ranks 1 to 3 (litert_builtin, litert_reference: CONV_3D and CONV_3D_TRANSPOSE are builtin operators of both
  resolvers); litert_xnnpack 1 and 2: the XNNPACK delegate takes no CONV_3D or CONV_3D_TRANSPOSE (the builtin
  kernel would run them, which litert_builtin checks);
- format float32 only: a TFLite float16 model is a converter's float16 weights with a DEQUANTIZE to float32 before a
  float32 conv, float32 data and output, which is none of convcheck's precision rows (f16_to_f32 has float16 data);
- layouts: convcheck's canonical ones (`ncx`, `oix`), converted here (tflite_model.py says how);
- crops: a negative padding is a SLICE, as a converter writes a negative ONNX pad;
- answered `unsupported` with TFLite's reasons: a grouped deconv (TRANSPOSE_CONV has no groups), a dilated 1-D or
  2-D deconv (TransposeConvOptions have no dilation), a grouped 3-D conv (CONV_3D has no groups).

Anything LiteRT raises on a model inside that is sent back as an error: a finding, never a skip. litert_xnnpack
checks that the delegate took every operator of the model (the Interpreter's node list says: a DELEGATE node replaces
the operators it took) and answers `unsupported` naming those it left to the builtin kernels otherwise: a declined
operator is LiteRT's choice, not a wrong answer, and the builtin kernel that then runs is litert_builtin's.

A known LiteRT bug is held back by convcheck, not here: a row of oracles/litert/known_bugs.cpp, asked before a case is
sent (`--run-held-back` sends it anyway).

Environment (for tests and campaigns):
  CONVCHECK_LITERT_PLANT_ERROR=1   a deliberate error: the first element of every output is changed, so a campaign
                                   must find it (tests/interop/litert_server.sh)
  CONVCHECK_LITERT_THREADS=N       N threads for the Interpreter instead of 1: XNNPACK's thread pool; for the builtin
                                   CONV_2D the multithreaded Eigen kernel (tflite/kernels/conv.cc takes it only where
                                   recommended_num_threads != 1 and the conv is not dilated)
  CONVCHECK_LITERT_GRAPHS=FILE     append one JSON line a case to FILE: the problem, the model's operators (a
                                   convolution's with its padding, "CONV_2D SAME"), the Interpreter's nodes (the
                                   model's operators, then a DELEGATE node for each part the XNNPACK delegate took)
                                   and, for litert_xnnpack, the operators the delegate left to the builtin kernels
"""
import json
import os
import pathlib
import sys

import numpy as np
from ai_edge_litert import __version__ as litert_version
from ai_edge_litert.interpreter import Interpreter, OpResolverType

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from tflite_model import Unexpressible, conv_model, deconv_model  # noqa: E402

# the server helper lives with the other outside-implementation pieces (oracles/outside/python/)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
from convcheck_server import Unsupported, serve  # noqa: E402

RESOLVERS = {"litert_xnnpack": OpResolverType.AUTO,
             "litert_builtin": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
             "litert_reference": OpResolverType.BUILTIN_REF}
DESCRIPTIONS = {"litert_xnnpack": "OpResolverType.AUTO: the XNNPACK delegate",
                "litert_builtin": "BUILTIN_WITHOUT_DEFAULT_DELEGATES: the builtin optimized kernels",
                "litert_reference": "BUILTIN_REF: the reference kernels"}


THREADS = int(os.environ.get("CONVCHECK_LITERT_THREADS", "1"))


def interpreter(model_bytes, strategy):
    it = Interpreter(model_content=model_bytes, experimental_op_resolver_type=RESOLVERS[strategy],
                     num_threads=THREADS)
    it.allocate_tensors()  # the default delegate is applied here, and each kernel prepared
    return it


def nodes(it):
    """The Interpreter's nodes by name: the model's operators, then a DELEGATE node for each part a delegate took."""
    wrapper = it._interpreter  # the Python API's own node accessors (Interpreter._get_ops_details) read these
    return [wrapper.NodeName(i) for i in range(wrapper.NumNodes())]


def undelegated(it):
    """The model's operators (a chain) the XNNPACK delegate left to the builtin kernels: an operator is delegated
    where a DELEGATE node reads a tensor at or before its input and writes one at or after its output."""
    wrapper = it._interpreter
    names = nodes(it)
    model_ops = [i for i, name in enumerate(names) if name != "DELEGATE"]
    chain = []  # the tensor each model operator reads (its first non-constant input) and writes
    for i in model_ops:
        outputs = list(wrapper.NodeOutputs(i))
        chain.append((i, outputs[0]))
    position = {}  # tensor -> its place in the chain: the input 0, each operator's output its index + 1
    graph_input = it.get_input_details()[0]["index"]
    position[graph_input] = 0
    for place, (_, output) in enumerate(chain):
        position[output] = place + 1
    spans = []
    for i, name in enumerate(names):
        if name == "DELEGATE":
            reads = [position[t] for t in wrapper.NodeInputs(i) if t in position]
            writes = [position[t] for t in wrapper.NodeOutputs(i) if t in position]
            if reads and writes:
                spans.append((min(reads), max(writes)))
    return [names[i] for place, (i, _) in enumerate(chain)
            if not any(first <= place and place + 1 <= last for first, last in spans)]


def compute(strategy, problem, tensors):
    op = problem.get("op", "conv")
    if (problem["src_dtype"], problem["weight_dtype"], problem["dst_dtype"]) != ("float32",) * 3:
        raise Unsupported(f"formats {problem['src_dtype']}, {problem['weight_dtype']} -> {problem['dst_dtype']}")
    weight = np.ascontiguousarray(tensors["weight"], np.float32)
    try:
        model_bytes, x_shape, y_shape, plan = (conv_model if op == "conv" else deconv_model)(problem, weight)
    except Unexpressible as reason:
        raise Unsupported(str(reason))
    x = np.ascontiguousarray(np.moveaxis(np.asarray(tensors["data"], np.float32), 1, -1)).reshape(x_shape)
    it = interpreter(model_bytes, strategy)
    left = undelegated(it) if strategy == "litert_xnnpack" else []
    graphs = os.environ.get("CONVCHECK_LITERT_GRAPHS")
    if graphs:
        with open(graphs, "a") as log:
            log.write(json.dumps({"problem": problem, "model": plan, "nodes": nodes(it), "undelegated": left}) + "\n")
    if left:
        raise Unsupported(f"the XNNPACK delegate did not take {', '.join(left)} (LiteRT runs it on the builtin "
                          "kernel, which litert_builtin checks)")
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    y = it.get_tensor(it.get_output_details()[0]["index"])
    if list(y.shape) != y_shape or y.dtype != np.float32:
        raise RuntimeError(f"LiteRT returned {y.dtype} {list(y.shape)}, the model says float32 {y_shape}")
    y = np.moveaxis(y, -1, 1)
    if int(problem["ndims"]) == 1:
        y = y[:, :, 0]
    y = np.ascontiguousarray(y)
    if os.environ.get("CONVCHECK_LITERT_PLANT_ERROR") == "1" and y.size:
        y.flat[0] = y.flat[0] * 2 + 1  # never within a bound: 1 + |y| away where |y| < 1, double it elsewhere
    return {"output": y}


def main(strategy):
    ranks = [1, 2] if strategy == "litert_xnnpack" else [1, 2, 3]
    serve(lambda problem, tensors: compute(strategy, problem, tensors), name="litert",
          version=f"ai-edge-litert {litert_version} ({DESCRIPTIONS[strategy]}, {THREADS} thread"
                  + ("s)" if THREADS > 1 else ")"),
          supports={"ops": ["conv", "deconv"], "ranks": ranks, "dtypes": ["float32"], "data_layouts": ["ncx"],
                    "weight_layouts": ["oix"], "crops": True, "directions": ["output"]})


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in RESOLVERS:
        sys.exit("usage: litert_server.py litert_xnnpack|litert_builtin|litert_reference")
    main(sys.argv[1])
