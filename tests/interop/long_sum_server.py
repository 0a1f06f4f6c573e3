#!/usr/bin/python3
"""A low-precision convolution server (bfloat16 or float16 tensors, float32 sums, one rounding of each result) with a
planted accumulation change: from term THRESHOLD + 1 of an output's sum on, the float32 accumulator is rounded to the
storage format after every add, as a kernel whose fast path past THRESHOLD terms keeps a narrow accumulator would.
Forward only; the gradients are skipped. With LONG_SUM_CORRECT=1 nothing is planted, the same server is right.

    long_sum_server.py FORMAT THRESHOLD        FORMAT bfloat16 or float16

ctest bf16_long_sum: a campaign aimed at the bf16 rows (--focus, --rows) finds bfloat16 256 within 500 cases in the
default fill (issue 38); ctest focused_long_sums: --focus alone finds bfloat16 256 and float16 2048 (issue 39).
"""
import itertools
import os
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "oracles" / "outside" / "python"))
from convcheck_server import InFormat, Skipped, Unsupported, serve  # noqa: E402
from numpy_server import pad  # noqa: E402

FORMAT, THRESHOLD = sys.argv[1], int(sys.argv[2])
CORRECT = os.environ.get("LONG_SUM_CORRECT") == "1"


def widen(tensor, dtype):
    if dtype == "bfloat16":
        return (np.asarray(tensor).astype(np.uint32) << 16).view(np.float32)
    return np.asarray(tensor).astype(np.float32)


def bf16_bits(x):
    """float32 -> bfloat16 bits, rounded to nearest even."""
    bits = np.ascontiguousarray(x, np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def narrow(x):
    """float32 rounded to FORMAT and back."""
    if FORMAT == "bfloat16":
        return (bf16_bits(x).astype(np.uint32) << 16).view(np.float32)
    return np.asarray(x, np.float32).astype(np.float16).astype(np.float32)


def compute(problem, tensors):
    if problem.get("op", "conv") != "conv":
        raise Unsupported("deconv")
    if problem["src_dtype"] != FORMAT or problem["acc_dtype"] != "float32":
        raise Unsupported(f"{problem['src_dtype']} tensors summed in {problem['acc_dtype']}")
    g, stride, dilation = problem["groups"], problem["stride"], problem["dilation"]
    data, weight = widen(tensors["data"], problem["src_dtype"]), widen(tensors["weight"], problem["weight_dtype"])
    n, c = data.shape[:2]
    k = weight.shape[0]
    out = list(tensors["grad_output"].shape[2:])
    x = pad(data, problem["pad_begin"], problem["pad_end"])
    x = x.reshape(n, g, c // g, *x.shape[2:])
    w = weight.reshape(g, k // g, c // g, *weight.shape[2:])
    acc = np.zeros([n, g, k // g] + out, np.float32)
    term = 0
    for tap in itertools.product(*(range(size) for size in weight.shape[2:])):
        window = (slice(None),) * 3 + tuple(slice(t * d, t * d + s * (o - 1) + 1, s)
                                            for t, d, s, o in zip(tap, dilation, stride, out))
        patch = x[window]  # n, g, c/g, out...
        for channel in range(c // g):
            w_tap = w[(slice(None), slice(None), channel) + tap]  # g, k/g
            product = patch[:, :, channel][:, :, None] * w_tap.reshape(1, g, k // g, *[1] * len(out))
            acc = (acc + product).astype(np.float32)
            term += 1
            if term > THRESHOLD and not CORRECT:
                acc = narrow(acc)
    y = acc.reshape(n, k, *out)
    results = {"grad_data": Skipped("forward only"), "grad_weight": Skipped("forward only")}
    dst = problem["dst_dtype"]
    results["output"] = (InFormat(bf16_bits(y), "bfloat16") if dst == "bfloat16"
                         else y.astype(np.float16) if dst == "float16" else y)
    return results


if __name__ == "__main__":
    planted = f" ({FORMAT} accumulator past {THRESHOLD} terms)"
    serve(compute, name=f"{FORMAT} long sum" + (" (correct)" if CORRECT else planted),
          supports={"dtypes": ["float32", FORMAT], "ops": ["conv"], "directions": ["output"]})
