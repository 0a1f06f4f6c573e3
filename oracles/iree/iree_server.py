#!/usr/bin/env python3
"""IREE as a convcheck server (docs/external.md, docs/libraries/iree.md).

usage: iree_server.py iree | iree_im2col | iree_winograd

Run it with venvs/iree/bin/python (scripts/install-deps.sh iree). Each case becomes a small PyTorch module, as a
PyTorch user writes one, exported by iree-turbine's `aot.export` (torch.export, then the FX importer into the torch
dialect) and compiled by iree-compile from that torch input (`--iree-input-type=torch`: IREE's own copy of
torch-mlir's TorchToLinalg lowering) for llvm-cpu on this CPU (`--iree-llvmcpu-target-cpu=host`), then run by IREE's
runtime (iree.runtime, the local-sync driver: one thread; convcheck runs cases in parallel already). The module is:
- output: `aten.convolution` (transposed for a deconv, with its output_padding; groups, stride, dilation);
- grad_data, grad_weight: `aten.convolution_backward` with the output mask of the directions asked (IREE keeps the
  op and lowers it directly, by its copy of torch-mlir's ConvertAtenConvolutionBackwardOp, not through autograd's
  decomposition into convs); a deconv's gradients are a module of their own (below);
- padding: the padding both ends share goes to the op; four-sided and negative padding (crops) are `F.pad` and
  slices in the module around it, as oracles/torch/torch_conv.py does (the gradient of that pad is the same pad
  with the signs exchanged, in the module too). The gradients give the op at most dilation * (kernel - 1) of a
  conv's shared padding and the rest to that pad, as oracles/torch_mlir/torch_mlir_server.py does: the direct
  lowering refuses more ("unimplemented: negative padding values are not supported."), so those gradients are
  judged. The adapter computes nothing itself.

The three strategies differ only in iree-compile's flags:
- iree: IREE's default CPU path;
- iree_im2col: `--iree-global-opt-use-im2col-for-convs` (convs rewritten to im2col + matmul in global optimization);
- iree_winograd: `--iree-preprocessing-pass-pipeline=builtin.module(util.func(iree-linalg-ext-convert-conv2d-to-
  winograd{replace-all-convs=true}))`: every 2-D 3x3 stride-1 dilation-1 linalg conv rewritten to Winograd F(6,3)
  (iree_linalg_ext.winograd.input/filter/output_transform). It declares exactly those problems (rank 2, kernel 3,
  stride 1, dilation 1) and the output direction only (the gradients are `aten.convolution_backward`'s direct
  lowering, which the pass does not match), convs and deconvs (a stride-1 deconv is rewritten too, and
  convcheck's Winograd bound judges a deconv as its equivalent conv), and its class, "winograd:6:0,1,-1,2,-2,1/2,-1/2":
  F(6,3) on IREE's points, read from its constants (compiler/src/iree/compiler/Dialect/LinalgExt/Utils/
  WinogradConstants.h: the columns of AT_6x6_3x3 are the powers of 0, 1, -1, 2, -2, 1/2, -1/2 and infinity).

What it declares (the hello), and why:
- ops conv and deconv, ranks 1 to 3 (winograd: 2), all three directions (winograd: output);
- formats float32, float16 and bfloat16: a case all in float16 or all in bfloat16 runs the conv in that format
  (IREE's own low-precision path); bfloat16 or float16 inputs with a float32 result are widened to float32 in the
  module (exact) and run in float32, each result rounded once to its format. float64 is left out: IREE demotes f64 to
  f32 by default (--iree-input-demote-f64-to-f32), by design;
- layouts ncx and oix only: a PyTorch module's values have no layout (channels_last is a memory format that
  torch.export does not carry), so IREE chooses its own;
- crops: yes (slices in the module).

One refusal is declared, per case, in the words of the source that states it (docs/external.md, "Unsupported, or
a finding"): the direct backward lowering's "unimplemented: transposed convolution backward". A deconv's gradients
are compiled as a module of their own, and where iree-compile fails on it with exactly "failed to legalize operation
'torch.aten.convolution_backward'" they are answered skipped with those words, its output still computed; the
refusal is read from the compile, not assumed, so the day IREE lowers them they are judged. Anything else IREE
raises on, fails to compile, or computes is sent back: an error is a finding, never a skip.

Compiling is most of a case's time (IREE compiles per shape), so compiled modules are kept per problem (every field
but the data) and directions, the newest CACHE_SIZE of them; a fuzz campaign rarely draws a problem twice, so its
rate is bounded by export plus iree-compile (about 1 to 2 s a case on this machine).

Environment (for tests and campaigns):
  CONVCHECK_IREE_PLANT_ERROR=1   a deliberate error: the first element of every output is changed, so a campaign
                                 must find it (tests/interop/iree_server.sh)
  CONVCHECK_IREE_SUPPORTS=JSON   keys replacing the hello's (e.g. {"ops": ["conv"]}), so that a campaign with
                                 --focus draws one part of what it supports
  CONVCHECK_IREE_MLIR=DIR        write each compiled module's torch-dialect MLIR and flags to DIR (for a finding's
                                 standalone reproduction and for checking what the flags rewrote)
"""
import collections
import hashlib
import json
import os
import pathlib
import sys

import ml_dtypes
import numpy as np
import torch
import torch.nn.functional as F

import iree.compiler as ireec
import iree.compiler.version  # noqa: F401  (ireec.version.VERSION: the compiler's build tag)
import iree.runtime as ireert
import iree.turbine.aot as aot

# the server helper lives with the other outside-implementation pieces (oracles/outside/python/)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
from convcheck_server import InFormat, Skipped, Unsupported, serve  # noqa: E402

WINOGRAD_PIPELINE = "builtin.module(util.func(iree-linalg-ext-convert-conv2d-to-winograd{replace-all-convs=true}))"
FLAGS = {
    "iree": [],
    "iree_im2col": ["--iree-global-opt-use-im2col-for-convs"],
    "iree_winograd": [f"--iree-preprocessing-pass-pipeline={WINOGRAD_PIPELINE}"],
}
COMMON_FLAGS = ["--iree-llvmcpu-target-cpu=host"]
WINOGRAD_POINTS = "0,1,-1,2,-2,1/2,-1/2"  # IREE's F(6,3): WinogradConstants.h
TORCH = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
NUMPY = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
RESULT_FORMAT = {"output": "dst_dtype", "grad_data": "src_dtype", "grad_weight": "weight_dtype"}
ROLE_FORMAT = {"data": "src_dtype", "weight": "weight_dtype", "grad_output": "dst_dtype"}
CACHE_SIZE = 64
# What IREE refuses by design: a transposed conv's aten.convolution_backward. The words are a notifyMatchFailure of
# ConvertAtenConvolutionBackwardOp (torch-mlir's lib/Conversion/TorchToLinalg/Linear.cpp, in IREE's copy: the string
# is in libIREECompiler.so), which a release build does not print; iree-compile says LEGALIZE_BACKWARD.
LEGALIZE_BACKWARD = "failed to legalize operation 'torch.aten.convolution_backward' that was explicitly marked illegal"
TRANSPOSED_BACKWARD = ("torch-mlir's direct aten.convolution_backward lowering in IREE: 'unimplemented: transposed "
                       "convolution backward' (iree-compile: failed to legalize operation "
                       "'torch.aten.convolution_backward')")


def pad(x, begin, end):
    """x [N, C, spatial...] over positions [-begin, in + end): F.pad's zeros where a padding is positive, then a
    slice where it is negative (padded first, so a crop longer than the input eats into the other side's zeros)."""
    if all(b == 0 for b in begin) and all(e == 0 for e in end):
        return x
    widths = []
    for b, e in reversed(list(zip(begin, end))):  # F.pad lists the last axis first
        widths += [max(b, 0), max(e, 0)]
    if any(widths):
        x = F.pad(x, tuple(widths))
    if all(b >= 0 for b in begin) and all(e >= 0 for e in end):
        return x
    sizes = x.shape[2:]
    window = tuple(slice(max(-b, 0), size - max(-e, 0)) for size, b, e in zip(sizes, begin, end))
    return x[(slice(None), slice(None)) + window]


def negated(values):
    return [-v for v in values]


class ConvModule(torch.nn.Module):
    """The case's op as PyTorch writes it: forward(data, weight[, grad_output]) -> the results asked, in the order
    output, grad_data, grad_weight."""

    def __init__(self, problem, directions, compute_format):
        super().__init__()
        self.problem, self.directions, self.compute_format = problem, directions, compute_format
        begin, end = problem["pad_begin"], problem["pad_end"]
        self.shared = [min(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]  # the padding the op itself takes
        self.deconv = problem.get("op", "conv") == "deconv"
        ndims = int(problem["ndims"])
        self.output_padding = list(problem.get("output_padding", [0] * ndims)) if self.deconv else [0] * ndims
        # The gradients' op takes at most dilation * (kernel - 1) of a conv's shared padding: the direct lowering
        # pads grad_output by d * (k - 1) - p for grad_data and refuses a negative one ("unimplemented: negative
        # padding values are not supported."). The rest is padded in the module, as the forward's rest is.
        self.backward_shared = self.shared if self.deconv else [
            min(s, d * (k - 1)) for s, d, k in zip(self.shared, problem["dilation"], problem["kernel_size"])]

    def rest(self, shared):
        """What is left of each end's padding after the op's `shared`: padded before a conv, after a deconv."""
        return ([b - s for b, s in zip(self.problem["pad_begin"], shared)],
                [e - s for e, s in zip(self.problem["pad_end"], shared)])

    def forward(self, data, weight, grad_output=None):
        cast, p = self.compute_format, self.problem
        x, w = data.to(cast), weight.to(cast)
        stride, dilation, groups = list(p["stride"]), list(p["dilation"]), int(p["groups"])
        results = []
        if "output" in self.directions:
            rest_begin, rest_end = self.rest(self.shared)
            y = torch.ops.aten.convolution(x if self.deconv else pad(x, rest_begin, rest_end), w, None, stride,
                                           self.shared, dilation, self.deconv, self.output_padding, groups)
            if self.deconv:
                y = pad(y, negated(rest_begin), negated(rest_end))
            results.append(y.to(TORCH[p["dst_dtype"]]))
        mask = ["grad_data" in self.directions, "grad_weight" in self.directions]
        if any(mask):
            rest_begin, rest_end = self.rest(self.backward_shared)
            dy = grad_output.to(cast)
            if self.deconv:  # the gradient of the pad after the op: the pad with the signs exchanged
                dy = pad(dy, rest_begin, rest_end)
            grad_x, grad_w, _ = torch.ops.aten.convolution_backward(
                dy, x if self.deconv else pad(x, rest_begin, rest_end), w, None, stride, self.backward_shared,
                dilation, self.deconv, self.output_padding, groups, mask + [False])
            if mask[0]:
                if not self.deconv:  # the gradient of the pad before the op
                    grad_x = pad(grad_x, negated(rest_begin), negated(rest_end))
                results.append(grad_x.to(TORCH[p["src_dtype"]]))
            if mask[1]:
                results.append(grad_w.to(TORCH[p["weight_dtype"]]))
        return tuple(results)


def compute_format(problem):
    """The format the op runs in: the case's own where its three tensors are all float16 or all bfloat16 (IREE's
    low-precision path; the sums are float32 by the precision table), else float32 (inputs widened exactly)."""
    formats = {problem[key] for key in ("src_dtype", "weight_dtype", "dst_dtype", "acc_dtype")}
    unknown = formats - set(TORCH)
    if unknown:
        raise Unsupported(f"formats {sorted(unknown)}: IREE demotes float64 to float32 by default")
    tensors = {problem[key] for key in ("src_dtype", "weight_dtype", "dst_dtype")}
    return TORCH[tensors.pop()] if len(tensors) == 1 else torch.float32


def shapes(problem):
    n, c, k, groups = (int(problem[key]) for key in ("batch", "in_channels", "out_channels", "groups"))
    kernel = list(problem["kernel_size"])
    weight = [k, c // groups] + kernel if problem.get("op", "conv") == "conv" else [c, k // groups] + kernel
    return [n, c] + list(problem["in_size"]), weight


class Compiled:
    """One problem's module exported, compiled and loaded: `run(*inputs)` -> the results asked, in order; or why IREE
    refused it by design (`refused`, the words of refusal())."""

    def __init__(self, strategy, problem, directions):
        self.directions = [d for d in ("output", "grad_data", "grad_weight") if d in directions]
        self.refused, self.module = None, None
        module = ConvModule(problem, self.directions, compute_format(problem))
        x_shape, w_shape = shapes(problem)
        examples = [torch.zeros(x_shape, dtype=TORCH[problem["src_dtype"]]),
                    torch.zeros(w_shape, dtype=TORCH[problem["weight_dtype"]])]
        if self.directions != ["output"]:
            with torch.no_grad():
                out_shape = list(module_output_shape(problem, x_shape, w_shape))
            examples.append(torch.zeros(out_shape, dtype=TORCH[problem["dst_dtype"]]))
        self.inputs = len(examples)
        exported = aot.export(module, args=tuple(examples))
        self.mlir = str(exported.mlir_module)
        self.flags = COMMON_FLAGS + FLAGS[strategy]
        keep = os.environ.get("CONVCHECK_IREE_MLIR")
        if keep:
            digest = hashlib.sha1((self.mlir + " ".join(self.flags)).encode()).hexdigest()[:12]
            base = pathlib.Path(keep) / f"{strategy}-{digest}"
            base.with_suffix(".mlir").write_text(self.mlir)
            base.with_suffix(".json").write_text(json.dumps({"problem": problem, "directions": self.directions,
                                                             "flags": self.flags}))
        try:
            vmfb = ireec.compile_str(self.mlir, target_backends=["llvm-cpu"], input_type="torch",
                                     extra_args=self.flags)
        except ireec.tools.CompilerToolError as error:
            self.refused = refusal(problem, self.directions, error_lines(error))
            if self.refused is None:
                raise RuntimeError(f"iree-compile failed: {diagnostics(error)}") from None
            return
        self.module = ireert.load_vm_flatbuffer(vmfb, driver="local-sync")

    def run(self, inputs):
        results = self.module.main(*inputs[:self.inputs])
        if not isinstance(results, (tuple, list)):
            results = [results]
        return dict(zip(self.directions, (np.asarray(r.to_host()) for r in results)))


def error_lines(error):
    """iree-compile's own error lines ("error: failed to legalize operation 'torch.aten.convolution_backward'..."),
    each once, without the source location, the op's full text or the command line."""
    lines = [line.split(" error: ", 1)[1] for line in str(error).splitlines() if " error: " in line]
    return list(dict.fromkeys(line.split(": %", 1)[0].split(' : "', 1)[0].strip() for line in lines))


def diagnostics(error):
    """The error lines as one message, so that messages add up across cases."""
    return "; ".join(error_lines(error)) or str(error).strip().splitlines()[-1]


def refusal(problem, directions, lines):
    """IREE's words where it refused the module by design, or None: a deconv's gradients, alone in their module
    (make_compute), where iree-compile's only error is the op's failed legalization. Any other error is a finding."""
    if (problem.get("op", "conv") == "deconv" and "output" not in directions
            and lines == [LEGALIZE_BACKWARD]):
        return TRANSPOSED_BACKWARD
    return None


def module_output_shape(problem, x_shape, w_shape):
    """The op's output shape, by convcheck's formula (docs/external.md)."""
    ndims, deconv = int(problem["ndims"]), problem.get("op", "conv") == "deconv"
    out = []
    for i in range(ndims):
        n, k = x_shape[2 + i], w_shape[2 + i]
        s, d = problem["stride"][i], problem["dilation"][i]
        b, e = problem["pad_begin"][i], problem["pad_end"][i]
        if deconv:
            op = problem.get("output_padding", [0] * ndims)[i]
            out.append((n - 1) * s - b - e + d * (k - 1) + op + 1)
        else:
            out.append((n + b + e - d * (k - 1) - 1) // s + 1)
    channels = w_shape[0] if not deconv else w_shape[1] * int(problem["groups"])
    return [x_shape[0], channels] + out


CACHE = collections.OrderedDict()


def compiled(strategy, problem, directions):
    key = json.dumps([problem, sorted(directions)], sort_keys=True)
    if key not in CACHE:
        CACHE[key] = Compiled(strategy, problem, directions)
        if len(CACHE) > CACHE_SIZE:
            CACHE.popitem(last=False)
    CACHE.move_to_end(key)
    return CACHE[key]


def as_input(array, format_name):
    """A NumPy input (bfloat16 as its uint16 bits) in the format IREE's runtime takes."""
    bits = np.ascontiguousarray(array)
    return bits.view(ml_dtypes.bfloat16) if format_name == "bfloat16" else bits.astype(NUMPY[format_name], copy=False)


def as_result(value, format_name):
    """An IREE result in its format as convcheck takes it (bfloat16 as its uint16 bits)."""
    if format_name == "bfloat16":
        return InFormat(np.ascontiguousarray(value.astype(ml_dtypes.bfloat16)).view(np.uint16), "bfloat16")
    return value.astype(np.float32)  # float16 widens exactly


def parts(problem, directions):
    """The modules a case compiles: one of every direction asked; for a deconv, its gradients apart from its output,
    so that a refusal of theirs is read from their own compile and the output is still computed."""
    gradients = [d for d in directions if d != "output"]
    if problem.get("op", "conv") != "deconv" or not gradients or "output" not in directions:
        return [list(directions)]
    return [["output"], gradients]


def make_compute(strategy):
    def compute(problem, tensors, directions):
        inputs = [as_input(tensors[role], problem[ROLE_FORMAT[role]]) for role in ("data", "weight", "grad_output")]
        results, skipped = {}, {}
        for part in parts(problem, directions):
            unit = compiled(strategy, problem, part)
            if unit.refused is not None:
                skipped.update((d, Skipped(unit.refused)) for d in unit.directions)
            else:
                results.update(unit.run(inputs))
        if os.environ.get("CONVCHECK_IREE_PLANT_ERROR") == "1" and "output" in results and results["output"].size:
            output = results["output"].astype(np.float32)
            output.flat[0] = output.flat[0] * 2 + 1  # never within a bound: 1 + |y| away where |y| < 1, double it
            results["output"] = output.astype(results["output"].dtype)
        return dict({d: as_result(v, problem[RESULT_FORMAT[d]]) for d, v in results.items() if d in directions},
                    **skipped)
    return compute


def main(strategy):
    supports = {"ops": ["conv", "deconv"], "ranks": [1, 2, 3], "dtypes": ["float32", "float16", "bfloat16"],
                "data_layouts": ["ncx"], "weight_layouts": ["oix"], "crops": True}
    algorithm = None
    if strategy == "iree_winograd":
        # IREE rewrites a stride-1 3x3 deconv by Winograd too (checked in the IR: docs/libraries/iree.md), which
        # convcheck's Winograd bound judges as its equivalent conv's data gradient.
        supports.update(ranks=[2], kernels=[3], strides=[1], dilations=[1], directions=["output"])
        algorithm = f"winograd:6:{WINOGRAD_POINTS}"
    supports.update(json.loads(os.environ.get("CONVCHECK_IREE_SUPPORTS", "{}")))
    flags = " ".join(COMMON_FLAGS + FLAGS[strategy])
    what = (f"iree-compile {ireec.version.VERSION}, iree-turbine {package_version('iree-turbine')} aot.export "
            f"from torch {torch.__version__.split('+')[0]}, iree-compile --iree-input-type=torch llvm-cpu {flags}, "
            f"local-sync runtime")
    serve(make_compute(strategy), name=strategy, version=f"{package_version('iree-base-compiler')} ({what})",
          supports=supports, algorithm=algorithm)


def package_version(name):
    from importlib.metadata import version
    return version(name)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in FLAGS:
        sys.exit("usage: iree_server.py iree | iree_im2col | iree_winograd")
    main(sys.argv[1])
