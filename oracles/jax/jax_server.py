#!/usr/bin/env python3
"""JAX on XLA:CPU as a convcheck server (docs/external.md, docs/libraries/jax.md).

usage: jax_server.py jax         XLA:CPU as JAX ships it: a 2-D f32/f64 convolution YNNPACK takes runs as a
                                 __ynn_fusion, every other one on XLA's ConvolutionThunk (Eigen's spatial
                                 convolution: f16 and f32 in the NHWC/HWIO form) or, where Eigen's form does not fit
                                 (f64, a reversed kernel, other dimension orders), on XLA's own emitted loops
       jax_server.py jax_eigen   the same with the YNNPACK convolution fusion off
                                 (--xla_cpu_experimental_ynn_fusion_type=-individual_convolution): Eigen and XLA's
                                 loops only
       jax_server.py jax_ynn     XLA as shipped, judged only where the compiled HLO puts a direction's convolution
                                 in a __ynn_fusion: YNNPACK's convolution alone (2-D convs; each other direction is
                                 skipped quoting the path XLA chose)

Run it with venvs/jax/bin/python (scripts/install-deps.sh jax). Each case is one jit-compiled JAX function, as a
model would write it: the forward pass `lax.conv_general_dilated` with the case's explicit low/high padding
(negative: a crop), window strides, `rhs_dilation`, `feature_group_count` and the `dimension_numbers` of its layouts
(data NCHW or NHWC, weight OIHW, HWIO or OHWI, and their 1-D and 3-D kin), and both gradients by `jax.vjp` of that
forward pass with the case's grad_output as the cotangent; each direction under a `jax.named_scope` of its name, so
that the compiled HLO says which convolution computes which direction. A deconv (conv_transpose) is what JAX's own
transpose rule writes for the data gradient of a conv: the input dilated by the stride (`lhs_dilation`), the
IOHW-per-group weight regrouped to OIHW per group and flipped (`lax.rev`), padding dilation * (kernel - 1) - pad_begin
low and dilation * (kernel - 1) - pad_end + output_padding high; its gradients are again `jax.vjp` of it, so XLA sees
the batch-grouped (batch_group_count) weight gradient of a grouped conv and the reversed kernels as JAX emits them.
The functions are compiled once per problem (shapes, formats, layouts, padding, ...: everything but the data), kept
in a small cache, and each result is sent back as XLA computed it.

What it declares (the hello), and why:
- ops conv and deconv, all three directions, ranks 1 to 3, every layout, kernel, stride, dilation, group count and
  crop (XLA's convolution takes negative padding). jax_ynn declares 2-D convs only: YNNPACK takes nothing else;
- formats float32, float64 (jax_enable_x64), bfloat16 and float16, i.e. every row of convcheck's precision table:
  f32 and f64 as plain convolutions in that format; f32 tensors with float64 sums (f32_f64acc) as
  preferred_element_type=float64, rounded to float32 in the function; bf16/f16 tensors with float32 sums (bf16_f32acc,
  f16_f32acc) as preferred_element_type=float32 and an astype back to the format; bf16/f16 inputs with a float32
  result (bf16_to_f32, f16_to_f32) as preferred_element_type=float32. The gradients come from jax.vjp in the formats
  JAX gives them (the inputs' own), with the cotangent in the output's format.

Anything JAX or XLA raises on a problem inside that is sent back as an error: a finding, never a skip.

Environment (for tests and campaigns):
  CONVCHECK_JAX_PLANT_ERROR=1   a deliberate error: the first element of every output is changed, so a campaign must
                                find it (tests/interop/jax_server.sh)
  CONVCHECK_JAX_GRAPHS=FILE     append one JSON line a case to FILE: the problem and, per direction, each
                                convolution of the optimized HLO XLA compiled (its HLO line) and the path it runs on
                                ("ynn", "eigen" or "loops", xla_paths.py)
XLA_FLAGS is set by the strategy (above) and replaces one in the environment.
"""
import collections
import json
import os
import pathlib
import sys

STRATEGIES = {"jax": "", "jax_eigen": "--xla_cpu_experimental_ynn_fusion_type=-individual_convolution", "jax_ynn": ""}
if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in STRATEGIES:
        sys.exit("usage: jax_server.py jax|jax_eigen|jax_ynn")
    os.environ["XLA_FLAGS"] = STRATEGIES[sys.argv[1]]  # read once, when jaxlib starts its CPU client
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

jax.config.update("jax_enable_x64", True)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
from convcheck_server import InFormat, Skipped, Unsupported, serve  # noqa: E402
from xla_paths import YNN_RULE, convolution_paths  # noqa: E402

FORMATS = {"float32": jnp.float32, "float64": jnp.float64, "bfloat16": jnp.bfloat16, "float16": jnp.float16}
DIRECTIONS = ("output", "grad_data", "grad_weight")
CACHE_SIZE = 32  # compiled functions kept; a fuzz campaign rarely repeats a problem, shrinking often does


def spatial_letters(ndims):
    return "DHW"[3 - ndims:]


def to_layout(array, canonical, layout):
    """`array` in the axis order `canonical` ("NCHW"), transposed to `layout` ("NHWC")."""
    return jnp.transpose(array, [canonical.index(axis) for axis in layout])


def from_layout(array, layout, canonical):
    return np.transpose(np.asarray(array), [layout.index(axis) for axis in canonical])


def forward(problem):
    """f(x, w) -> y in the problem's layouts: the conv or deconv as a JAX model writes it."""
    ndims, groups = int(problem["ndims"]), int(problem["groups"])
    stride, dilation = list(problem["stride"]), list(problem["dilation"])
    begin, end = list(problem["pad_begin"]), list(problem["pad_end"])
    kernel = list(problem["kernel_size"])
    data_layout, weight_layout = problem["data_layout"], problem["weight_layout"]
    letters = spatial_letters(ndims)
    acc, dst = FORMATS[problem["acc_dtype"]], FORMATS[problem["dst_dtype"]]
    src, wei = FORMATS[problem["src_dtype"]], FORMATS[problem["weight_dtype"]]
    # a plain convolution in its format where every tensor has it; otherwise the sums in acc_dtype (XLA's
    # preferred_element_type) and one rounding to the output's format
    preferred = None if src == wei == dst == acc else acc

    def convolve(x, w, *, weight_spec, lhs_dilation, padding):
        if x.dtype != w.dtype:  # mixed float32/float64 tensors: both widened to the sums' format, exactly
            x, w = x.astype(acc), w.astype(acc)
        y = lax.conv_general_dilated(x, w, window_strides=stride if lhs_dilation is None else [1] * ndims,
                                     padding=padding, lhs_dilation=lhs_dilation, rhs_dilation=dilation,
                                     dimension_numbers=(data_layout, weight_spec, data_layout),
                                     feature_group_count=groups, preferred_element_type=preferred)
        return y.astype(dst)

    if problem.get("op", "conv") == "conv":
        return lambda x, w: convolve(x, w, weight_spec=weight_layout, lhs_dilation=None, padding=list(zip(begin, end)))

    output_padding = list(problem.get("output_padding", [0] * ndims))
    c_in, c_out = int(problem["in_channels"]), int(problem["out_channels"])

    def deconv(x, w):
        # JAX's transpose rule for a conv's data gradient (jax/_src/lax/convolution.py): the IOHW-per-group weight
        # [C_in, C_out/G, k...] regrouped to [C_out, C_in/G, k...] and flipped on every spatial axis
        w = jnp.transpose(w, [weight_layout.index(axis) for axis in "OI" + letters])  # canonical [C_in, C_out/G, k]
        w = w.reshape(groups, c_in // groups, c_out // groups, *kernel).swapaxes(1, 2)
        w = lax.rev(w.reshape(c_out, c_in // groups, *kernel), tuple(range(2, 2 + ndims)))
        padding = [(d * (k - 1) - b, d * (k - 1) - e + p)
                   for d, k, b, e, p in zip(dilation, kernel, begin, end, output_padding)]
        return convolve(x, w, weight_spec="OI" + letters, lhs_dilation=stride, padding=padding)

    return deconv


def program(problem):
    """The jitted (x, w, dy) -> (y, dx, dw), each direction under a named scope of its own."""
    f = forward(problem)

    def all_directions(x, w, dy):
        with jax.named_scope("output"):
            y = f(x, w)
        with jax.named_scope("grad_data"):
            (dx,) = jax.vjp(lambda x: f(x, w), x)[1](dy)
        with jax.named_scope("grad_weight"):
            (dw,) = jax.vjp(lambda w: f(x, w), w)[1](dy)
        return y, dx, dw

    return jax.jit(all_directions)


class CompiledCache:
    """Compiled programs by problem (everything but the data), least recently used dropped past CACHE_SIZE."""

    def __init__(self):
        self.entries = collections.OrderedDict()

    def get(self, problem, arguments):
        key = json.dumps(problem, sort_keys=True)
        if key in self.entries:
            self.entries.move_to_end(key)
            return self.entries[key]
        compiled = program(problem).lower(*arguments).compile()
        entry = (compiled, convolution_paths(compiled.as_text()))
        self.entries[key] = entry
        if len(self.entries) > CACHE_SIZE:
            self.entries.popitem(last=False)
        return entry


CACHE = CompiledCache()


def jax_input(array, format_name, canonical, layout):
    if format_name == "bfloat16":
        array = array.view(jnp.bfloat16)  # the uint16 bits convcheck sends are a bfloat16's
    return to_layout(jnp.asarray(array, FORMATS[format_name]), canonical, layout)


def result(array, format_name, layout, canonical):
    array = np.array(from_layout(array, layout, canonical), order="C")  # a writable copy in canonical order
    return InFormat(array.view(np.uint16), "bfloat16") if format_name == "bfloat16" else array


def compute(strategy, problem, tensors):
    ndims, op = int(problem["ndims"]), problem.get("op", "conv")
    if any(int(size) == 0 for size in tensors["data"].shape + tensors["weight"].shape):
        raise Unsupported("an empty tensor")
    letters = spatial_letters(ndims)
    data_canonical, weight_canonical = "NC" + letters, "OI" + letters
    data_layout, weight_layout = problem["data_layout"], problem["weight_layout"]
    arguments = (jax_input(tensors["data"], problem["src_dtype"], data_canonical, data_layout),
                 jax_input(tensors["weight"], problem["weight_dtype"], weight_canonical, weight_layout),
                 jax_input(tensors["grad_output"], problem["dst_dtype"], data_canonical, data_layout))
    compiled, paths = CACHE.get(problem, arguments)
    graphs = os.environ.get("CONVCHECK_JAX_GRAPHS")
    if graphs:  # before the run, so that a crash leaves the program that crashed
        with open(graphs, "a") as log:
            log.write(json.dumps({"strategy": strategy, "problem": problem, "convolutions": paths}) + "\n")
    y, dx, dw = compiled(*arguments)
    results = {"output": result(y, problem["dst_dtype"], data_layout, data_canonical),
               "grad_data": result(dx, problem["src_dtype"], data_layout, data_canonical),
               "grad_weight": result(dw, problem["weight_dtype"], weight_layout, weight_canonical)}
    if os.environ.get("CONVCHECK_JAX_PLANT_ERROR") == "1":
        output = results["output"].array if isinstance(results["output"], InFormat) else results["output"]
        if output.size and not isinstance(results["output"], InFormat):
            output.flat[0] = output.flat[0] * 2 + 1  # never within a bound: 1 + |y| away where |y| < 1
        elif output.size:
            output.flat[0] ^= 0x4000  # a bfloat16's exponent bit flipped
    if strategy == "jax_ynn":
        for direction in DIRECTIONS:
            ran = {conv["path"] for conv in paths.get(direction, [])}
            if ran != {"ynn"}:
                results[direction] = Skipped(
                    f"XLA:CPU did not put this convolution in a YNNPACK fusion (it ran on {', '.join(sorted(ran))}; "
                    f"{YNN_RULE})")
    return results


def main(strategy):
    flags = STRATEGIES[strategy] or "none"
    what = {"jax": "XLA:CPU as shipped: YNNPACK fusion where it takes the convolution, Eigen or XLA's loops elsewhere",
            "jax_eigen": "XLA:CPU with the YNNPACK convolution fusion off: Eigen or XLA's loops",
            "jax_ynn": "XLA:CPU as shipped, judged only on convolutions XLA puts in a YNNPACK fusion"}[strategy]
    version = f"{jax.__version__}, jaxlib {jaxlib.__version__} ({what}; XLA_FLAGS {flags})"
    supports = {"ops": ["conv", "deconv"], "ranks": [1, 2, 3],
                "dtypes": ["float32", "float64", "bfloat16", "float16"], "crops": True}
    if strategy == "jax_ynn":
        supports.update(ops=["conv"], ranks=[2])
    serve(lambda problem, tensors: compute(strategy, problem, tensors), name="jax", version=version,
          supports=supports)


if __name__ == "__main__":
    main(sys.argv[1])
