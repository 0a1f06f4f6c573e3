#!/usr/bin/env python3
"""Apache TVM (Relax) as a convcheck server (docs/external.md, docs/libraries/tvm.md).

usage: tvm_server.py tvm

Run it with venvs/tvm/bin/python (scripts/install-deps.sh tvm). Each case becomes a Relax module built with
relax.BlockBuilder, as a frontend writes one: the function `forward` is R.nn.conv1d/conv2d/conv3d or
R.nn.conv1d/2d/3d_transpose on the case's canonical tensors (data NCHW, a conv's weight OIHW, a deconv's IOHW: TVM's
own defaults), and where a gradient is asked, a function `loss` = sum(forward(x, w) * dy), the inner product whose
gradient is (grad_data, grad_weight), differentiated by Relax's own `Gradient` pass into `loss_adjoint`. Then
`relax.transform.ConvertLayout` turns every conv into the case's layouts (NHWC and HWIO, OHWI...; permute_dims at
the module's edges), and `tvm.compile` runs TVM's default Relax pipeline (LegalizeOps into TOPI's compute, the
default schedules, no tuning) to LLVM for the host CPU (`mcpu` as LLVM names it: znver3 on this EPYC). The module
runs on relax.VirtualMachine on one thread (TVM_NUM_THREADS=1; convcheck runs cases in parallel already). The
adapter computes nothing itself: crops, casts and output paddings are Relax ops in the module.

What it declares (the hello), and why:
- ops conv and deconv, ranks 1 to 3: Relax has conv1d/2d/3d and conv1d/2d/3d_transpose;
- all three directions: but Relax 0.27 registers a gradient (FPrimalGradient, relax/op/_op_gradient.py) for
  relax.nn.conv2d only, so grad_data and grad_weight of conv1d, conv3d and every transpose are skipped with TVM's
  own words ("Attribute FPrimalGradient has not been registered for relax.nn.conv1d"), as are those of a crop
  (relax.strided_slice has none either), and those of bfloat16 inputs ("Only Tensors of floating point dtype or
  Tuples of float Tensors can require gradients");
- formats float32, float64, float16 and bfloat16. float16 and bfloat16 inputs go in as they are with the conv's
  `out_dtype` float32 (TVM's mixed precision: the sums in float32), and a float16 or bfloat16 result is an
  R.astype of that float32 output, one rounding, in the module. A mix of float32 and float64 is R.astype to
  float64 first;
- data layouts ncx and nxc, weight layouts oix, xio and oxi, through ConvertLayout. A deconv takes only the
  canonical ones: TVM's legalizer refuses the others ("TOPI conv2d_transpose does not support input layout other
  than NCHW, and kernel layout other than IOHW, so cannot be legalized by TOPI"), answered `unsupported`. In a
  gradient only the convs are converted: its grad_data is a conv2d_transpose, which stays NCHW for that reason;
- crops (negative padding): R.strided_slice of the input first, as the PyTorch adapter slices, then the conv with
  the rest of the padding (Relax's convs take four-sided padding >= 0); a deconv's negative padding is R.nn.pad of
  its output with zeros;
- a deconv's output_padding: Relax checks it is below the stride ("Conv2dTranspose expects the output padding less
  than the strides"), where convcheck allows it below max(stride, dilation): answered `unsupported` with TVM's words.

Anything else TVM raises on, fails to compile, or computes is sent back: an error is a finding, never a skip.

Compiling is most of a case's time (TVM compiles per shape), so compiled modules are kept per problem (every field
but the data) and directions, the newest CACHE_SIZE of them; a fuzz campaign rarely draws a problem twice, so its
rate is bounded by LLVM's compile time (about 0.3 to 1 s a case on this machine).

Environment (for tests and campaigns):
  CONVCHECK_TVM_PLANT_ERROR=1   a deliberate error: the first element of every output is changed, so a campaign must
                                find it (tests/interop/tvm_server.sh)
  CONVCHECK_TVM_GRAPHS=FILE     append one JSON line a case to FILE: the problem and the PrimFuncs LegalizeOps made
                                of the module (conv2d_transpose, conv2d, strided_slice...)
"""
import collections
import json
import os
import pathlib
import sys

os.environ.setdefault("TVM_NUM_THREADS", "1")  # before TVM starts its thread pool

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tvm  # noqa: E402
from tvm import relax  # noqa: E402
from tvm.relax.op import nn  # noqa: E402

# the server helper lives with the other outside-implementation pieces (oracles/outside/python/)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
from convcheck_server import Skipped, Unsupported, serve  # noqa: E402

CONVS = {1: nn.conv1d, 2: nn.conv2d, 3: nn.conv3d}
TRANSPOSES = {1: nn.conv1d_transpose, 2: nn.conv2d_transpose, 3: nn.conv3d_transpose}
SPATIAL = {1: "W", 2: "HW", 3: "DHW"}
NUMPY = {"float32": np.float32, "float64": np.float64, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
LOW = ("float16", "bfloat16")
CACHE_SIZE = 64
# TVM's own words for what it cannot do by design (the messages its checks raise, quoted in a skip)
NO_GRADIENT = ("FPrimalGradient has not been registered", "can require gradients")
OUTPUT_PADDING = "expects the output padding less than the strides"


def tvm_words(error):
    """The sentence of a TVM check's message that says what it refuses, without the check's expression or the
    case's shapes ("Attribute FPrimalGradient has not been registered for relax.nn.conv1d"), so that skip reasons
    add up across cases."""
    text = str(error).strip().splitlines()[-1]
    text = text.split(" is false: ", 1)[-1]
    return text.split(", but ", 1)[0]


def host_target():
    """LLVM for this CPU. {"mcpu": "native"} is not taken with the wheel's LLVM triple (TVM falls back to generic,
    saying so), so the CPU is named as LLVM detects it."""
    return tvm.target.Target({"kind": "llvm", "mcpu": tvm.target.codegen.llvm_get_system_cpu()})


TARGET = host_target()


def deconv_layout_refusal(ndims):
    """The legalizer's words (relax/transform/legalize_ops/nn.py) for a transposed conv in another layout."""
    data = "NC" + SPATIAL[ndims]
    return (f"TOPI conv{ndims}d_transpose does not support input layout other than {data}, and kernel layout other "
            f"than IO{SPATIAL[ndims]}, so cannot be legalized by TOPI")


def formats(problem):
    """(the dtype the conv's inputs are given in, the conv's out_dtype), each a TVM dtype name."""
    src, wei, dst, acc = (problem[f"{role}_dtype"] for role in ("src", "weight", "dst", "acc"))
    if src in LOW or wei in LOW:
        if src != wei:
            raise Unsupported(f"formats {src} and {wei}: Relax's conv takes one dtype for data and weight")
        return src, "float32"
    wide = "float64" if "float64" in (src, wei, dst, acc) else "float32"
    return wide, wide


def crop(bb, x, problem):
    """x with its negative paddings cut off (R.strided_slice), and the padding left for the conv (>= 0 each end)."""
    begin, end, sizes = problem["pad_begin"], problem["pad_end"], problem["in_size"]
    if all(p >= 0 for p in begin + end):
        return x, begin + end
    axes = list(range(2, 2 + len(sizes)))
    starts = [max(-b, 0) for b in begin]
    stops = [n + min(e, 0) for n, e in zip(sizes, end)]
    if any(start >= stop for start, stop in zip(starts, stops)):  # a crop past the input: pad first, then cut
        x = bb.emit(nn.pad(x, [0, 0, 0, 0] + [w for b, e in zip(begin, end) for w in (max(b, 0), max(e, 0))]))
        starts = [max(b, 0) - b for b in begin]
        stops = [s + n + b + e for s, n, b, e in zip(starts, sizes, begin, end)]
        return bb.emit(relax.op.strided_slice(x, axes, starts, stops)), [0] * (2 * len(sizes))
    x = bb.emit(relax.op.strided_slice(x, axes, starts, stops))
    return x, [max(b, 0) for b in begin] + [max(e, 0) for e in end]


def conv(bb, x, w, problem):
    """The op's output in the conv's out_dtype, built in TVM's canonical layouts."""
    ndims, op = int(problem["ndims"]), problem.get("op", "conv")
    _, out_dtype = formats(problem)
    common = dict(strides=problem["stride"], dilation=problem["dilation"], groups=int(problem["groups"]),
                  out_dtype=out_dtype)
    if op == "conv":
        x, padding = crop(bb, x, problem)
        return bb.emit(CONVS[ndims](x, w, padding=padding, **common))
    if op != "deconv":
        raise Unsupported(f"op {op}")
    begin, end = problem["pad_begin"], problem["pad_end"]
    padding = [max(b, 0) for b in begin] + [max(e, 0) for e in end]
    output_padding = problem.get("output_padding", [0] * ndims)
    try:
        y = bb.emit(TRANSPOSES[ndims](x, w, padding=padding, output_padding=output_padding, **common))
    except Exception as error:  # TVM raises its checks as InternalError, ValueError...
        if OUTPUT_PADDING in str(error):
            raise Unsupported(tvm_words(error))
        raise
    if all(p >= 0 for p in begin + end):
        return y
    # a negative deconv padding extends its output with rows no tap reaches: zeros
    return bb.emit(nn.pad(y, [0, 0, 0, 0] + [w for b, e in zip(begin, end) for w in (max(-b, 0), max(-e, 0))]))


def relax_module(problem, gradients):
    """The IRModule: `forward` (x, w) -> y, and with gradients `loss` (x, w, dy) -> sum(y * dy) and its adjoint."""
    ndims, dst = int(problem["ndims"]), problem["dst_dtype"]
    given, _ = formats(problem)
    x_shape = [int(problem["batch"]), int(problem["in_channels"])] + list(problem["in_size"])
    groups, k = int(problem["groups"]), list(problem["kernel_size"])
    if problem.get("op", "conv") == "conv":
        w_shape = [int(problem["out_channels"]), int(problem["in_channels"]) // groups] + k
    else:
        w_shape = [int(problem["in_channels"]), int(problem["out_channels"]) // groups] + k
    bb = relax.BlockBuilder()

    def inputs():
        x = relax.Var("x", relax.TensorType(x_shape, problem["src_dtype"]))
        w = relax.Var("w", relax.TensorType(w_shape, problem["weight_dtype"]))
        return x, w

    def body(x, w):
        if problem["src_dtype"] != given:
            x = bb.emit(relax.op.astype(x, given))
        if problem["weight_dtype"] != given:
            w = bb.emit(relax.op.astype(w, given))
        y = conv(bb, x, w, problem)
        return bb.emit(relax.op.astype(y, dst)) if str(y.ty.dtype) != dst else y

    x, w = inputs()
    with bb.function("forward", [x, w]):
        with bb.dataflow():
            y = bb.emit_output(body(x, w))
        bb.emit_func_output(y)
    if gradients:
        x, w = inputs()
        out_shape = [int(v) for v in y.ty.shape.values]
        dy = relax.Var("dy", relax.TensorType(out_shape, dst))
        with bb.function("loss", [x, w, dy]):
            with bb.dataflow():
                loss = bb.emit_output(relax.op.sum(relax.op.multiply(body(x, w), dy)))
            bb.emit_func_output(loss)
        module = relax.transform.Gradient("loss", [x, w])(bb.get())
    else:
        module = bb.get()
    return module


def desired_layouts(problem):
    """ConvertLayout's table: the case's data and weight layouts for every conv of its rank; None where they are
    TVM's own. A transposed conv is left out: TOPI legalizes it in NCHW/IOHW only."""
    ndims = int(problem["ndims"])
    data = problem.get("data_layout", "NC" + SPATIAL[ndims]).upper()
    weight = problem.get("weight_layout", "OI" + SPATIAL[ndims]).upper()
    if (data, weight) == ("NC" + SPATIAL[ndims], "OI" + SPATIAL[ndims]):
        return None
    if problem.get("op", "conv") == "deconv":
        raise Unsupported(deconv_layout_refusal(ndims))
    return {f"relax.nn.conv{ndims}d": [data, weight]}


class Compiled:
    """One problem compiled: the VM, and why a gradient is not computed (TVM's words), or None."""

    def __init__(self, problem, gradients):
        self.no_gradient = None
        module = None
        layouts = desired_layouts(problem)
        if gradients:
            try:
                module = relax_module(problem, True)
            except Unsupported:
                raise
            except Exception as error:  # TVM raises its checks as InternalError, ValueError...
                if not any(words in str(error) for words in NO_GRADIENT):
                    raise RuntimeError(f"relax.transform.Gradient: {type(error).__name__}: {error}") from error
                self.no_gradient = tvm_words(error)
        if module is None:
            module = relax_module(problem, False)
        if layouts is not None:
            module = relax.transform.ConvertLayout(layouts)(module)
        self.module = module
        self.vm = relax.VirtualMachine(tvm.compile(module, target=TARGET), tvm.cpu())

    def primfuncs(self):
        legalized = relax.transform.LegalizeOps()(self.module)
        return sorted(str(gv.name_hint) for gv, f in legalized.functions.items() if type(f).__name__ == "PrimFunc")


CACHE = collections.OrderedDict()


def compiled(problem, gradients):
    key = json.dumps([problem, gradients], sort_keys=True)
    if key not in CACHE:
        CACHE[key] = Compiled(problem, gradients)
        if len(CACHE) > CACHE_SIZE:
            CACHE.popitem(last=False)
    CACHE.move_to_end(key)
    return CACHE[key]


def as_tvm(array, format_name):
    """A NumPy input (bfloat16 as its uint16 bits) as a TVM tensor in that format."""
    bits = np.ascontiguousarray(array)
    return tvm.runtime.tensor(bits.view(NUMPY[format_name]) if format_name == "bfloat16" else bits)


def as_result(tensor):
    """A TVM result as float32 or float64 (exact: a float16 or bfloat16 widens without rounding)."""
    value = tensor.numpy()
    return value if value.dtype == np.float64 else value.astype(np.float32)


def compute(problem, tensors, directions):
    gradients = "grad_data" in directions or "grad_weight" in directions
    unit = compiled(problem, gradients)
    x = as_tvm(tensors["data"], problem["src_dtype"])
    w = as_tvm(tensors["weight"], problem["weight_dtype"])
    output = as_result(unit.vm["forward"](x, w))
    if os.environ.get("CONVCHECK_TVM_PLANT_ERROR") == "1" and output.size:
        output.flat[0] = output.flat[0] * 2 + 1  # never within a bound: 1 + |y| away where |y| < 1, double it elsewhere
    results = {"output": output}
    if gradients and unit.no_gradient is not None:
        results.update(grad_data=Skipped(unit.no_gradient), grad_weight=Skipped(unit.no_gradient))
    elif gradients:
        dy = as_tvm(tensors["grad_output"], problem["dst_dtype"])
        _, (grad_x, grad_w) = unit.vm["loss_adjoint"](x, w, dy)
        results.update(grad_data=as_result(grad_x), grad_weight=as_result(grad_w))
    graphs = os.environ.get("CONVCHECK_TVM_GRAPHS")
    if graphs:
        with open(graphs, "a") as log:
            log.write(json.dumps({"problem": problem, "primfuncs": unit.primfuncs(),
                                  "no_gradient": unit.no_gradient}) + "\n")
    return {direction: result for direction, result in results.items() if direction in directions}


def main():
    llvm = tvm.target.codegen.llvm_version_major()
    what = (f"Relax, ConvertLayout, LegalizeOps to TOPI's default schedules, LLVM {llvm} for "
            f"mcpu={TARGET.attrs['mcpu']}, 1 thread; gradients by relax.transform.Gradient")
    serve(compute, name="tvm",
          version=f"{tvm.__version__} ({what})",
          supports={"ops": ["conv", "deconv"], "ranks": [1, 2, 3],
                    "dtypes": ["float32", "float64", "float16", "bfloat16"],
                    "data_layouts": ["ncx", "nxc"], "weight_layouts": ["oix", "xio", "oxi"], "crops": True})


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] != "tvm":
        sys.exit("usage: tvm_server.py tvm")
    main()
