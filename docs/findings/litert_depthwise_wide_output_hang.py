# LiteRT's builtin optimized float DEPTHWISE_CONV_2D (no delegate) never returns when the output has more than 4,832
# channels (input channels x depth multiplier): tflite/kernels/internal/optimized/depthwiseconv_float.h accumulates
# into a stack buffer of kAccBufferMaxSize = 4832 floats, kOutputPixelsInAccBuffer = 4832 / output_depth is 0, and
# its loop over the output columns advances by that 0. The only guard, TFLITE_DCHECK_GE(kAccBufferMaxSize,
# output_depth), is compiled out of the release wheel, and the op's Prepare accepts the model. The reference kernel and
# the XNNPACK delegate return at once. Needs ai-edge-litert (its TFLite schema module), flatbuffers and numpy only.
#   python litert_depthwise_wide_output_hang.py   -> exit 1 while the bug shows (the invoke still running after
#   20 s), 0 when every resolver returns the right values
#   ai-edge-litert 2.3.0 (x86-64, AVX2): a 1x1 input of 2 channels, multiplier 2,416 (4,832 output channels) right at
#   once; multiplier 2,417 (4,834) never returns; likewise a plain depthwise conv of 4,840 channels (multiplier 1)
import multiprocessing
import sys

import flatbuffers
import numpy as np
from ai_edge_litert import __version__, schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def depthwise(channels, multiplier, weight):
    """A one-operator .tflite model: X [1, 1, 1, channels] -> DEPTHWISE_CONV_2D 1x1, VALID."""
    def tensor(shape, buffer, name):
        t = schema.TensorT()
        t.shape, t.type, t.buffer, t.name = shape, schema.TensorType.FLOAT32, buffer, name
        return t

    out = channels * multiplier
    buffers = [schema.BufferT() for _ in range(3)]
    buffers[1].data = np.frombuffer(weight.astype(np.float32).tobytes(), np.uint8)   # [1, kh, kw, out]
    buffers[2].data = np.frombuffer(np.zeros(out, np.float32).tobytes(), np.uint8)   # the bias it requires
    graph = schema.SubGraphT()
    graph.tensors = [tensor([1, 1, 1, channels], 0, "X"), tensor([1, 1, 1, out], 1, "W"), tensor([out], 2, "B"),
                     tensor([1, 1, 1, out], 0, "Y")]
    options = schema.DepthwiseConv2DOptionsT()
    options.padding, options.strideH, options.strideW, options.depthMultiplier = schema.Padding.VALID, 1, 1, multiplier
    options.dilationHFactor = options.dilationWFactor = 1
    op = schema.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0, 1, 2], [3]
    op.builtinOptionsType, op.builtinOptions = schema.BuiltinOptions.DepthwiseConv2DOptions, options
    graph.operators, graph.inputs, graph.outputs = [op], [0], [3]
    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.DEPTHWISE_CONV_2D
    code.version = 1
    model = schema.ModelT()
    model.version, model.buffers, model.subgraphs, model.operatorCodes = 3, buffers, [graph], [code]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def run(channels, multiplier, resolver_name, answer):
    weight = np.arange(channels * multiplier, dtype=np.float32) % 7 - 3       # small integers: exact products
    x = np.arange(1, channels + 1, dtype=np.float32).reshape(1, 1, 1, channels)
    it = Interpreter(model_content=depthwise(channels, multiplier, weight),
                     experimental_op_resolver_type=getattr(OpResolverType, resolver_name), num_threads=1)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    y = it.get_tensor(it.get_output_details()[0]["index"]).ravel()
    answer.put(bool(np.array_equal(y, np.repeat(x.ravel(), multiplier) * weight)))


if __name__ == "__main__":
    print("ai-edge-litert", __version__)
    shown = False
    for channels, multiplier in ((2, 2416), (2, 2417), (4840, 1)):  # 4,832, 4,834 and 4,840 output channels
        for resolver in ("BUILTIN_WITHOUT_DEFAULT_DELEGATES", "BUILTIN_REF", "AUTO"):
            answer = multiprocessing.Queue()
            child = multiprocessing.Process(target=run, args=(channels, multiplier, resolver, answer))
            child.start()
            child.join(20)
            if child.is_alive():
                child.kill()
                child.join()
                verdict, shown = "still running after 20 s: killed", True
            else:
                right = not answer.empty() and answer.get()
                verdict = "right" if right else f"wrong or failed (exit {child.exitcode})"
                shown |= not right
            print(f"{channels * multiplier} output channels ({channels} x multiplier {multiplier}), {resolver}: "
                  f"{verdict}", flush=True)
    if shown:
        print("the bug shows")
        sys.exit(1)
