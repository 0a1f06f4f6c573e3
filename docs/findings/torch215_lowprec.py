# PyTorch 2.15 (and 1.13 where it has the kernel): ATen's own CPU convolutions (Slow2d, Slow3d, SlowDilated2d/3d,
# SlowTranspose2d/3d; what ATen runs for bf16 and f16 where oneDNN has no kernel for them, e.g. any AVX2-only host)
# round partial sums to bfloat16 / float16 before the end, in three places:
#   - the data gradient of a conv and the output of a transposed conv: a GEMM writes one column per kernel offset in
#     the tensor's format (one rounding each), then col2im / unfolded2d_acc / col2vol adds the columns into the result
#     in that format (one more rounding per overlapping kernel offset);
#   - the weight gradient of a conv and of a transposed conv: one GEMM per batch element, beta = 1, into the weight
#     gradient in the tensor's format (one rounding per batch element).
# The forward of a conv and the data gradient of a transposed conv are one GEMM per batch element with beta = 0 and a
# float32 dot product: one rounding, as float32 accumulation rounded once to the format gives.
#
# Every case below uses small integers (B = 2^8 for bf16, 2^11 for f16, the first integer whose successor the format
# cannot hold), so every product and every float32 sum is exact and the float64 result is the exact sum: a correct
# float32 accumulation rounded once to the format gives round(exact). Each line prints the exact sum, its one rounding
# and what ATen returned.
#   python3 torch215_lowprec.py   -> exit 1 while any direction differs from one rounding, 0 otherwise
# Runs with ATen's mkldnn backend off, so ATen's own kernels run on any host (on an AVX2 host they run anyway); the
# backend ATen would choose by default is printed too. PyTorch 1.13 has no f16 CPU conv and no bf16 transposed conv
# kernel (those lines say "not run"), and its bf16 forward rounds too (docs/findings.md, ATen 1.13's own bf16
# convolutions): 2.15 prints 9 directions and 1.13 prints 3, each exit 1.
import sys
import warnings

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
warnings.filterwarnings("ignore", message="TF32 acceleration")  # 2.15 warns when mkldnn.flags() is used


def backend(x, w, transposed, groups=1):
    nd = x.dim() - 2
    args = [x, w, None, [1] * nd, [0] * nd, [1] * nd, transposed, [0] * nd, groups]
    for extra in ([None], []):  # 2.x takes bias_sizes, 1.13 does not
        try:
            return str(torch._C._select_conv_backend(*(args + extra))).split(".")[-1]
        except (TypeError, RuntimeError, AttributeError):
            continue
    return "?"


def t(values, shape):
    return torch.tensor(values, dtype=torch.float64).reshape(shape)


def cases(fmt, b):
    """(name, inputs as float64, function of the inputs, (input shape, weight shape, transposed) of the conv):
    each function computes one direction, in 1-D."""
    bwd = torch.ops.aten.convolution_backward
    ones3 = t([1, 1, 1], [1, 1, 3])
    kernel = t([b, 1, 1], [1, 1, 3])
    return [
        # out[2] = x[2] w[0] + x[1] w[1] + x[0] w[2] = b + 1 + 1
        ("deconv output (conv_transpose1d)", (ones3, kernel), lambda x, w: F.conv_transpose1d(x, w), ([1, 1, 3], [1, 1, 3], True)),
        # grad_input[2] of a 3-tap conv of a 5-long input: go[2] w[0] + go[1] w[1] + go[0] w[2] = b + 1 + 1
        ("conv grad_data", (ones3, kernel),
         lambda go, w: bwd(go, torch.zeros(1, 1, 5, dtype=go.dtype), w, None, [1], [0], [1], False, [0], 1,
                           [True, False, False])[0], ([1, 1, 5], [1, 1, 3], False)),
        # batch 3, one pixel, 1x1 kernel: grad_weight = sum over the batch of x * go = b + 1 + 1
        ("conv grad_weight (batch 3)", (t([1, 1, 1], [3, 1, 1]), t([b, 1, 1], [3, 1, 1])),
         lambda x, go: bwd(go, x, torch.ones(1, 1, 1, dtype=x.dtype), None, [1], [0], [1], False, [0], 1,
                           [False, True, False])[1], ([3, 1, 1], [1, 1, 1], False)),
        ("deconv grad_weight (batch 3)", (t([1, 1, 1], [3, 1, 1]), t([b, 1, 1], [3, 1, 1])),
         lambda x, go: bwd(go, x, torch.ones(1, 1, 1, dtype=x.dtype), None, [1], [0], [1], True, [0], 1,
                           [False, True, False])[1], ([3, 1, 1], [1, 1, 1], True)),
        # controls, one GEMM each: they round once
        ("conv output (control)", (t([b, 1, 1], [1, 1, 3]), t([1, 1, 1], [1, 1, 3])), lambda x, w: F.conv1d(x, w), ([1, 1, 3], [1, 1, 3], False)),
        ("deconv grad_data (control)", (t([b, 1, 1], [1, 1, 3]), t([1, 1, 1], [1, 1, 3])),
         lambda go, w: bwd(go, torch.zeros(1, 1, 1, dtype=go.dtype), w, None, [1], [0], [1], True, [0], 1,
                           [True, False, False])[0], ([1, 1, 1], [1, 1, 3], True)),
    ] + ([
        # out[1] = 2 * 60000 - 2 * 60000 = 0, but each product is a float16 column that overflows: inf + -inf
        ("deconv output, overflowing columns", (t([2, -2], [1, 1, 2]), t([60000, 60000], [1, 1, 2])),
         lambda x, w: F.conv_transpose1d(x, w), ([1, 1, 2], [1, 1, 2], True)),
    ] if fmt == torch.float16 else [])


def same(a, b):
    return torch.equal(a.isnan(), b.isnan()) and torch.equal(a.nan_to_num(), b.nan_to_num())


print(f"torch {torch.__version__}, CPU capability {getattr(getattr(torch.backends, 'cpu', None), 'get_cpu_capability', lambda: '?')()}")
shows = 0
for fmt, b in ((torch.bfloat16, 2.0 ** 8), (torch.float16, 2.0 ** 11)):
    for name, inputs, fn, (x_shape, w_shape, transposed) in cases(fmt, b):
        low = [v.to(fmt) for v in inputs]
        assert all(torch.equal(l.double(), v) for l, v in zip(low, inputs))  # the inputs are exact in the format
        exact = fn(*inputs)
        once = exact.float().to(fmt).double()  # float32 accumulation (exact here), one rounding to the format
        default = backend(torch.zeros(x_shape, dtype=fmt), torch.zeros(w_shape, dtype=fmt), transposed)
        try:
            with torch.backends.mkldnn.flags(enabled=False):
                got = fn(*low).double()
        except (RuntimeError, NotImplementedError) as error:
            print(f"  {str(fmt)[6:]:8} {name:36} not run: {str(error).splitlines()[0]}")
            continue
        ok = same(got, once)
        shows += not ok
        print(f"  {str(fmt)[6:]:8} {name:36} exact {exact.flatten().tolist()}  rounded once {once.flatten().tolist()}  "
              f"ATen {got.flatten().tolist()}  {'one rounding' if ok else 'ROUNDED MORE THAN ONCE'}  (default backend {default})")
print(f"{shows} direction(s) round their sums to the format more than once" if shows else
      "every direction run rounds once: the behaviour does not show")
sys.exit(1 if shows else 0)
