#!/usr/bin/python3
# numpy_forward.py IN OUT: forward only (the gradients are reported as skipped). docs/external.md shows this file.
# With WRONG_SHAPE=1 in the environment it drops the last output column, to test how convcheck reports it.
import os
import sys, h5py, numpy as np

with h5py.File(sys.argv[1]) as f:
    c = {k: int(v) if not isinstance(v, (str, bytes)) else v for k, v in f["config"].attrs.items()}
    x, w = f["inputs/data"][...], f["inputs/weight"][...]
if c["groups"] != 1:
    sys.exit(77)                                   # unsupported: skipped, not failed
x = np.pad(x, ((0, 0), (0, 0), (c["pad_top"], c["pad_bottom"]), (c["pad_left"], c["pad_right"])))
K, _, R, S = w.shape
sh, sw, dh, dw = c["stride_height"], c["stride_width"], c["dilation_height"], c["dilation_width"]
P = (x.shape[2] - dh * (R - 1) - 1) // sh + 1
Q = (x.shape[3] - dw * (S - 1) - 1) // sw + 1
y = np.zeros((x.shape[0], K, P, Q), dtype=x.dtype)
for r in range(R):
    for s in range(S):
        patch = x[:, :, r * dh: r * dh + sh * (P - 1) + 1: sh, s * dw: s * dw + sw * (Q - 1) + 1: sw]
        y += np.einsum("nchw,kc->nkhw", patch, w[:, :, r, s])
if os.environ.get("WRONG_SHAPE"):
    y = y[..., :-1]
with h5py.File(sys.argv[2], "w") as f:
    f["output"] = y
