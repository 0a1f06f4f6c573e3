#!/usr/bin/env python3
"""Problems whose padding is exactly TensorFlow's SAME, one descriptor a line, for `convcheck check --batch`.

usage: same_padding_batch.py COUNT SEED [RANKS]    e.g. same_padding_batch.py 3000 1 1,2 > same.txt

A converted model's convolutions are mostly SAME, but convcheck draws its padding at random and lands on TFLite's
exact SAME padding (out = ceil(in / stride), the odd padding row at the end) in about 1 case in 100, so the SAME
path of each kernel (the only one that is not a PAD before a VALID conv, docs/libraries/litert.md) is seldom run by
`fuzz`. These problems all take it: convs of every group kind (plain, grouped, depthwise with a multiplier), any
stride per axis (asymmetric too), dilation; deconvs as TensorFlow's conv2d_transpose with SAME writes them (output
in * stride: its padding the SAME padding of the conv it is the gradient of, or output_padding stride - kernel where
the kernel is shorter than the stride), no dilation or groups (TRANSPOSE_CONV has neither).
"""
import random
import re
import sys

AXES = {1: ["w"], 2: ["h", "w"], 3: ["d", "h", "w"]}
PADS = {"d": ("pfr", "pbk"), "h": ("pt", "pb"), "w": ("pl", "pr")}


def conv(rng, ndims):
    kind = rng.choice(["plain", "plain", "depthwise", "grouped"]) if ndims < 3 else "plain"
    if kind == "depthwise":
        ic = rng.randint(2, 12)
        groups, oc = ic, ic * rng.choice([1, 1, 2, 3])
    elif kind == "grouped":
        groups = rng.randint(2, 4)
        ic, oc = groups * rng.randint(1, 3), groups * rng.randint(1, 3)
    else:
        groups, ic, oc = 1, rng.randint(1, 8), rng.randint(1, 8)
    text = (f"g{groups}" if groups > 1 else "") + f"mb{rng.randint(1, 3)}ic{ic}"
    axes = ""
    for axis in AXES[ndims]:
        size, kernel, stride, dilation = rng.randint(1, 12), rng.randint(1, 5), rng.randint(1, 4), rng.choice([1, 1, 2])
        while (kernel - 1) * dilation + 1 > size + 8:
            kernel = max(1, kernel - 1)
        out = (size + stride - 1) // stride
        total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
        before, after = PADS[axis]
        axes += (f"i{axis}{size}k{axis}{kernel}s{axis}{stride}" + (f"dl{axis}{dilation}" if dilation > 1 else "") +
                 f"{before}{total // 2}{after}{total - total // 2}")
    return text + reorder(axes, oc)


def deconv(rng, ndims):
    text = f"mb{rng.randint(1, 3)}ic{rng.randint(1, 8)}"
    axes, output_padding = "", ""
    for axis in AXES[ndims]:
        size, kernel, stride = rng.randint(1, 10), rng.randint(1, 5), rng.randint(1, 4)
        total = max(kernel - stride, 0)
        before, after = PADS[axis]
        axes += f"i{axis}{size}k{axis}{kernel}s{axis}{stride}{before}{total // 2}{after}{total - total // 2}"
        if kernel < stride:
            output_padding += f"op{axis}{stride - kernel}"
    return text + reorder(axes, rng.randint(1, 8)) + output_padding + "_deconv"


def reorder(axes, oc):
    """The per-axis keys in the descriptor's order (sizes, oc, kernels, strides, dilations, pads); its parser takes
    keys in any order, but a printed descriptor reads better so."""
    keys = re.findall(r"([a-z]+)(-?\d+)", axes)
    order = ["id", "ih", "iw", "oc", "kd", "kh", "kw", "sd", "sh", "sw", "dld", "dlh", "dlw",
             "pfr", "pbk", "pt", "pb", "pl", "pr"]
    values = dict(keys, oc=str(oc))
    neutral = {key: "1" for key in order if key.startswith(("s", "dl"))} | {key: "0" for key in order if key[0] == "p"}
    return "".join(f"{key}{values[key]}" for key in order if key in values and values[key] != neutral.get(key))


def main(count, seed, ranks):
    rng = random.Random(seed)
    for _ in range(count):
        ndims = rng.choice(ranks)
        print(deconv(rng, ndims) if rng.random() < 0.3 else conv(rng, ndims))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: same_padding_batch.py COUNT SEED [RANKS]")
    main(int(sys.argv[1]), int(sys.argv[2]), [int(r) for r in (sys.argv[3:] or ["1,2"])[0].split(",")])
