"""A convcheck problem as a .tflite model, built in memory without TensorFlow (docs/libraries/litert.md).

The model is written with the TFLite schema module ai-edge-litert ships (ai_edge_litert.schema_py_generated, the
flatc-generated object API) and the flatbuffers package: one subgraph, the data a float32 graph input in TFLite's
channels-last layout, the weight (and a zero bias where the kernel requires one) constant buffers, and a chain of
builtin operators a converter would write for the problem:

  conv    [PAD] [SLICE] CONV_2D or DEPTHWISE_CONV_2D (2-D; 1-D as 2-D of height 1) or CONV_3D, padding SAME or VALID
  deconv  TRANSPOSE_CONV (2-D; 1-D as 2-D of height 1) or CONV_3D_TRANSPOSE, then [PAD] [SLICE]

TFLite's convolutions know only SAME and VALID padding. Where the problem's padding is exactly TFLite's SAME (or
zero, VALID) the operator takes it itself; any other padding is a PAD before a VALID conv, as converters write
an explicit or asymmetric pad, and a crop (negative padding) a SLICE after that PAD. A deconv runs VALID on its
full output ((in - 1) * stride + dilation * (kernel - 1) + 1) unless the problem is exactly TFLite's SAME or VALID,
and its padding, output_padding and crops are then a PAD (zeros where output_padding or a negative padding passes
the full output) and a SLICE (padding cut off) after it.

Layouts (convcheck's canonical tensors converted here, and the output converted back):
  data      [N, C, spatial...]       -> NHWC / NDHWC (1-D: [N, 1, W, C])
  conv      [O, I/G, k...]           -> CONV_2D OHWI [O, kh, kw, I/G] (I/G < I: TFLite's grouped CONV_2D);
                                        DEPTHWISE_CONV_2D [1, kh, kw, C * multiplier]; CONV_3D DHWIO [kd, kh, kw, I, O]
  deconv    [I, O, k...]             -> TRANSPOSE_CONV OHWI [O, kh, kw, I]; CONV_3D_TRANSPOSE [kd, kh, kw, O, I]
"""
import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

OPS = schema.BuiltinOperator
OPTIONS = schema.BuiltinOptions
OP_NAMES = {code: name for name, code in vars(OPS).items() if not name.startswith("_")}
PADDING_NAMES = {schema.Padding.SAME: "SAME", schema.Padding.VALID: "VALID"}
PLACEHOLDER_FOR_GREATER_OP_CODES = 127  # deprecated_builtin_code of every operator numbered above it
TFLITE_FILE_IDENTIFIER = b"TFL3"


class Unexpressible(Exception):
    """The problem has no TFLite model of these operators; the message says why in TFLite's terms."""


def same_padding(size, kernel, stride, dilation):
    """TFLite's SAME padding of one axis (tflite/kernels/padding.h): (output size, padding before, padding after)."""
    effective = (kernel - 1) * dilation + 1
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + effective - size, 0)
    return out, total // 2, total - total // 2


class ModelWriter:
    """Tensors, constant buffers and operators of one subgraph, packed into a .tflite flatbuffer by finish()."""

    def __init__(self):
        self.buffers = [schema.BufferT()]  # buffer 0: the empty buffer every non-constant tensor points at
        self.tensors, self.operators, self.codes = [], [], []
        self.plan = []  # the operators written, by name, a convolution's with its padding: "PAD", "CONV_2D VALID"

    def tensor(self, shape, name, data=None, element=schema.TensorType.FLOAT32):
        t = schema.TensorT()
        t.shape, t.name, t.type = [int(d) for d in shape], name, element
        t.buffer = 0
        if data is not None:
            buffer = schema.BufferT()
            buffer.data = np.frombuffer(np.ascontiguousarray(data).tobytes(), np.uint8)
            self.buffers.append(buffer)
            t.buffer = len(self.buffers) - 1
        self.tensors.append(t)
        return len(self.tensors) - 1

    def constant_int32(self, values, name):
        values = np.asarray(values, np.int32)
        return self.tensor(values.shape, name, values, schema.TensorType.INT32)

    def operator(self, code, inputs, outputs, options_type=OPTIONS.NONE, options=None):
        if code not in self.codes:
            self.codes.append(code)
        op = schema.OperatorT()
        op.opcodeIndex, op.inputs, op.outputs = self.codes.index(code), list(inputs), list(outputs)
        op.builtinOptionsType, op.builtinOptions = options_type, options
        self.operators.append(op)
        padding = getattr(options, "padding", None)
        self.plan.append(OP_NAMES[code] + (f" {PADDING_NAMES[padding]}" if padding is not None else ""))

    def finish(self, inputs, outputs):
        """The .tflite model's bytes."""
        graph = schema.SubGraphT()
        graph.tensors, graph.operators, graph.inputs, graph.outputs = self.tensors, self.operators, inputs, outputs
        model = schema.ModelT()
        model.version, model.description, model.buffers, model.subgraphs = 3, "convcheck", self.buffers, [graph]
        model.operatorCodes = []
        for code in self.codes:
            entry = schema.OperatorCodeT()
            entry.builtinCode, entry.version = code, 1
            entry.deprecatedBuiltinCode = min(code, PLACEHOLDER_FOR_GREATER_OP_CODES)
            model.operatorCodes.append(entry)
        builder = flatbuffers.Builder(1024)
        builder.Finish(model.Pack(builder), file_identifier=TFLITE_FILE_IDENTIFIER)
        return bytes(builder.Output())


def pad_and_slice(writer, tensor, shape, begin, end, name):
    """`tensor` (channels last, spatial axes 1..) with `begin[a]` and `end[a]` rows added (> 0: zeros, a PAD) or cut
    (< 0: a SLICE, after the PAD, so that a crop may reach into the other end's zeros) on spatial axis a: the tensor
    index and its new shape."""
    shape = list(shape)
    if any(b > 0 for b in begin) or any(e > 0 for e in end):
        pads = [[0, 0]] + [[max(b, 0), max(e, 0)] for b, e in zip(begin, end)] + [[0, 0]]
        shape = [d + p[0] + p[1] for d, p in zip(shape, pads)]
        padded = writer.tensor(shape, f"{name}_padded")
        writer.operator(OPS.PAD, [tensor, writer.constant_int32(pads, f"{name}_paddings")], [padded],
                        OPTIONS.PadOptions, schema.PadOptionsT())
        tensor = padded
    if any(b < 0 for b in begin) or any(e < 0 for e in end):
        start = [0] + [max(-b, 0) for b in begin] + [0]
        size = [shape[0]] + [shape[1 + a] - max(-begin[a], 0) - max(-end[a], 0) for a in range(len(begin))] + \
               [shape[-1]]
        sliced = writer.tensor(size, f"{name}_sliced")
        writer.operator(OPS.SLICE, [tensor, writer.constant_int32(start, f"{name}_begin"),
                                    writer.constant_int32(size, f"{name}_size")], [sliced],
                        OPTIONS.SliceOptions, schema.SliceOptionsT())
        tensor, shape = sliced, size
    return tensor, shape


def conv_padding(problem, in_size, kernel):
    """(TFLite padding, padding still to add before, after): SAME or VALID where the problem's padding is exactly it,
    else VALID after the whole padding as PAD/SLICE."""
    begin, end = list(problem["pad_begin"]), list(problem["pad_end"])
    if all(p == 0 for p in begin + end):
        return schema.Padding.VALID, begin, end
    same = [same_padding(i, k, s, d) for i, k, s, d in zip(in_size, kernel, problem["stride"], problem["dilation"])]
    if [b for _, b, _ in same] == begin and [e for _, _, e in same] == end:
        return schema.Padding.SAME, [0] * len(begin), [0] * len(end)
    return schema.Padding.VALID, begin, end


def conv_model(problem, weight):
    """CONV_2D, DEPTHWISE_CONV_2D or CONV_3D: (model bytes, TFLite input shape, output shape, the operators written:
    ModelWriter.plan)."""
    ndims, groups = int(problem["ndims"]), int(problem["groups"])
    n, c_in, c_out = int(problem["batch"]), int(problem["in_channels"]), int(problem["out_channels"])
    spatial, kernel = list(problem["in_size"]), list(weight.shape[2:])
    stride, dilation = list(problem["stride"]), list(problem["dilation"])
    pad_begin, pad_end = list(problem["pad_begin"]), list(problem["pad_end"])
    if ndims == 1:  # a 1-D conv as a 2-D one of height 1, as converters write Conv1D (EXPAND_DIMS, CONV_2D)
        spatial, kernel, stride, dilation = [1] + spatial, [1] + kernel, [1] + stride, [1] + dilation
        pad_begin, pad_end, weight = [0] + pad_begin, [0] + pad_end, weight[:, :, None]
    problem2 = dict(problem, stride=stride, dilation=dilation, pad_begin=pad_begin, pad_end=pad_end)
    writer = ModelWriter()
    x_shape = [n] + spatial + [c_in]
    x = writer.tensor(x_shape, "X")
    padding, add_begin, add_end = conv_padding(problem2, spatial, kernel)
    tensor, shape = pad_and_slice(writer, x, x_shape, add_begin, add_end, "X")
    if padding == schema.Padding.VALID:
        out = [(i - (k - 1) * d - 1) // s + 1 for i, k, s, d in zip(shape[1:-1], kernel, stride, dilation)]
    else:
        out = [(i + s - 1) // s for i, s in zip(shape[1:-1], stride)]
    y_shape = [n] + out + [c_out]
    y = writer.tensor(y_shape, "Y")
    bias = np.zeros(c_out, np.float32)
    if len(spatial) == 3:
        if groups != 1:
            raise Unexpressible("grouped 3-D convolution: CONV_3D has no groups, its filter's in_channels must be "
                                "the input's (LiteRT 2.3.0, a grouped filter: \"tflite/kernels/conv3d.cc:129 "
                                "input->dims->data[4] != filter->dims->data[3]\")")
        w = writer.tensor(weight.shape[2:] + weight.shape[1::-1], "W", weight.transpose(2, 3, 4, 1, 0))
        options = schema.Conv3DOptionsT()
        options.padding = padding
        options.strideD, options.strideH, options.strideW = stride
        options.dilationDFactor, options.dilationHFactor, options.dilationWFactor = dilation
        writer.operator(OPS.CONV_3D, [tensor, w, -1], [y], OPTIONS.Conv3DOptions, options)
    elif groups > 1 and groups == c_in:  # depthwise, as converters write a DepthwiseConv2d
        multiplier = c_out // c_in
        w = writer.tensor([1] + kernel + [c_out], "W", weight.transpose(1, 2, 3, 0))
        options = schema.DepthwiseConv2DOptionsT()
        options.padding, options.depthMultiplier = padding, multiplier
        options.strideH, options.strideW = stride
        options.dilationHFactor, options.dilationWFactor = dilation
        writer.operator(OPS.DEPTHWISE_CONV_2D, [tensor, w, writer.tensor([c_out], "B", bias)], [y],
                        OPTIONS.DepthwiseConv2DOptions, options)
    else:  # groups > 1: CONV_2D's grouped form, the filter's input channels a divisor of the input's
        w = writer.tensor([c_out] + kernel + [c_in // groups], "W", weight.transpose(0, 2, 3, 1))
        options = schema.Conv2DOptionsT()
        options.padding = padding
        options.strideH, options.strideW = stride
        options.dilationHFactor, options.dilationWFactor = dilation
        writer.operator(OPS.CONV_2D, [tensor, w, writer.tensor([c_out], "B", bias)], [y],
                        OPTIONS.Conv2DOptions, options)
    return writer.finish([x], [y]), x_shape, y_shape, writer.plan


def deconv_padding(problem, in_size, kernel, out_size):
    """SAME or VALID where one TRANSPOSE_CONV of output shape `out_size` is exactly the problem (its padding before
    TFLite's and its output shape the one TFLite's conv of that padding maps back to `in_size`), else None."""
    stride, begin = list(problem["stride"]), list(problem["pad_begin"])
    same = [same_padding(o, k, s, 1) for o, k, s in zip(out_size, kernel, stride)]
    if all(o == i and b == pb for (o, b, _), i, pb in zip(same, in_size, begin)):
        return schema.Padding.SAME
    valid_in = [(o - k + s) // s for o, k, s in zip(out_size, kernel, stride)]
    valid_total = [(i - 1) * s + k - o for i, s, k, o in zip(valid_in, stride, kernel, out_size)]
    if valid_in == list(in_size) and all(b == 0 and t <= 0 for b, t in zip(begin, valid_total)):
        return schema.Padding.VALID
    return None


def deconv_model(problem, weight):
    """TRANSPOSE_CONV or CONV_3D_TRANSPOSE: (model bytes, TFLite input shape, output shape, ModelWriter.plan)."""
    ndims, groups = int(problem["ndims"]), int(problem["groups"])
    n, c_in, c_out = int(problem["batch"]), int(problem["in_channels"]), int(problem["out_channels"])
    spatial, kernel = list(problem["in_size"]), list(weight.shape[2:])
    stride, dilation = list(problem["stride"]), list(problem["dilation"])
    pad_begin, pad_end = list(problem["pad_begin"]), list(problem["pad_end"])
    output_padding = list(problem.get("output_padding", [0] * ndims))
    if groups != 1:
        raise Unexpressible("grouped transposed convolution: TRANSPOSE_CONV and CONV_3D_TRANSPOSE have no groups, "
                            "their filter's in_channels must be the input's (LiteRT 2.3.0, a grouped filter: "
                            "\"tflite/kernels/transpose_conv.cc:413 SizeOfDimension(input, 3) != "
                            "SizeOfDimension(weights, 3)\")")
    if ndims == 1:
        spatial, kernel, stride, dilation = [1] + spatial, [1] + kernel, [1] + stride, [1] + dilation
        pad_begin, pad_end, output_padding = [0] + pad_begin, [0] + pad_end, [0] + output_padding
        weight = weight[:, :, None]
    if len(spatial) == 2 and any(d != 1 for d in dilation):
        raise Unexpressible("dilation in a 1-D or 2-D transposed convolution: TRANSPOSE_CONV's TransposeConvOptions "
                            "have no dilation (padding, stride_w, stride_h, fused_activation_function, "
                            "quantized_bias_type)")
    out = [(i - 1) * s - b - e + d * (k - 1) + p + 1 for i, s, b, e, d, k, p in
           zip(spatial, stride, pad_begin, pad_end, dilation, kernel, output_padding)]
    full = [(i - 1) * s + d * (k - 1) + 1 for i, s, d, k in zip(spatial, stride, dilation, kernel)]
    effective = [d * (k - 1) + 1 for d, k in zip(dilation, kernel)]
    padding = deconv_padding(dict(problem, stride=stride, pad_begin=pad_begin), spatial, effective, out) \
        if all(p >= 0 for p in pad_begin) else None
    conv_out = out if padding is not None else full
    writer = ModelWriter()
    x_shape = [n] + spatial + [c_in]
    x = writer.tensor(x_shape, "X")
    y_full_shape = [n] + conv_out + [c_out]
    y_full = writer.tensor(y_full_shape, "Y_full" if padding is None else "Y")
    output_shape = writer.constant_int32(y_full_shape, "output_shape")
    if len(spatial) == 3:
        w = writer.tensor(kernel + [c_out, c_in], "W", weight.transpose(2, 3, 4, 1, 0))
        options = schema.Conv3DOptionsT()
        options.padding = padding if padding is not None else schema.Padding.VALID
        options.strideD, options.strideH, options.strideW = stride
        options.dilationDFactor, options.dilationHFactor, options.dilationWFactor = dilation
        writer.operator(OPS.CONV_3D_TRANSPOSE, [output_shape, w, x, -1], [y_full], OPTIONS.Conv3DOptions, options)
    else:
        w = writer.tensor([c_out] + kernel + [c_in], "W", weight.transpose(1, 2, 3, 0))
        options = schema.TransposeConvOptionsT()
        options.padding = padding if padding is not None else schema.Padding.VALID
        options.strideH, options.strideW = stride
        writer.operator(OPS.TRANSPOSE_CONV, [output_shape, w, x, -1], [y_full], OPTIONS.TransposeConvOptions,
                        options)
    y, y_shape = y_full, y_full_shape
    if padding is None:  # the full output, cut to the problem's: rows before pad_begin off, zeros past the full end
        begin = [-b for b in pad_begin]
        end = [o - (f - b) for o, f, b in zip(out, full, pad_begin)]
        y, y_shape = pad_and_slice(writer, y_full, y_full_shape, begin, end, "Y")
    return writer.finish([x], [y]), x_shape, y_shape, writer.plan
