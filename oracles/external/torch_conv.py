#!/usr/bin/python3
"""PyTorch under convcheck's external protocols (docs/external.md).

usage: torch_conv.py IN OUT     per case (--external): read the case file IN, write the results to OUT
       torch_conv.py --server   as a server (--external-server): import torch once, answer cases over stdin/stdout

Reads the case IN (format v1 or v2) with h5py, runs torch.nn.functional.conv1d, conv2d or conv3d on explicitly
padded input (F.pad takes each side's padding separately, so asymmetric padding needs no special case; negative
padding is a crop, done by slicing first) with groups, stride and dilation, gets the data and weight gradients
from autograd with the recorded grad_output, and writes OUT. A case whose data layout is channels-last (NHWC,
NDHWC) runs in torch.channels_last / channels_last_3d memory format, which is how PyTorch honours it; results are
written back in canonical layouts as the protocol requires. The weight gradient of a strided 1x1 channels-last
convolution with fewer than 16 input channels per group is held back (not computed, reported as skipped with the
reason): PyTorch's oneDNN writes past its workspace there (oneDNN issue 6035), which corrupts the heap of a server
that goes on to later cases (docs/external.md). Problems with mixed formats exit 77 (unsupported); the
server declares float32 and float64 only, so convcheck does not send them.

Run it with Debian's /usr/bin/python3, where python3-torch and python3-h5py are installed.
"""
import sys

import numpy as np
import torch
import torch.nn.functional as F


class UnsupportedProblem(Exception):
    """A problem this adapter does not run: exit 77 per case, an "unsupported" answer as a server."""


def attribute(attrs, key):
    value = attrs[key]
    return value.decode() if isinstance(value, bytes) else value


def read_problem(config):
    """The problem as (ndims, groups, stride, dilation, pad_begin, pad_end, dtype name, channels_last), lists
    outermost axis first, from a v2 /config or a v1 one (2-D, its fields named per axis)."""
    if "ndims" in config:
        ndims = int(config["ndims"])
        axes = {key: [int(v) for v in np.atleast_1d(config[key])]
                for key in ("stride", "dilation", "pad_begin", "pad_end")}
        dtypes = {attribute(config, key) for key in ("src_dtype", "weight_dtype", "dst_dtype", "acc_dtype")}
        if len(dtypes) != 1:
            raise UnsupportedProblem(f"mixed formats {sorted(dtypes)}")
        dtype = dtypes.pop()
    else:
        ndims = 2
        axes = {"stride": [int(config["stride_height"]), int(config["stride_width"])],
                "dilation": [int(config["dilation_height"]), int(config["dilation_width"])],
                "pad_begin": [int(config["pad_top"]), int(config["pad_left"])],
                "pad_end": [int(config["pad_bottom"]), int(config["pad_right"])]}
        dtype = attribute(config, "dtype")
    layout = attribute(config, "data_layout").upper()
    return (ndims, int(config["groups"]), axes["stride"], axes["dilation"], axes["pad_begin"], axes["pad_end"],
            dtype, layout.endswith("C"))


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


def compute(config, tensors):
    """The three results as NumPy arrays, from a problem (a case file's /config, or a server frame's "problem")
    and its inputs by role; a result it holds back is a string saying why."""
    ndims, groups, stride, dilation, pad_begin, pad_end, dtype_name, channels_last = read_problem(config)
    dtype = {"float32": torch.float32, "float64": torch.float64}[dtype_name]
    data, weight, grad_output = (torch.from_numpy(np.array(tensors[role])).to(dtype)
                                 for role in ("data", "weight", "grad_output"))
    memory_format = {2: torch.channels_last, 3: torch.channels_last_3d}.get(ndims)
    if channels_last and memory_format is not None:
        data = data.contiguous(memory_format=memory_format)
        weight = weight.contiguous(memory_format=memory_format)
        grad_output = grad_output.contiguous(memory_format=memory_format)
    hold_back = held_back(ndims, stride, channels_last, weight)
    data.requires_grad_()
    weight.requires_grad_(not hold_back)

    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[ndims]
    if all(0 <= begin == end for begin, end in zip(pad_begin, pad_end)):  # the padding conv itself takes
        output = conv(data, weight, stride=tuple(stride), padding=tuple(pad_begin), dilation=tuple(dilation),
                      groups=groups)
    else:  # asymmetric padding or a crop: padded or cut first, as frameworks lower it
        output = conv(pad(data, pad_begin, pad_end), weight, stride=tuple(stride), dilation=tuple(dilation),
                      groups=groups)
    output.backward(grad_output)
    return {"output": output.detach().contiguous().numpy(), "grad_data": data.grad.contiguous().numpy(),
            "grad_weight": HELD_BACK if hold_back else weight.grad.contiguous().numpy()}


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


def server():
    from convcheck_server import Skipped, Unsupported, serve

    def answer(problem, tensors):
        try:
            results = compute(problem, tensors)
        except UnsupportedProblem as reason:
            raise Unsupported(str(reason))
        return {name: Skipped(result) if isinstance(result, str) else result for name, result in results.items()}

    serve(answer, name=f"torch {torch.__version__}",
          supports={"ops": ["conv"], "ranks": [1, 2, 3], "dtypes": ["float32", "float64"]})


if __name__ == "__main__":
    torch.set_num_threads(1)  # convcheck runs cases in parallel already
    if sys.argv[1:] == ["--server"]:
        server()
    elif len(sys.argv) == 3:
        main(sys.argv[1], sys.argv[2])
    else:
        sys.exit("usage: torch_conv.py IN OUT | torch_conv.py --server")
