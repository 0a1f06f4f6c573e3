#!/usr/bin/env python3
"""torch-mlir's convolution lowerings as a convcheck server (docs/external.md, docs/libraries/torch_mlir.md).

usage: torch_mlir_server.py torch_mlir

Run it with venvs/torch_mlir/bin/python (scripts/install-deps.sh torch_mlir). Each case becomes a small torch.nn.Module
calling the aten op itself, exported by torch.export and imported by torch-mlir's FX importer
(torch_mlir.fx.export_and_import), which runs torch-mlir's torchdynamo-export-to-torch-backend-pipeline and then
torch-backend-to-linalg-on-tensors-backend-pipeline. So a conv is torch-mlir's TorchToLinalg lowering of
`aten.convolution` (lib/Conversion/TorchToLinalg/Linear.cpp: channels split C -> [G, C/G] into
linalg.conv_2d_ngchw_gfchw, a linalg.generic in 3-D, 1-D unsqueezed to 2-D; a transposed conv un-strided, padded
and convolved with a flipped, group-swapped weight), and a gradient is its direct lowering of
`aten.convolution_backward` to linalg.generic (aten.convolution_backward named backend-legal, so that it is not
decomposed first). Nothing of IREE runs: the linalg-on-tensors module goes through the pipeline LOWERING below
(upstream MLIR passes, plus torch-mlir's own RefBackend pass that turns memref.copy into loops), modelled on
torch-mlir's RefBackend, to LLVM, and runs in MLIR's ExecutionEngine from the wheel (LLVM -O2, one thread). The
linalg ops are lowered to plain loops (convert-linalg-to-loops): no tiling, vectorization or fast math, so what is
judged is torch-mlir's lowering alone.

What it declares (the hello), and why:
- ops conv and deconv, ranks 1 to 3: aten.convolution takes both (`transposed`) and every rank;
- all three directions. grad_data and grad_weight of a deconv are skipped in torch-mlir's words where its lowering
  refuses them (the direct aten.convolution_backward lowering says "unimplemented: transposed convolution backward");
  the refusal is read from the compile, not assumed, so the day it is lowered it is judged;
- formats float32, float64, float16 and bfloat16. A case whose tensors are all one low format runs the op in that
  format (torch-mlir's lowering chooses the accumulator: float32 for float16 and bfloat16); any other mix is cast to
  float32 (float64 where one is float64) in the module, exact, and the results cast to their formats there, one
  rounding;
- layouts: the canonical ones only (data NCHW `ncx`, weights `oix`): aten.convolution holds NCHW tensors and
  torch-mlir's linalg lowering has no channels-last path;
- crops (negative padding) and four-sided padding: aten.convolution takes one padding >= 0 per axis, both ends. The
  padding both ends share goes to the op; the rest is an aten.constant_pad_nd and a slice of the conv's input in
  the module (of a deconv's output), so it is part of what torch-mlir lowers, as oracles/torch/torch_conv.py does it
  in PyTorch. The gradient of that pad and slice (a pad of the gradient and a slice) is written in the module too.

Anything torch-mlir raises on, fails to compile, or computes wrongly on a problem inside that is sent back: an error
is a finding, never a skip.

Compiling is most of a case's time (torch.export, the FX import and torch-mlir's pipelines per shape, then LLVM), so
compiled modules are kept per problem (every field but the data) and part (forward, gradients), the newest
CACHE_SIZE of them; a campaign rarely draws a problem twice, so its rate is bounded by torch.export and torch-mlir's
pipelines (docs/libraries/torch_mlir.md has the figures).

Environment (for tests and campaigns):
  CONVCHECK_TORCH_MLIR_PLANT_ERROR=1  a deliberate error: the first element of every output is changed, so a
                                      campaign must find it (tests/interop/torch_mlir_server.sh)
  CONVCHECK_TORCH_MLIR_GRAPHS=FILE    append one JSON line a compile to FILE: the problem, the part, and the linalg
                                      ops torch-mlir lowered it to (linalg.conv_2d_ngchw_gfchw, linalg.generic...)
  CONVCHECK_TORCH_MLIR_DUMP=DIR       write each compiled part's linalg-on-tensors module to DIR (for a finding)
"""
import collections
import ctypes
import json
import os
import pathlib
import re
import sys

import ml_dtypes
import numpy as np
import torch
from torch_mlir import fx, ir
from torch_mlir.dialects import torch as torch_d
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.extras.fx_importer import FxImporter
from torch_mlir.passmanager import PassManager
from torch_mlir.runtime import get_ranked_memref_descriptor

# the server helper lives with the other outside-implementation pieces (oracles/outside/python/)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
from convcheck_server import Skipped, serve  # noqa: E402

NUMPY = {"float32": np.float32, "float64": np.float64, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
TORCH = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16, "bfloat16": torch.bfloat16}
LOW = ("float16", "bfloat16")
CACHE_SIZE = 64
# linalg-on-tensors to LLVM, after torch-mlir's RefBackend (projects/pt1/python/torch_mlir_e2e_test/
# linalg_on_tensors_backends/refbackend.py), but with results as out-parameters instead of its return callbacks
LOWERING = "builtin.module(" + ",".join([
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}",
    "buffer-results-to-out-params{modify-public-functions hoist-static-allocs}",
    "func.func(buffer-deallocation-pipeline)",
    "func.func(refback-munge-memref-copy)",
    "func.func(convert-linalg-to-loops)",
    "lower-affine",
    "convert-scf-to-cf",
    "func.func(arith-expand{include-bf16=true})",
    "func.func(convert-math-to-llvm)",
    "convert-math-to-libm",
    "expand-strided-metadata",
    "finalize-memref-to-llvm",
    "func.func(convert-arith-to-llvm)",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
]) + ")"
# What torch-mlir refuses by design: a transposed conv's aten.convolution_backward. Its pattern's own words
# (ConvertAtenConvolutionBackwardOp, lib/Conversion/TorchToLinalg/Linear.cpp) are a notifyMatchFailure, which a
# release build does not print; what the pipeline says is the second half.
TRANSPOSED_BACKWARD = ("torch-mlir's direct aten.convolution_backward lowering: 'unimplemented: transposed "
                       "convolution backward' (failed to legalize operation 'torch.aten.convolution_backward')")


def formats(problem):
    """The dtype the op runs in: the tensors' own low format where all four are one (the lowering picks the
    accumulator), else float32, or float64 where one tensor is."""
    tensors = [problem[f"{role}_dtype"] for role in ("src", "weight", "dst")]
    if tensors[0] in LOW and len(set(tensors)) == 1:
        return tensors[0]
    return "float64" if "float64" in tensors + [problem["acc_dtype"]] else "float32"


def shared_padding(problem):
    """The padding aten.convolution takes (one per axis, >= 0, both ends): what both ends of the case share."""
    return [min(max(b, 0), max(e, 0)) for b, e in zip(problem["pad_begin"], problem["pad_end"])]


def pad(x, begin, end):
    """x [N, C, spatial...] over positions [-begin, size + end): zeros where a padding is positive
    (aten.constant_pad_nd), cut where it is negative (aten.slice); padded first, then cut."""
    if all(b == 0 == e for b, e in zip(begin, end)):
        return x
    widths = []
    for b, e in reversed(list(zip(begin, end))):  # constant_pad_nd lists the last axis first
        widths += [max(b, 0), max(e, 0)]
    if any(widths):
        x = torch.nn.functional.pad(x, widths)
    window = tuple(slice(max(-b, 0), x.shape[2 + i] - max(-e, 0)) for i, (b, e) in enumerate(zip(begin, end)))
    return x[(slice(None), slice(None)) + window]


def unpad(grad, begin, end):
    """The gradient of pad(x, begin, end): the positions pad cut given back as zeros, then those it added cut off,
    which is pad(grad, -begin, -end)."""
    return pad(grad, [-b for b in begin], [-e for e in end])


class Forward(torch.nn.Module):
    """The case's op on (x, w): aten.convolution with the shared padding, the rest of it a pad or slice of the conv's
    input (of a deconv's output)."""

    def __init__(self, problem):
        super().__init__()
        self.problem = problem

    def forward(self, x, w):
        p = self.problem
        compute, shared = formats(p), shared_padding(p)
        deconv = p.get("op", "conv") == "deconv"
        rest_begin = [b - s for b, s in zip(p["pad_begin"], shared)]
        rest_end = [e - s for e, s in zip(p["pad_end"], shared)]
        x, w = x.to(TORCH[compute]), w.to(TORCH[compute])
        if not deconv:
            x = pad(x, rest_begin, rest_end)
        y = torch.ops.aten.convolution(x, w, None, p["stride"], shared, p["dilation"], deconv,
                                       p.get("output_padding", [0] * int(p["ndims"])) if deconv else
                                       [0] * int(p["ndims"]), int(p["groups"]))
        if deconv:  # out = (in - 1) * stride - 2 * shared + dilation * (kernel - 1) + output_padding + 1, then this
            y = pad(y, [-r for r in rest_begin], [-r for r in rest_end])
        return y.to(TORCH[p["dst_dtype"]])


class Gradients(torch.nn.Module):
    """(grad_data, grad_weight) of the case's op: aten.convolution_backward, inside the same pad and slice as Forward,
    whose gradients are written out. A conv's op gets at most dilation * (kernel - 1) of the shared padding, the
    rest is padded in the module: the direct lowering refuses more ("unimplemented: negative padding values are not
    supported.", a notifyMatchFailure in ConvertAtenConvolutionBackwardOp)."""

    def __init__(self, problem):
        super().__init__()
        self.problem = problem

    def forward(self, x, w, dy):
        p = self.problem
        compute, shared, ndims = formats(p), shared_padding(p), int(p["ndims"])
        deconv = p.get("op", "conv") == "deconv"
        if not deconv:  # the direct lowering's limit (its grad_data padding d * (k - 1) - p must be >= 0)
            shared = [min(s, d * (k - 1)) for s, d, k in zip(shared, p["dilation"], p["kernel_size"])]
        rest_begin = [b - s for b, s in zip(p["pad_begin"], shared)]
        rest_end = [e - s for e, s in zip(p["pad_end"], shared)]
        x, w, dy = x.to(TORCH[compute]), w.to(TORCH[compute]), dy.to(TORCH[compute])
        if deconv:  # the gradient of Forward's pad(y, -rest)
            dy = unpad(dy, [-r for r in rest_begin], [-r for r in rest_end])
        else:
            x = pad(x, rest_begin, rest_end)
        output_padding = p.get("output_padding", [0] * ndims) if deconv else [0] * ndims
        grad_x, grad_w, _ = torch.ops.aten.convolution_backward(dy, x, w, None, p["stride"], shared, p["dilation"],
                                                                deconv, output_padding, int(p["groups"]),
                                                                [True, True, False])
        if not deconv:
            grad_x = unpad(grad_x, rest_begin, rest_end)
        return grad_x.to(TORCH[p["src_dtype"]]), grad_w.to(TORCH[p["weight_dtype"]])


def linalg_ops(module):
    """The linalg ops of a linalg-on-tensors module, in order of appearance, each once."""
    return list(dict.fromkeys(re.findall(r"\b(linalg\.[a-z0-9_]+)", str(module))))


def refusal(problem, part, diagnostics):
    """torch-mlir's words where its lowering refused the problem by design, or None."""
    if (part == "gradients" and problem.get("op", "conv") == "deconv"
            and any("failed to legalize operation 'torch.aten.convolution_backward'" in d for d in diagnostics)):
        return TRANSPOSED_BACKWARD
    return None


def first_lines(diagnostics, limit=400):
    """The diagnostics as one line, cut to `limit` characters (an op's print can be long)."""
    text = " | ".join(" ".join(d.split()) for d in diagnostics)
    return text if len(text) <= limit else text[:limit] + "..."


class Part:
    """One function of a problem compiled: torch.export, torch-mlir to linalg-on-tensors, LOWERING to LLVM, the
    ExecutionEngine; or why torch-mlir refused it (`refused`, its words)."""

    def __init__(self, problem, module, arguments, name, legal):
        self.refused, self.ops, self.engine = None, [], None
        context, diagnostics = ir.Context(), []
        context.enable_multithreading(False)  # one thread: convcheck runs cases in parallel already
        torch_d.register_dialect(context)

        def collect(diagnostic):  # the pipeline's errors, which TorchMlirCompilerError's message leaves out
            diagnostics.append(str(diagnostic.message))
            return True

        context.attach_diagnostic_handler(collect)
        try:
            lowered = fx.export_and_import(module, *arguments, output_type="linalg-on-tensors",
                                           fx_importer=FxImporter(context=context), backend_legal_ops=legal,
                                           func_name="main")
        except Exception as error:  # TorchMlirCompilerError, or torch.export's own
            self.refused = refusal(problem, name, diagnostics)
            if self.refused is None:
                first = str(error).strip().splitlines()[0] if str(error).strip() else ""
                raise RuntimeError(f"torch-mlir ({name}): {type(error).__name__}: {first} "
                                   f"{first_lines(diagnostics)}") from error
            return
        self.ops = linalg_ops(lowered)
        dump = os.environ.get("CONVCHECK_TORCH_MLIR_DUMP")
        if dump:
            pathlib.Path(dump).mkdir(parents=True, exist_ok=True)
            (pathlib.Path(dump) / f"{name}.mlir").write_text(str(lowered))
        try:  # this pipeline is the adapter's choice (upstream MLIR): its errors are named apart from torch-mlir's
            with lowered.context:
                for op in lowered.body.operations:
                    op.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
                PassManager.parse(LOWERING).run(lowered.operation)
            self.engine = ExecutionEngine(lowered, opt_level=2)
            self.engine.lookup("main")  # compiles now, so a JIT error is the compile's
        except Exception as error:
            raise RuntimeError(f"linalg to LLVM ({name}): {type(error).__name__}: {error} "
                               f"{first_lines(diagnostics)}") from error

    def run(self, inputs, outputs):
        """Calls main(inputs..., outputs...): NumPy arrays, the outputs written in place."""
        arrays = [np.ascontiguousarray(a) for a in inputs] + outputs  # held until the call returns
        descriptors = [get_ranked_memref_descriptor(a) for a in arrays]
        self.engine.invoke("main", *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors])
        return outputs


def shapes(problem):
    """(data, weight, output) shapes, canonical."""
    ndims, groups = int(problem["ndims"]), int(problem["groups"])
    x = [int(problem["batch"]), int(problem["in_channels"])] + list(problem["in_size"])
    k = list(problem["kernel_size"])
    deconv = problem.get("op", "conv") == "deconv"
    if deconv:
        w = [int(problem["in_channels"]), int(problem["out_channels"]) // groups] + k
    else:
        w = [int(problem["out_channels"]), int(problem["in_channels"]) // groups] + k
    y = [int(v) for v in Forward(problem)(torch.zeros(x, dtype=TORCH[problem["src_dtype"]]).to("meta"),
                                         torch.zeros(w, dtype=TORCH[problem["weight_dtype"]]).to("meta")).shape]
    assert len(y) == ndims + 2
    return x, w, y


def example(shape, format_name):
    return torch.zeros(shape, dtype=TORCH[format_name])


def compile_part(problem, part):
    x, w, y = shapes(problem)
    if part == "forward":
        compiled_part = Part(problem, Forward(problem), (example(x, problem["src_dtype"]), example(w, problem["weight_dtype"])),
                             part, None)
    else:
        compiled_part = Part(problem, Gradients(problem), (example(x, problem["src_dtype"]), example(w, problem["weight_dtype"]),
                                                  example(y, problem["dst_dtype"])), part, ["aten.convolution_backward"])
    compiled_part.output_shape = y
    return compiled_part


CACHE = collections.OrderedDict()


def compiled(problem, part):
    key = json.dumps([problem, part], sort_keys=True)
    if key not in CACHE:
        CACHE[key] = compile_part(problem, part)
        graphs = os.environ.get("CONVCHECK_TORCH_MLIR_GRAPHS")
        if graphs:
            with open(graphs, "a") as log:
                log.write(json.dumps({"problem": problem, "part": part, "linalg": CACHE[key].ops,
                                      "refused": CACHE[key].refused}) + "\n")
        if len(CACHE) > CACHE_SIZE:
            CACHE.popitem(last=False)
    CACHE.move_to_end(key)
    return CACHE[key]


def as_input(array, format_name):
    """A NumPy input (bfloat16 as its uint16 bits) in its format's dtype."""
    return array.view(NUMPY[format_name]) if format_name == "bfloat16" else array


def as_result(array):
    """A result as float32 or float64 (exact: a float16 or bfloat16 widens without rounding)."""
    return array if array.dtype == np.float64 else array.astype(np.float32)


def compute(problem, tensors, directions):
    x = as_input(tensors["data"], problem["src_dtype"])
    w = as_input(tensors["weight"], problem["weight_dtype"])
    results = {}
    if "output" in directions:
        part = compiled(problem, "forward")
        (output,) = part.run([x, w], [np.zeros(part.output_shape, NUMPY[problem["dst_dtype"]])])
        output = as_result(output)
        if os.environ.get("CONVCHECK_TORCH_MLIR_PLANT_ERROR") == "1" and output.size:
            output.flat[0] = output.flat[0] * 2 + 1  # never within a bound: 1 + |y| away where |y| < 1, doubled elsewhere
        results["output"] = output
    if "grad_data" in directions or "grad_weight" in directions:
        part = compiled(problem, "gradients")
        if part.refused is not None:
            results.update(grad_data=Skipped(part.refused), grad_weight=Skipped(part.refused))
        else:
            dy = as_input(tensors["grad_output"], problem["dst_dtype"])
            grad_x, grad_w = part.run([x, w, dy], [np.zeros(x.shape, NUMPY[problem["src_dtype"]]),
                                                   np.zeros(w.shape, NUMPY[problem["weight_dtype"]])])
            results.update(grad_data=as_result(grad_x), grad_weight=as_result(grad_w))
    return {direction: result for direction, result in results.items() if direction in directions}


def main():
    torch.set_num_threads(1)
    from importlib.metadata import version
    what = (f"torch {torch.__version__}: torch.export, the FX importer, torch-mlir's linalg-on-tensors pipeline "
            f"(aten.convolution_backward lowered directly), loops to LLVM in MLIR's ExecutionEngine, 1 thread")
    serve(compute, name="torch_mlir",
          version=f"{version('torch-mlir')} ({what})",
          supports={"ops": ["conv", "deconv"], "ranks": [1, 2, 3],
                    "dtypes": ["float32", "float64", "float16", "bfloat16"],
                    "data_layouts": ["ncx"], "weight_layouts": ["oix"], "crops": True})


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] != "torch_mlir":
        sys.exit("usage: torch_mlir_server.py torch_mlir")
    main()
