# LiteRT's builtin float CONV_2D, multithreaded (Interpreter num_threads > 1, no delegate), with SAME padding and a
# filter as large as the input (height and width, one of them 2): tflite/kernels/internal/optimized/
# multithreaded_conv.h takes its "filter as large as the input" shortcut, a single matrix product meant for one
# output pixel, because it checks the padding *before* (0 here: TFLite's SAME puts the odd padding row at the end)
# rather than the padding type, so only one output pixel per image is computed (batch 1: the others keep what the
# output buffer held) and with several images each image's pixel lands at another's place. One thread, the reference
# kernels and the XNNPACK delegate are right. Needs ai-edge-litert (its TFLite schema module), flatbuffers and numpy
# only; exact small integers, so any difference is the bug, not rounding.
#   python litert_eigen_conv_same_full_kernel.py   -> exit 1 while the bug shows, 0 when right
#   ai-edge-litert 2.3.0 (x86-64, AVX2): 2 threads Y [11, 0] where [11, 6] is right; a batch of 2 [11, 25, 0, 0]
#   where [11, 6, 25, 12] is right
import sys

import flatbuffers
import numpy as np
from ai_edge_litert import __version__, schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def conv2d_same(batch, height, width, kernel_h, kernel_w, weight):
    """A one-operator .tflite model: X [batch, height, width, 1] -> CONV_2D SAME, stride 1, one output channel."""
    def tensor(shape, buffer, name):
        t = schema.TensorT()
        t.shape, t.type, t.buffer, t.name = shape, schema.TensorType.FLOAT32, buffer, name
        return t

    buffers = [schema.BufferT() for _ in range(3)]
    buffers[1].data = np.frombuffer(weight.astype(np.float32).tobytes(), np.uint8)   # OHWI [1, kh, kw, 1]
    buffers[2].data = np.frombuffer(np.zeros(1, np.float32).tobytes(), np.uint8)     # the bias CONV_2D requires
    graph = schema.SubGraphT()
    graph.tensors = [tensor([batch, height, width, 1], 0, "X"), tensor([1, kernel_h, kernel_w, 1], 1, "W"),
                     tensor([1], 2, "B"), tensor([batch, height, width, 1], 0, "Y")]
    options = schema.Conv2DOptionsT()
    options.padding, options.strideH, options.strideW = schema.Padding.SAME, 1, 1
    options.dilationHFactor = options.dilationWFactor = 1
    op = schema.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0, 1, 2], [3]
    op.builtinOptionsType, op.builtinOptions = schema.BuiltinOptions.Conv2DOptions, options
    graph.operators, graph.inputs, graph.outputs = [op], [0], [3]
    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.CONV_2D
    code.version = 1
    model = schema.ModelT()
    model.version, model.buffers, model.subgraphs, model.operatorCodes = 3, buffers, [graph], [code]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def run(model, x, resolver, threads):
    it = Interpreter(model_content=model, experimental_op_resolver_type=resolver, num_threads=threads)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"]).ravel()


# A 1-D conv as converters write it: height 1, width 2, a 1x2 filter, SAME (TFLite: pad left 0, right 1).
weight = np.array([3, 4], np.float32).reshape(1, 1, 2, 1)
print("ai-edge-litert", __version__)
shown = False
for batch in (1, 2):
    x = np.arange(1, 2 * batch + 1, dtype=np.float32).reshape(batch, 1, 2, 1)    # 1 2 (and 3 4)
    expected = [float(x[b, 0, 0, 0] * 3 + x[b, 0, 1, 0] * 4) if ow == 0 else float(x[b, 0, 1, 0] * 3)
                for b in range(batch) for ow in range(2)]
    model = conv2d_same(batch, 1, 2, 1, 2, weight)
    for name, resolver, threads in (("builtin, 1 thread", OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES, 1),
                                    ("builtin, 2 threads", OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES, 2),
                                    ("reference, 2 threads", OpResolverType.BUILTIN_REF, 2),
                                    ("XNNPACK (AUTO), 2 threads", OpResolverType.AUTO, 2)):
        y = run(model, x, resolver, threads)
        right = np.array_equal(y, np.array(expected, np.float32))
        print(f"batch {batch}, {name}: Y {y.tolist()} expected {expected}" + ("" if right else "  <- wrong"))
        shown |= not right
if shown:
    print("the bug shows: wrong values")
    sys.exit(1)
