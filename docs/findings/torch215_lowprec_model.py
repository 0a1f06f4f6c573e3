# Companion of torch215_lowprec.py: checks that a model of ATen's own CPU convolutions, as read in their source,
# predicts their bf16 / f16 results bit for bit, on random integer problems (every product and float32 sum exact, so
# the only roundings are the ones the model says). The model, per sample n:
#   conv grad_data, deconv output (col2im / unfolded2d_acc / col2vol): column[c, tap, pos] = round(float32 sum over
#     channels), then the result element is 0 + column + column + ... over the taps that reach it, each addition
#     rounded to the format, taps in kernel-offset order (output-position order for 2-D channels-last);
#   conv and deconv grad_weight (one GEMM per sample, beta = 1): g = round(g + float32 sum over that sample's positions).
# Also checks the condition a hold-back would use: with no two taps reaching one element on any axis (no d_out in
# [1, out - 1] and d_k in [1, kernel - 1] with d_out * stride == d_k * dilation) the data gradient rounds once, and
# with batch 1 the weight gradient rounds once.
#   python3 torch215_lowprec_model.py [seed] [cases]      (prints one line per bucket; exit 1 if the model misses)
#   ORDER=flip python3 torch215_lowprec_model.py          (the other accumulation order: the model then misses, so
#                                                          the comparison can tell the orders apart)
import itertools
import os
import random
import sys

import torch

torch.set_num_threads(1)
FLIP = os.environ.get("ORDER") == "flip"


def rnd(value, fmt):
    return torch.tensor(value, dtype=torch.float32).to(fmt).item()


def taps(insz, k, s, d, p, outsz):
    """(kernel offset, conv output position, conv input position) of every tap that lands inside the input."""
    for ko in itertools.product(*[range(x) for x in k]):
        for op in itertools.product(*[range(x) for x in outsz]):
            ip = tuple(op[i] * s[i] + ko[i] * d[i] - p[i] for i in range(len(insz)))
            if all(0 <= ip[i] < insz[i] for i in range(len(insz))):
                yield ko, op, ip


def scatter(fmt, planes, column, geometry, by_position):
    """col2im: columns (each already rounded) added into the input-shaped result in the format."""
    items = sorted(taps(*geometry), key=(lambda t: (t[1], t[0])) if by_position else (lambda t: (t[0], t[1])))
    out = {}
    for c in range(planes):
        for ko, op, ip in items:
            out[(c,) + ip] = rnd(out.get((c,) + ip, 0.0) + column(c, ko, op), fmt)
    return out


def per_sample(fmt, x, go, geometry, O, C, k):
    """Weight gradient: one float32 dot per sample, added into the format-typed gradient (beta = 1)."""
    res = {}
    tap_list = list(taps(*geometry))
    for o, c, ko in itertools.product(range(O), range(C), itertools.product(*[range(v) for v in k])):
        acc = 0.0
        for n in range(x.shape[0]):
            acc = rnd(acc + sum(x[(n, c) + ip].item() * go[(n, o) + op].item() for kk, op, ip in tap_list if kk == ko), fmt)
        res[(o, c) + ko] = acc
    return res


def overlaps(K, s, d, out):
    return any(do * s == dk * d for do in range(1, out) for dk in range(1, K))


def check(fmt, nd, N, C, O, insz, k, s, d, p, cl, seed):
    outsz = [(insz[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(nd)]
    if min(outsz) < 1:
        return {}
    g = torch.Generator().manual_seed(seed)
    lim = 60 if fmt == torch.bfloat16 else 200
    x = torch.randint(-lim, lim + 1, [N, C] + insz, generator=g).to(fmt)
    w = torch.randint(-lim, lim + 1, [O, C] + k, generator=g).to(fmt)
    go = torch.randint(-lim, lim + 1, [N, O] + outsz, generator=g).to(fmt)
    if cl and nd > 1:
        memory_format = torch.channels_last if nd == 2 else torch.channels_last_3d
        x, w, go = (t.contiguous(memory_format=memory_format) for t in (x, w, go))
    xd, wd, god = x.double(), w.double(), go.double()
    geometry = (insz, k, s, d, p, outsz)
    by_position = (cl and nd == 2) != FLIP  # Slow3d and SlowTranspose3d have no channels-last path
    results = {}

    def column(n):
        return lambda c, ko, op: rnd(sum(wd[(o, c) + ko].item() * god[(n, o) + op].item() for o in range(O)), fmt)

    def compare(name, got, want, once_expected):
        ok = all(got[key].item() == value for key, value in want.items())
        results[name] = ok
        if once_expected is not None:  # the hold-back condition says one rounding: is it so?
            exact = once_expected
            results[name + (" (condition false: rounds once?)")] = torch.equal(got.double(), exact.float().to(fmt).double())

    ndim = [0] * nd
    gi, gw, _ = torch.ops.aten.convolution_backward(go, x, w, None, s, p, d, False, ndim, 1, [True, True, False])
    ei, ew, _ = torch.ops.aten.convolution_backward(god, xd, wd, None, s, p, d, False, ndim, 1, [True, True, False])
    want = {}
    for n in range(N):
        want.update({(n,) + key: v for key, v in scatter(fmt, C, column(n), geometry, by_position).items()})
    overlap = any(overlaps(k[i], s[i], d[i], outsz[i]) for i in range(nd))
    compare("conv grad_data", gi, want, None if overlap else ei)
    compare("conv grad_weight", gw, per_sample(fmt, xd, god, geometry, O, C, k), None if N > 1 else ew)
    opad = [insz[i] - ((outsz[i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + 1) for i in range(nd)]
    if all(0 <= opad[i] < max(s[i], d[i]) for i in range(nd)):  # the deconv that transposes this conv
        y = torch.ops.aten.convolution(go, w, None, s, p, d, True, opad, 1)
        ey = torch.ops.aten.convolution(god, wd, None, s, p, d, True, opad, 1)
        compare("deconv output", y, want, None if overlap else ey)
        _, gwt, _ = torch.ops.aten.convolution_backward(x, go, w, None, s, p, d, True, opad, 1, [False, True, False])
        _, ewt, _ = torch.ops.aten.convolution_backward(xd, god, wd, None, s, p, d, True, opad, 1, [False, True, False])
        compare("deconv grad_weight", gwt, per_sample(fmt, xd, god, geometry, O, C, k), None if N > 1 else ewt)
    return results


random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
tally = {}
for case in range(int(sys.argv[2]) if len(sys.argv) > 2 else 200):
    fmt = random.choice([torch.bfloat16, torch.float16])
    nd = random.choice([1, 2, 3])
    insz = [random.randint(2, 5) for _ in range(nd)]
    k = [random.randint(1, 3) for _ in range(nd)]
    s = [random.randint(1, 2) for _ in range(nd)]
    d = [random.randint(1, 2) for _ in range(nd)]
    p = [random.randint(0, 1) for _ in range(nd)]
    cl = random.random() < 0.4
    N, C, O = random.randint(1, 3), random.randint(1, 3), random.randint(1, 3)
    for name, ok in check(fmt, nd, N, C, O, insz, k, s, d, p, cl, case).items():
        bucket = (str(fmt)[6:], name)
        tally.setdefault(bucket, [0, 0])[0 if ok else 1] += 1
print(f"torch {torch.__version__}, accumulation order {'flipped' if FLIP else 'as read in the source'}")
for bucket in sorted(tally):
    print(f"  {bucket[0]:8} {bucket[1]:52} {tally[bucket][0]:4} as predicted, {tally[bucket][1]:3} not")
sys.exit(1 if any(v[1] for v in tally.values()) else 0)
