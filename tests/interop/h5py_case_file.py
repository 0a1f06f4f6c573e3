#!/usr/bin/python3
"""h5py reads what convcheck writes, and convcheck replays what h5py writes (docs/case-format.md).

usage: h5py_case_file.py CONVCHECK WORKDIR
Exits 0 when every check holds; prints the failing check otherwise.
"""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

convcheck, workdir = sys.argv[1], sys.argv[2]
os.makedirs(workdir, exist_ok=True)


def run(*args):
    return subprocess.run([convcheck, *args], capture_output=True, text=True)


def conv2d_reference(x, w, stride, pad, dilation, groups):
    """Straight from the definition, in float64: the same formula the docs give."""
    n, c, h, wd = x.shape
    k, cg, r, s = w.shape
    pt, pb, pl, pr = pad
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    p = (h + pt + pb - dilation[0] * (r - 1) - 1) // stride[0] + 1
    q = (wd + pl + pr - dilation[1] * (s - 1) - 1) // stride[1] + 1
    out = np.zeros((n, k, p, q))
    kg = k // groups
    for ko in range(k):
        g = ko // kg
        for i in range(p):
            for j in range(q):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * stride[0]:i * stride[0] + dilation[0] * (r - 1) + 1:dilation[0],
                           j * stride[1]:j * stride[1] + dilation[1] * (s - 1) + 1:dilation[1]]
                out[:, ko, i, j] = np.einsum("ncrs,crs->n", patch, w[ko])
    return out


# 1. A case written by convcheck reads with plain h5py. A fixed 2-D problem with positive paddings (pad_order
#    misreads pad_bottom as pad_left) so the shrunk finding is one v1 can hold (docs/case-format.md); a fuzzed
#    one may shrink to a crop, which only v2 holds.
findings = os.path.join(workdir, "findings")
shutil.rmtree(findings, ignore_errors=True)
found = run("check", "--strategies", "naive", "--inject", "pad_order", "--corpus", findings,
            "mb2ic3ih6iw7oc4kh3kw2pt1pb2pl0pr1")
assert found.returncode == 1, found.stdout + found.stderr
written = sorted(os.listdir(findings))
assert written, "no case written"
with h5py.File(os.path.join(findings, written[0]), "r") as f:
    assert f.attrs["format"] == "convcheck-case", f.attrs["format"]
    assert int(f.attrs["format_version"]) == 1
    config = {key: f["config"].attrs[key] for key in f["config"].attrs}
    assert config["dtype"] in ("float32", "float64")
    n, c, h, w = f["inputs/data"].shape
    assert (n, c, h, w) == (config["batch"], config["in_channels"], config["in_height"], config["in_width"])
    assert "pad_order" in f["results"], list(f["results"])
    assert f["finding"].attrs["strategy"] == "pad_order"

# 2. A case written by h5py alone (fixed-length strings, 32-bit integers) replays in convcheck, and a correct
#    recorded result agrees while a wrong one is caught.
rng = np.random.default_rng(0)
attrs = dict(batch=2, groups=2, in_channels=4, out_channels=6, in_height=5, in_width=7, kernel_height=3,
             kernel_width=2, stride_height=2, stride_width=1, dilation_height=1, dilation_width=2, pad_top=1,
             pad_bottom=0, pad_left=0, pad_right=2)
x = rng.standard_normal((2, 4, 5, 7)).astype(np.float32)
wt = rng.standard_normal((6, 2, 3, 2)).astype(np.float32)
ref = conv2d_reference(x.astype(np.float64), wt.astype(np.float64), (2, 1), (1, 0, 0, 2), (1, 2), 2)
gy = rng.standard_normal(ref.shape).astype(np.float32)


def write_case(path, output):
    with h5py.File(path, "w") as f:
        f.attrs["format"] = np.bytes_("convcheck-case")
        f.attrs["format_version"] = np.int32(1)
        g = f.create_group("config")
        for key, value in attrs.items():
            g.attrs[key] = np.int32(value)
        g.attrs["data_layout"] = np.bytes_("NCHW")
        g.attrs["weight_layout"] = np.bytes_("OIHW")
        g.attrs["dtype"] = np.bytes_("float32")
        f["inputs/data"] = x
        f["inputs/weight"] = wt
        f["inputs/grad_output"] = gy
        f["results/numpy/output"] = output.astype(np.float32)


good = os.path.join(workdir, "numpy_good.h5")
write_case(good, ref)
replay = run("repro", good)
assert replay.returncode == 0, replay.stdout + replay.stderr
assert "recorded:numpy" in replay.stdout, replay.stdout

bad = os.path.join(workdir, "numpy_bad.h5")
wrong = ref.copy()
wrong[1, 3, 0, 2] += 0.5
write_case(bad, wrong)
replay = run("repro", bad)
assert replay.returncode == 1, replay.stdout + replay.stderr
assert "[1, 3, 0, 2]" in replay.stdout, replay.stdout

# 3. A malformed h5py file is rejected with exit 2 and one line naming the file.
broken = os.path.join(workdir, "broken.h5")
with h5py.File(broken, "w") as f:
    f.attrs["format"] = "convcheck-case"
    f.attrs["format_version"] = 1
replay = run("repro", broken)
assert replay.returncode == 2, replay.stdout + replay.stderr
assert replay.stderr.strip() == f"convcheck: error: case file {broken}: group /config is missing", replay.stderr


# 4. Format v2: a 3-D case with a crop, written by h5py alone, replays; a wrong recorded result is caught; and a
#    3-D case convcheck writes is v2, its per-axis fields arrays of ndims values, outermost axis first.
def conv_nd_reference(x, w, stride, pad_begin, pad_end, dilation, groups):
    """The definition in float64 for any rank; negative padding crops."""
    spatial = x.ndim - 2
    widths = [(0, 0), (0, 0)] + [(max(b, 0), max(e, 0)) for b, e in zip(pad_begin, pad_end)]
    window = tuple(slice(max(-b, 0), max(-b, 0) + x.shape[2 + i] + b + e)
                   for i, (b, e) in enumerate(zip(pad_begin, pad_end)))
    xp = np.pad(x, widths)[(slice(None), slice(None)) + window]
    k, cg = w.shape[:2]
    out_shape = [(xp.shape[2 + i] - dilation[i] * (w.shape[2 + i] - 1) - 1) // stride[i] + 1 for i in range(spatial)]
    out = np.zeros([x.shape[0], k] + out_shape)
    kg = k // groups
    for ko in range(k):
        g = ko // kg
        for position in np.ndindex(*out_shape):
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + tuple(
                slice(position[i] * stride[i], position[i] * stride[i] + dilation[i] * (w.shape[2 + i] - 1) + 1,
                      dilation[i]) for i in range(spatial))]
            out[(slice(None), ko) + position] = np.tensordot(patch, w[ko], axes=spatial + 1)
    return out


v2 = dict(stride=[2, 1, 1], dilation=[1, 2, 1], pad_begin=[1, -1, 0], pad_end=[0, 1, -1])
x3 = rng.standard_normal((1, 4, 4, 5, 6)).astype(np.float32)
w3 = rng.standard_normal((2, 2, 2, 2, 3)).astype(np.float32)
ref3 = conv_nd_reference(x3.astype(np.float64), w3.astype(np.float64), v2["stride"], v2["pad_begin"],
                         v2["pad_end"], v2["dilation"], 2)
gy3 = rng.standard_normal(ref3.shape).astype(np.float32)


def write_v2_case(path, output):
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "convcheck-case"
        f.attrs["format_version"] = 2
        g = f.create_group("config")
        for key, value in dict(ndims=3, batch=1, groups=2, in_channels=4, out_channels=2).items():
            g.attrs[key] = value
        g.attrs["in_size"] = [4, 5, 6]
        g.attrs["kernel_size"] = [2, 2, 3]
        for key, value in v2.items():
            g.attrs[key] = value
        for key, value in dict(op="conv", data_layout="NDHWC", weight_layout="DHWIO", src_dtype="float32",
                               weight_dtype="float32", dst_dtype="float32", acc_dtype="float32").items():
            g.attrs[key] = value
        f["inputs/data"] = x3
        f["inputs/weight"] = w3
        f["inputs/grad_output"] = gy3
        f["results/numpy/output"] = output.astype(np.float32)


good3 = os.path.join(workdir, "numpy_good_v2.h5")
write_v2_case(good3, ref3)
replay = run("repro", good3)
assert replay.returncode == 0, replay.stdout + replay.stderr
assert "recorded:numpy" in replay.stdout, replay.stdout
bad3 = os.path.join(workdir, "numpy_bad_v2.h5")
wrong3 = ref3.copy()
wrong3[0, 1, 0, 2, 1] -= 0.25
write_v2_case(bad3, wrong3)
replay = run("repro", bad3)
assert replay.returncode == 1, replay.stdout + replay.stderr
assert "[0, 1, 0, 2, 1]" in replay.stdout, replay.stdout

findings3 = os.path.join(workdir, "findings_v2")
fuzz = run("fuzz", "--cases", "300", "--strategies", "naive", "--inject", "depth_stride_from_height", "--corpus",
           findings3)
assert fuzz.returncode == 1, fuzz.stdout + fuzz.stderr
with h5py.File(os.path.join(findings3, sorted(os.listdir(findings3))[0]), "r") as f:
    assert int(f.attrs["format_version"]) == 2, f.attrs["format_version"]
    config = f["config"].attrs
    assert int(config["ndims"]) == 3 and config["op"] == "conv", dict(config)
    assert all(len(config[key]) == 3 for key in ("in_size", "kernel_size", "stride", "dilation", "pad_begin",
                                                 "pad_end")), dict(config)
    assert f["inputs/data"].shape == (int(config["batch"]), int(config["in_channels"]), *config["in_size"])

# Low precision (docs/case-format.md): float16 tensors read as numpy float16, bfloat16 tensors as float32 values whose
# low 16 bits are zero; the format is the config's *_dtype attribute.
for bug, storage, numpy_type in (("f16_products", "float16", np.float16), ("bf16_accumulate", "bfloat16", np.float32)):
    findings_low = os.path.join(workdir, "findings_" + bug)
    shutil.rmtree(findings_low, ignore_errors=True)
    fuzz = run("fuzz", "--cases", "300", "--strategies", "naive", "--inject", bug, "--corpus", findings_low)
    assert fuzz.returncode == 1, fuzz.stdout + fuzz.stderr
    with h5py.File(os.path.join(findings_low, sorted(os.listdir(findings_low))[0]), "r") as f:
        config = f["config"].attrs
        assert config["src_dtype"] == storage and config["acc_dtype"] == "float32", dict(config)
        for role in ("data", "weight"):  # grad_output is in dst_dtype, float32 in the *_to_f32 rows
            values = f["inputs/" + role][...]
            assert values.dtype == numpy_type, (bug, role, values.dtype)
            if storage == "bfloat16":
                assert not np.any(values.view(np.uint32) & 0xFFFF), (role, values)

print("h5py interop: 5 checks passed, 0 failed")
