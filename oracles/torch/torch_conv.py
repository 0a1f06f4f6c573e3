#!/usr/bin/python3
"""PyTorch under convcheck's external protocols (docs/external.md).

usage: torch_conv.py IN OUT     per case (--external): read the case file IN, write the results to OUT
       torch_conv.py --server   as a server (--external-server): import torch once, answer cases over stdin/stdout
       torch_conv.py --server --ops deconv    the same, declaring only these ops (so `fuzz --focus` draws deconvs)

Reads the case IN (format v1 or v2) with h5py and runs its op. A conv: torch.nn.functional.conv1d, conv2d or conv3d
on explicitly padded input (F.pad takes each side's padding separately, so asymmetric padding needs no special case;
negative padding is a crop, done by slicing first). A deconv (op "deconv"): F.conv_transpose1d/2d/3d with its
output_padding, the weight [C_in, C_out/G, k...] as PyTorch's ConvTranspose holds it, and the padding both ends share
(non-negative) passed to it; the rest of each end's padding is cut from its output, and a negative padding (an
extended output) adds zeros there. Both with groups, stride and dilation; the data and weight gradients come from
autograd with the recorded grad_output, and OUT gets the results. A case whose data layout is channels-last (NHWC,
NDHWC) runs in torch.channels_last / channels_last_3d memory format, which is how PyTorch honours it; results are
written back in canonical layouts as the protocol requires. The weight gradient of a strided 1x1 channels-last
convolution with fewer than 16 input channels per group is held back (not computed, reported as skipped with the
reason): PyTorch's oneDNN writes past its workspace there (oneDNN issue 6035), which corrupts the heap of a server
that goes on to later cases (docs/external.md).

Formats: float32 and float64 as given; bfloat16 and float16 tensors are widened to float32 (exactly), computed in
float32, and each result rounded once to its own format (torch's .to: nearest, ties to even): float32 accumulation
and one rounding to the destination, the low-precision rows of the precision table, which the server declares. (PyTorch
1.13's own bf16 kernels are not what this computes: on the CPU it has no float16 convolution and computes a bf16
conv_transpose as a plain conv, docs/findings.md.) Mixed formats compute in float64 when any tensor or the
accumulation is float64, else in float32. Per case, convcheck offers float32 and float64 only.

Run it with Debian's /usr/bin/python3, where python3-torch and python3-h5py are installed.
"""
import pathlib
import sys

import numpy as np
import torch
import torch.nn.functional as F


class UnsupportedProblem(Exception):
    """A problem this adapter does not run: exit 77 per case, an "unsupported" answer as a server."""


def attribute(attrs, key):
    value = attrs[key]
    return value.decode() if isinstance(value, bytes) else value


FORMATS = {"float32": torch.float32, "float64": torch.float64, "bfloat16": torch.bfloat16, "float16": torch.float16}


def read_problem(config):
    """The problem as a dict: op, ndims, groups, stride, dilation, pad_begin, pad_end, output_padding (lists outermost
    axis first), the formats of src, weight, dst and acc, channels_last; from a v2 /config (a server frame's
    "problem" holds the same fields) or a v1 one (2-D conv, its fields named per axis, one format)."""
    if "ndims" in config:
        ndims = int(config["ndims"])
        axes = {key: [int(v) for v in np.atleast_1d(config[key])]
                for key in ("stride", "dilation", "pad_begin", "pad_end")}
        # output_padding came later and is left out where neutral (every conv's)
        axes["output_padding"] = ([int(v) for v in np.atleast_1d(config["output_padding"])]
                                  if "output_padding" in config else [0] * ndims)
        formats = {key: attribute(config, f"{key}_dtype") for key in ("src", "weight", "dst", "acc")}
        op = attribute(config, "op") if "op" in config else "conv"
    else:
        ndims = 2
        axes = {"stride": [int(config["stride_height"]), int(config["stride_width"])],
                "dilation": [int(config["dilation_height"]), int(config["dilation_width"])],
                "pad_begin": [int(config["pad_top"]), int(config["pad_left"])],
                "pad_end": [int(config["pad_bottom"]), int(config["pad_right"])],
                "output_padding": [0, 0]}
        formats = dict.fromkeys(("src", "weight", "dst", "acc"), attribute(config, "dtype"))
        op = "conv"
    if op not in ("conv", "deconv"):
        raise UnsupportedProblem(f"op {op}")
    unknown = sorted(set(formats.values()) - set(FORMATS))
    if unknown:
        raise UnsupportedProblem(f"formats {unknown}")
    layout = attribute(config, "data_layout").upper()
    return dict(axes, op=op, ndims=ndims, groups=int(config["groups"]), formats=formats,
                channels_last=layout.endswith("C"))


def pad(data, begin, end):
    """Pads each spatial axis of data [N, C, spatial...] so that it covers input positions [-begin, in + end):
    zeros where a padding is positive, a crop where it is negative."""
    widths = []
    for b, e in reversed(list(zip(begin, end))):  # F.pad lists the last axis first
        widths += [max(b, 0), max(e, 0)]
    padded = F.pad(data, tuple(widths))
    window = tuple(slice(max(-b, 0), max(-b, 0) + data.shape[2 + i] + b + e)
                   for i, (b, e) in enumerate(zip(begin, end)))
    return padded[(slice(None), slice(None)) + window]


HELD_BACK = ("strided 1x1 channels-last weight gradient with fewer than 16 input channels per group: PyTorch's "
             "oneDNN writes past its workspace there (oneDNN issue 6035)")


def held_back(ndims, stride, channels_last, weight):
    """True for the weight gradient oneDNN issue 6035 writes past its workspace for: a 1x1 kernel, a stride over 1,
    channels-last memory (2-D and 3-D), fewer input channels per group than oneDNN's channel block (8 on AVX2, 16
    on AVX-512)."""
    return (channels_last and ndims >= 2 and all(size == 1 for size in weight.shape[2:])
            and any(s > 1 for s in stride) and weight.shape[1] < 16)


def run_op(problem, data, weight):
    """The op's output, through the ops a PyTorch user calls."""
    ndims, groups, stride, dilation = problem["ndims"], problem["groups"], problem["stride"], problem["dilation"]
    pad_begin, pad_end = problem["pad_begin"], problem["pad_end"]
    if problem["op"] == "deconv":
        # The padding both ends share goes to conv_transpose (it takes one, >= 0, per axis); the rest of each end is
        # cut from its output, or, negative, adds zeros there: out = (in - 1) * stride - pad_begin - pad_end +
        # dilation * (kernel - 1) + output_padding + 1.
        shared = [min(max(b, 0), max(e, 0)) for b, e in zip(pad_begin, pad_end)]
        deconv = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[ndims]
        output = deconv(data, weight, stride=tuple(stride), padding=tuple(shared),
                        output_padding=tuple(problem["output_padding"]), groups=groups, dilation=tuple(dilation))
        if shared == pad_begin == pad_end:
            return output
        return pad(output, [p - b for p, b in zip(shared, pad_begin)], [p - e for p, e in zip(shared, pad_end)])
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[ndims]
    if all(0 <= begin == end for begin, end in zip(pad_begin, pad_end)):  # the padding conv itself takes
        return conv(data, weight, stride=tuple(stride), padding=tuple(pad_begin), dilation=tuple(dilation),
                    groups=groups)
    # asymmetric padding or a crop: padded or cut first, as frameworks lower it
    return conv(pad(data, pad_begin, pad_end), weight, stride=tuple(stride), dilation=tuple(dilation), groups=groups)


def as_torch(array, format_name):
    """A NumPy array (bfloat16 as its uint16 bits: NumPy has no bfloat16) as a torch tensor in that format."""
    if format_name == "bfloat16":
        return torch.from_numpy(np.array(array).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.array(array)).to(FORMATS[format_name])


def as_numpy(tensor, format_name):
    """A result rounded once to its format, as NumPy (bfloat16 as its uint16 bits) and that format's name."""
    rounded = tensor.detach().to(FORMATS[format_name]).contiguous()
    if format_name == "bfloat16":
        return rounded.view(torch.int16).numpy().view(np.uint16)
    return rounded.numpy()


def compute(config, tensors):
    """The three results as NumPy arrays in their formats (a bfloat16 one as its uint16 bits), from a problem (a case
    file's /config, or a server frame's "problem") and its inputs by role; a result it holds back is a string saying
    why."""
    problem = read_problem(config)
    ndims, formats = problem["ndims"], problem["formats"]
    compute_dtype = torch.float64 if "float64" in formats.values() else torch.float32
    role_format = {"data": formats["src"], "weight": formats["weight"], "grad_output": formats["dst"]}
    data, weight, grad_output = (as_torch(tensors[role], role_format[role]).to(compute_dtype)
                                 for role in ("data", "weight", "grad_output"))
    memory_format = {2: torch.channels_last, 3: torch.channels_last_3d}.get(ndims)
    if problem["channels_last"] and memory_format is not None:
        data = data.contiguous(memory_format=memory_format)
        weight = weight.contiguous(memory_format=memory_format)
        grad_output = grad_output.contiguous(memory_format=memory_format)
    # ATen runs no float32 conv_transpose on oneDNN (SlowTranspose2d/3d), so only a conv's can meet issue 6035
    hold_back = problem["op"] == "conv" and held_back(ndims, problem["stride"], problem["channels_last"], weight)
    data.requires_grad_()
    weight.requires_grad_(not hold_back)
    output = run_op(problem, data, weight)
    output.backward(grad_output)
    return {"output": as_numpy(output, formats["dst"]), "grad_data": as_numpy(data.grad, formats["src"]),
            "grad_weight": HELD_BACK if hold_back else as_numpy(weight.grad, formats["weight"])}


def main(in_path, out_path):
    import h5py

    with h5py.File(in_path, "r") as f:
        config = f["config"].attrs
        tensors = {role: f["inputs"][role][...] for role in ("data", "weight", "grad_output")}
        try:
            results = compute(config, tensors)
        except UnsupportedProblem:
            sys.exit(77)
    with h5py.File(out_path, "w") as f:
        for name, result in results.items():
            if not isinstance(result, str):  # held back: no dataset, so convcheck reports it skipped
                f[name] = result


RESULT_FORMAT = {"output": "dst_dtype", "grad_data": "src_dtype", "grad_weight": "weight_dtype"}


def server(ops):
    # the server helper lives with the other outside-implementation pieces (oracles/outside/python/)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "outside" / "python"))
    from convcheck_server import InFormat, Skipped, Unsupported, serve

    def answer(problem, tensors):
        try:
            results = compute(problem, tensors)
        except UnsupportedProblem as reason:
            raise Unsupported(str(reason))
        return {name: Skipped(result) if isinstance(result, str) else InFormat(result, problem[RESULT_FORMAT[name]])
                for name, result in results.items()}

    serve(answer, name=f"torch {torch.__version__}",
          supports={"ops": ops, "ranks": [1, 2, 3],
                    "dtypes": ["float32", "float64", "bfloat16", "float16"]})


if __name__ == "__main__":
    torch.set_num_threads(1)  # convcheck runs cases in parallel already
    if sys.argv[1:2] == ["--server"] and len(sys.argv) == 2:
        server(["conv", "deconv"])
    elif sys.argv[1:3] == ["--server", "--ops"] and len(sys.argv) == 4:  # declare only these ops ("deconv")
        server(sys.argv[3].split(","))
    elif len(sys.argv) == 3:
        main(sys.argv[1], sys.argv[2])
    else:
        sys.exit("usage: torch_conv.py IN OUT | torch_conv.py --server [--ops conv,deconv]")
