#!/usr/bin/python3
"""PyTorch under convcheck's external-process protocol (docs/external.md).

usage: torch_conv.py IN OUT

Reads the case IN with h5py, runs torch.nn.functional.conv2d on explicitly padded input (F.pad takes the four
paddings separately, so asymmetric padding needs no special case) with groups, stride and dilation, gets the
data and weight gradients from autograd with the recorded grad_output, and writes OUT. A case whose
data_layout is NHWC runs in torch.channels_last memory format, which is how PyTorch honours NHWC; results are
written back in canonical NCHW / OIHW as the protocol requires.

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


def main(in_path, out_path):
    torch.set_num_threads(1)  # convcheck runs cases in parallel already
    with h5py.File(in_path, "r") as f:
        config = f["config"].attrs
        c = {key: int(config[key]) for key in config if key not in ("data_layout", "weight_layout", "dtype")}
        channels_last = attribute(config, "data_layout").upper() == "NHWC"
        dtype = {"float32": torch.float32, "float64": torch.float64}[attribute(config, "dtype")]
        data = torch.from_numpy(np.ascontiguousarray(f["inputs/data"][...])).to(dtype)
        weight = torch.from_numpy(np.ascontiguousarray(f["inputs/weight"][...])).to(dtype)
        grad_output = torch.from_numpy(np.ascontiguousarray(f["inputs/grad_output"][...])).to(dtype)

    if channels_last:
        data = data.contiguous(memory_format=torch.channels_last)
        weight = weight.contiguous(memory_format=torch.channels_last)
        grad_output = grad_output.contiguous(memory_format=torch.channels_last)
    data.requires_grad_()
    weight.requires_grad_()

    padded = F.pad(data, (c["pad_left"], c["pad_right"], c["pad_top"], c["pad_bottom"]))
    output = F.conv2d(padded, weight, stride=(c["stride_height"], c["stride_width"]),
                      dilation=(c["dilation_height"], c["dilation_width"]), groups=c["groups"])
    output.backward(grad_output)

    with h5py.File(out_path, "w") as f:
        f["output"] = output.detach().contiguous().numpy()
        f["grad_data"] = data.grad.contiguous().numpy()
        f["grad_weight"] = weight.grad.contiguous().numpy()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: torch_conv.py IN OUT")
    main(sys.argv[1], sys.argv[2])
