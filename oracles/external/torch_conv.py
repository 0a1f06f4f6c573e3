#!/usr/bin/python3
"""PyTorch under convcheck's external-process protocol (docs/external.md).

usage: torch_conv.py IN OUT

Reads the case IN (format v1 or v2) with h5py, runs torch.nn.functional.conv1d, conv2d or conv3d on explicitly
padded input (F.pad takes each side's padding separately, so asymmetric padding needs no special case; negative
padding is a crop, done by slicing first) with groups, stride and dilation, gets the data and weight gradients
from autograd with the recorded grad_output, and writes OUT. A case whose data layout is channels-last (NHWC,
NDHWC) runs in torch.channels_last / channels_last_3d memory format, which is how PyTorch honours it; results are
written back in canonical layouts as the protocol requires. Problems with mixed formats exit 77 (unsupported).

Run it with Debian's /usr/bin/python3, where python3-torch and python3-h5py are installed.
"""
import sys

import h5py
import numpy as np
import torch
import torch.nn.functional as F


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
            sys.exit(77)
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


def main(in_path, out_path):
    torch.set_num_threads(1)  # convcheck runs cases in parallel already
    with h5py.File(in_path, "r") as f:
        ndims, groups, stride, dilation, pad_begin, pad_end, dtype_name, channels_last = read_problem(
            f["config"].attrs)
        dtype = {"float32": torch.float32, "float64": torch.float64}[dtype_name]
        data = torch.from_numpy(np.ascontiguousarray(f["inputs/data"][...])).to(dtype)
        weight = torch.from_numpy(np.ascontiguousarray(f["inputs/weight"][...])).to(dtype)
        grad_output = torch.from_numpy(np.ascontiguousarray(f["inputs/grad_output"][...])).to(dtype)

    memory_format = {2: torch.channels_last, 3: torch.channels_last_3d}.get(ndims)
    if channels_last and memory_format is not None:
        data = data.contiguous(memory_format=memory_format)
        weight = weight.contiguous(memory_format=memory_format)
        grad_output = grad_output.contiguous(memory_format=memory_format)
    data.requires_grad_()
    weight.requires_grad_()

    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[ndims]
    output = conv(pad(data, pad_begin, pad_end), weight, stride=tuple(stride), dilation=tuple(dilation),
                  groups=groups)
    output.backward(grad_output)

    with h5py.File(out_path, "w") as f:
        f["output"] = output.detach().contiguous().numpy()
        f["grad_data"] = data.grad.contiguous().numpy()
        f["grad_weight"] = weight.grad.contiguous().numpy()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: torch_conv.py IN OUT")
    main(sys.argv[1], sys.argv[2])
