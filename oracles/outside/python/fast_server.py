#!/usr/bin/python3
"""Fast convolution algorithms as convcheck servers, each declaring its class in its hello (docs/external.md, "Fast
algorithms"; docs/bounds.md), float32, 1-D to 3-D, groups, padding and crops:

    winograd  Winograd F(m,3) per axis, Lavin and Gray's points, in NumPy float32: output and grad_data, kernel 3,
              stride 1, dilation 1 (declared: "kernels": [3], "strides": [1], "dilations": [1]). Options, each a
              correct implementation of its own (docs/bounds.md, "Winograd"):
                --tile M          F(M,3), M in 2, 4, 6 (default 4; declared "winograd:M")
                --shift S         tiles start S outputs before output 0 on every axis (default 0), or `padded`:
                                  grad_data's tiles aligned to the origin of grad_output padded by 2 on each side
                --grad-data FORM  `correlation` of the padded grad_output with the flipped kernel (default), or
                                  `transposed`: the forward tiles transposed, their overlapping inputs summed
    fft       convolution by the FFT in complex64 (torch.fft), each axis zero-padded to a power of two: all three
              directions, every stride and dilation

    convcheck fuzz --external-server wino="/usr/bin/python3 oracles/outside/python/fast_server.py winograd" --focus wino
    convcheck fuzz --external-server fft="/usr/bin/python3 oracles/outside/python/fast_server.py fft"
"""
import argparse
import functools
import itertools
import math
import sys
from fractions import Fraction

import numpy as np

from convcheck_server import Skipped, Unsupported, serve

R = 3  # the kernel this Winograd takes


def lavin_gray_points(count):
    """0, 1, -1, 2, -2, 1/2, -1/2, 3, -3, ...: core/numerics/algorithm.cpp's lavin_gray_points."""
    points, magnitude = [Fraction(0)], 1
    while len(points) < count:
        point = Fraction(magnitude) if magnitude <= 2 else Fraction(1, 2) if magnitude == 3 else Fraction(magnitude - 1)
        points += [point, -point]
        magnitude += 1
    return points[:count]


def inverse(a):
    """The inverse of a square matrix of Fractions, by Gauss-Jordan elimination."""
    n = len(a)
    a = [row[:] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        pivot = next(row for row in range(col, n) if a[row][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        a[col] = [v / a[col][col] for v in a[col]]
        for row in range(n):
            if row != col and a[row][col] != 0:
                a[row] = [v - a[row][col] * w for v, w in zip(a[row], a[col])]
    return [row[n:] for row in a]


@functools.lru_cache(maxsize=None)
def transforms(m):
    """F(m,3) as core/numerics/winograd.hpp builds it: A^T = V_m^T, G = diag(1/f) V_r, B^T = diag(f) V_alpha^-T, in
    float32 (Lavin and Gray's F(4,3) exactly; their F(2,3) up to the sign of a row)."""
    alpha = m + R - 1
    p = lavin_gray_points(alpha - 1)
    evaluation = lambda k: [[q ** j for j in range(k)] for q in p] + [[Fraction(int(j == k - 1)) for j in range(k)]]
    f = [math.prod(p[i] - p[j] for j in range(alpha - 1) if j != i) for i in range(alpha - 1)] + [Fraction(1)]
    v_inverse = inverse(evaluation(alpha))
    at = [[evaluation(m)[j][i] for j in range(alpha)] for i in range(m)]
    g = [[evaluation(R)[j][t] / f[j] for t in range(R)] for j in range(alpha)]
    bt = [[f[j] * v_inverse[i][j] for i in range(alpha)] for j in range(alpha)]
    return [np.array([[float(v) for v in row] for row in x], np.float32) for x in (at, g, bt)]


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


def tiles_of(x, m, nd):
    """x [N, C, tiles*m per axis...] as [N, C, tiles..., m...]."""
    split = x.reshape(x.shape[:2] + tuple(v for size in x.shape[2:] for v in (size // m, m)))
    return split.transpose([0, 1] + [2 + 2 * a for a in range(nd)] + [3 + 2 * a for a in range(nd)])


def winograd_correlate(x, w, groups, begin, out, m, shift):
    """out[n, g*OG + o][y] = sum_{c, t} x[n, g*IG + c][y - begin + t] w[g*OG + o][c][t], by F(m,3) per axis, the
    tiles starting `shift` outputs before output 0."""
    at, g_matrix, bt = transforms(m)
    alpha, nd = m + R - 1, x.ndim - 2
    tiles = [-(-(o + s) // m) for o, s in zip(out, shift)]
    xp = placed(x, [b + s for b, s in zip(begin, shift)], [t * m + R - 1 for t in tiles])
    n, c = x.shape[:2]
    k = w.shape[0]
    d = np.lib.stride_tricks.sliding_window_view(xp, (alpha,) * nd, axis=tuple(range(2, 2 + nd)))
    d = d[(slice(None),) * 2 + (slice(None, None, m),) * nd]  # [N, C, tiles..., alpha...]
    v, u = d, w
    for a in range(nd):
        v = along(v, bt, 2 + nd + a)
        u = along(u, g_matrix, 2 + a)
    v = v.reshape(n, groups, c // groups, *v.shape[2:])
    u = u.reshape(groups, k // groups, c // groups, *u.shape[2:])
    spatial = "xyz"[:nd]
    product = np.einsum(f"ngc...{spatial},gkc{spatial}->ngk...{spatial}", v, u)
    for a in range(nd):
        product = along(product, at, 3 + nd + a)
    # [N, G, K/G, tiles..., m...] to [N, K, tiles*m...], then cut to the output
    order = [0, 1, 2] + [x for a in range(nd) for x in (3 + a, 3 + nd + a)]
    y = product.transpose(order).reshape(n, k, *[t * m for t in tiles])
    return np.ascontiguousarray(y[(slice(None),) * 2 + tuple(slice(s, s + o) for s, o in zip(shift, out))])


def winograd_transposed(grad_output, w, groups, begin, data_shape, m, shift):
    """The data gradient of the forward correlation by its tiles transposed: per tile of grad_output (starting `shift`
    outputs before 0), d += B [(G w) . (A y)] per axis with A = (A^T)^T, B = (B^T)^T, the tiles' overlapping inputs
    summed; w is the forward weight [K][C/G][taps]."""
    at, g_matrix, bt = transforms(m)
    alpha, nd = m + R - 1, grad_output.ndim - 2
    out = grad_output.shape[2:]
    tiles = [-(-(o + s) // m) for o, s in zip(out, shift)]
    n, k = grad_output.shape[:2]
    c = w.shape[1] * groups
    y = tiles_of(placed(grad_output, list(shift), [t * m for t in tiles]), m, nd)  # [N, K, tiles..., m...]
    v, u = y, w
    for a in range(nd):
        v = along(v, at.T, 2 + nd + a)
        u = along(u, g_matrix, 2 + a)
    v = v.reshape(n, groups, k // groups, *v.shape[2:])
    u = u.reshape(groups, k // groups, c // groups, *u.shape[2:])
    spatial = "xyz"[:nd]
    product = np.einsum(f"ngk...{spatial},gkc{spatial}->ngc...{spatial}", v, u)
    for a in range(nd):
        product = along(product, bt.T, 3 + nd + a)
    product = product.reshape(n, c, *product.shape[3:])  # [N, C, tiles..., alpha...]
    # Overlap-add: the tile at t covers inputs t*m + [0, alpha) of the span that starts at input -shift - begin.
    span = np.zeros((n, c) + tuple((t - 1) * m + alpha for t in tiles), np.float32)
    for position in itertools.product(range(alpha), repeat=nd):
        at_position = tuple(slice(p, p + m * t, m) for p, t in zip(position, tiles))
        span[(slice(None),) * 2 + at_position] += product[(Ellipsis,) + position]
    return unplaced(span, data_shape, [b + s for b, s in zip(begin, shift)])


def winograd(m, shift, grad_data_form, problem, tensors):
    g, begin = problem["groups"], problem["pad_begin"]
    data, weight, grad_output = (tensors[r] for r in ("data", "weight", "grad_output"))
    k, cg = weight.shape[:2]
    nd = weight.ndim - 2
    forward_shift = [0] * nd if shift == "padded" else [shift] * nd
    if grad_data_form == "transposed":
        grad_data = winograd_transposed(grad_output, weight, g, begin, data.shape, m, forward_shift)
    else:
        # The data gradient correlates grad_output with the kernel flipped and transposed per group ([C][K/G][taps]),
        # placed at kernel - 1 - pad_begin: grad_data[i] = sum_t grad_output[i + pad - t] weight[t]. Tiles aligned to
        # grad_output padded by kernel - 1 on each side start at i + pad_begin = 0 mod m.
        flipped = weight[(slice(None),) * 2 + (slice(None, None, -1),) * nd]
        transposed = flipped.reshape(g, k // g, cg, *weight.shape[2:]).swapaxes(1, 2).reshape(g * cg, k // g,
                                                                                             *weight.shape[2:])
        data_shift = [b % m for b in begin] if shift == "padded" else forward_shift
        grad_data = winograd_correlate(grad_output, transposed, g, [R - 1 - b for b in begin], data.shape[2:], m,
                                       data_shift)
    return {"output": winograd_correlate(data, weight, g, begin, grad_output.shape[2:], m, forward_shift),
            "grad_data": grad_data,
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


def winograd_options(arguments):
    parser = argparse.ArgumentParser(prog="fast_server.py winograd")
    parser.add_argument("--tile", type=int, choices=(2, 4, 6), default=4)
    parser.add_argument("--shift", default="0")
    parser.add_argument("--grad-data", choices=("correlation", "transposed"), default="correlation")
    options = parser.parse_args(arguments)
    if options.shift != "padded" and not (options.shift.isdigit() and int(options.shift) < options.tile):
        parser.error(f"--shift takes 0 to {options.tile - 1} or padded, not {options.shift}")
    return options


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "winograd":
        options = winograd_options(sys.argv[2:])
        shift = options.shift if options.shift == "padded" else int(options.shift)
        serve(lambda problem, tensors: winograd(options.tile, shift, options.grad_data, problem, tensors),
              name=f"fast_server winograd F({options.tile},3) shift {options.shift} grad_data {options.grad_data}",
              algorithm=f"winograd:{options.tile}",
              supports={"dtypes": ["float32"], "kernels": [3], "strides": [1], "dilations": [1]})
    elif mode == "fft":
        serve(fft, name="fast_server fft complex64", algorithm="fft", supports={"dtypes": ["float32"]})
    else:
        sys.exit("usage: fast_server.py winograd [--tile 2|4|6] [--shift S|padded] [--grad-data correlation|transposed]"
                 " | fft")
