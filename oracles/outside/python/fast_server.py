#!/usr/bin/python3
"""Fast convolution algorithms as convcheck servers, each declaring its class in its hello (docs/external.md, "Fast
algorithms"; docs/bounds.md), float32, 1-D to 3-D, groups, padding and crops:

    winograd  Winograd F(4,3) per axis, Lavin and Gray's transforms, in NumPy float32: output and grad_data, kernel
              3, stride 1, dilation 1 (declared: "kernels": [3], "strides": [1], "dilations": [1])
    fft       convolution by the FFT in complex64 (torch.fft), each axis zero-padded to a power of two: all three
              directions, every stride and dilation

    convcheck fuzz --external-server wino="/usr/bin/python3 oracles/outside/python/fast_server.py winograd" --focus wino
    convcheck fuzz --external-server fft="/usr/bin/python3 oracles/outside/python/fast_server.py fft"
"""
import itertools
import sys

import numpy as np

from convcheck_server import Skipped, Unsupported, serve

# Lavin and Gray's F(4,3): y = A^T [(G g) . (B^T d)] on tiles of alpha = 6 inputs.
BT = np.array([[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
               [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]], np.float32)
G = np.array([[1 / 4, 0, 0], [-1 / 6, -1 / 6, -1 / 6], [-1 / 6, 1 / 6, -1 / 6],
              [1 / 24, 1 / 12, 1 / 6], [1 / 24, -1 / 12, 1 / 6], [0, 0, 1]], np.float32)
AT = np.array([[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0], [0, 1, -1, 8, -8, 1]], np.float32)
M = 4
MOST_SPECTRA = 1 << 24


def overlap(sizes, begin, length):
    """(input slices, placed slices): where input positions [0, size) meet [-begin, -begin + length) per axis, in
    each one's indexing (empty where a crop removes the whole input)."""
    inside, placed_at = [slice(None)] * 2, [slice(None)] * 2
    for size, b, n in zip(sizes, begin, length):
        lo = max(0, -b)
        hi = max(lo, min(size, n - b))
        inside.append(slice(lo, hi))
        placed_at.append(slice(lo + b, hi + b))
    return tuple(inside), tuple(placed_at)


def placed(x, begin, length):
    """x [N, C, spatial...] over input positions [-begin, -begin + length) per axis: zero outside the input (padding,
    or room for the last tile), cut where begin is negative (a crop)."""
    out = np.zeros(x.shape[:2] + tuple(length), x.dtype)
    inside, placed_at = overlap(x.shape[2:], begin, length)
    out[placed_at] = x[inside]
    return out


def unplaced(grad, shape, begin):
    """The gradient of placed(): grad over input positions [-begin, -begin + length) back on the input of `shape`;
    zero where the input was cropped away."""
    out = np.zeros(shape, grad.dtype)
    inside, placed_at = overlap(shape[2:], begin, grad.shape[2:])
    out[inside] = grad[placed_at]
    return out


def along(tensor, matrix, axis):
    """tensor with `matrix` applied along `axis` (matrix [new, old])."""
    return np.moveaxis(np.tensordot(tensor, matrix, axes=([axis], [1])), -1, axis)


def winograd_correlate(x, w, groups, begin, out):
    """out[n, g*OG + o][y] = sum_{c, t} x[n, g*IG + c][y - begin + t] w[g*OG + o][c][t], by F(4,3) per axis."""
    nd = x.ndim - 2
    tiles = [-(-o // M) for o in out]
    xp = placed(x, begin, [t * M + 2 for t in tiles])
    n, c = x.shape[:2]
    k = w.shape[0]
    d = np.lib.stride_tricks.sliding_window_view(xp, (6,) * nd, axis=tuple(range(2, 2 + nd)))
    d = d[(slice(None),) * 2 + (slice(None, None, M),) * nd]  # [N, C, tiles..., 6...]
    v, u = d, w
    for a in range(nd):
        v = along(v, BT, 2 + nd + a)
        u = along(u, G, 2 + a)
    v = v.reshape(n, groups, c // groups, *v.shape[2:])
    u = u.reshape(groups, k // groups, c // groups, *u.shape[2:])
    spatial = "xyz"[:nd]
    m = np.einsum(f"ngc...{spatial},gkc{spatial}->ngk...{spatial}", v, u)
    for a in range(nd):
        m = along(m, AT, 3 + nd + a)
    # [N, G, K/G, tiles..., 4...] to [N, K, tiles*4...], then cut to the output
    order = [0, 1, 2] + [x for a in range(nd) for x in (3 + a, 3 + nd + a)]
    y = m.transpose(order).reshape(n, k, *[t * M for t in tiles])
    return np.ascontiguousarray(y[(slice(None),) * 2 + tuple(slice(0, o) for o in out)])


def winograd(problem, tensors):
    g, begin = problem["groups"], problem["pad_begin"]
    data, weight, grad_output = (tensors[r] for r in ("data", "weight", "grad_output"))
    k, cg = weight.shape[:2]
    # The data gradient correlates grad_output with the kernel flipped and transposed per group ([C][K/G][taps]),
    # placed at kernel - 1 - pad_begin: grad_data[i] = sum_t grad_output[i + pad - t] weight[t].
    flipped = weight[(slice(None),) * 2 + (slice(None, None, -1),) * (weight.ndim - 2)]
    transposed = flipped.reshape(g, k // g, cg, *weight.shape[2:]).swapaxes(1, 2).reshape(g * cg, k // g,
                                                                                         *weight.shape[2:])
    return {"output": winograd_correlate(data, weight, g, begin, grad_output.shape[2:]),
            "grad_data": winograd_correlate(grad_output, transposed, g, [2 - b for b in begin], data.shape[2:]),
            "grad_weight": Skipped("Winograd here computes the output and the data gradient only")}


def fft(problem, tensors):
    import torch  # only this mode pays for it

    torch.set_num_threads(1)  # one server per convcheck worker, one worker per core

    g, stride, dilation = problem["groups"], problem["stride"], problem["dilation"]
    begin, end = problem["pad_begin"], problem["pad_end"]
    data, weight, grad_output = (torch.from_numpy(np.array(tensors[r])) for r in ("data", "weight", "grad_output"))
    nd = data.dim() - 2
    n, c, k = data.shape[0], data.shape[1], weight.shape[0]
    padded = [i + b + e for i, b, e in zip(data.shape[2:], begin, end)]
    span = [d * (t - 1) + 1 for d, t in zip(dilation, weight.shape[2:])]  # the dilated kernel
    valid = [p - s + 1 for p, s in zip(padded, span)]  # positions of the unstrided correlation
    length = [1 << (p + s - 1 - 1).bit_length() for p, s in zip(padded, span)]  # linear, not circular
    spectra = (n * c + k * (c // g) + n * k) * int(np.prod(length))
    if spectra > MOST_SPECTRA:  # as convcheck's own `fft`: a case of gigabytes of spectra would outlast the timeout
        raise Unsupported(f"{spectra} complex values of spectra, over {MOST_SPECTRA}")
    dims = tuple(range(-nd, 0))  # the spatial axes, last whatever leads them
    spectrum = lambda t: torch.fft.rfftn(t, s=length, dim=dims)
    back = lambda t: torch.fft.irfftn(t, s=length, dim=dims)

    xp = torch.from_numpy(placed(data.numpy(), begin, padded))
    wd = torch.zeros(k, c // g, *span)
    wd[(slice(None),) * 2 + tuple(slice(None, None, d) for d in dilation)] = weight
    dz = torch.zeros(n, k, *valid)  # grad_output on the unstrided positions
    dz[(slice(None),) * 2 + tuple(slice(None, o * s, s) for o, s in zip(grad_output.shape[2:], stride))] = grad_output
    X = spectrum(xp)
    X = X.reshape(n, g, c // g, *X.shape[2:])
    W = spectrum(wd.flip(dims)).reshape(g, k // g, c // g, *X.shape[3:])
    Wd = spectrum(wd).reshape(g, k // g, c // g, *X.shape[3:])
    DZ = spectrum(dz).reshape(n, g, k // g, *X.shape[3:])
    DZf = spectrum(dz.flip(dims)).reshape(n, g, k // g, *X.shape[3:])
    # output: z = x correlated with wd = (x * flip(wd))[j + span - 1]; grad_data: the full convolution dz * wd;
    # grad_weight: q = x correlated with dz = (x * flip(dz))[u + valid - 1], taken every `dilation`.
    z = back(torch.einsum("ngc...,gkc...->ngk...", X, W)).reshape(n, k, *length)
    dx = back(torch.einsum("ngk...,gkc...->ngc...", DZ, Wd)).reshape(n, c, *length)
    q = back(torch.einsum("ngc...,ngk...->gkc...", X, DZf)).reshape(k, c // g, *length)
    output = z[(slice(None),) * 2 + tuple(slice(s - 1, s - 1 + v, st) for s, v, st in zip(span, valid, stride))]
    grad_data = unplaced(dx[(slice(None),) * 2 + tuple(slice(0, p) for p in padded)].numpy(), data.shape, begin)
    grad_weight = q[(slice(None),) * 2 + tuple(slice(v - 1, v - 1 + s, d) for v, s, d in zip(valid, span, dilation))]
    return {"output": np.ascontiguousarray(output.numpy()), "grad_data": grad_data,
            "grad_weight": np.ascontiguousarray(grad_weight.numpy())}


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "winograd":
        serve(winograd, name="fast_server winograd F(4,3)", algorithm="winograd:4",
              supports={"dtypes": ["float32"], "kernels": [3], "strides": [1], "dilations": [1]})
    elif mode == "fft":
        serve(fft, name="fast_server fft complex64", algorithm="fft", supports={"dtypes": ["float32"]})
    else:
        sys.exit("usage: fast_server.py winograd|fft")
