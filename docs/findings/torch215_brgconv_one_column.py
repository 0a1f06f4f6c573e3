# PyTorch 2.15.0 (its bundled oneDNN 3.13.3) on an AVX-512 host: oneDNN's brg_conv_fwd kernel returns wrong values
# for a convolution in channels-last memory whose output is one column wide while the width stride is over 1 (the
# input width at most the stride plus the kernel less 1). Two ways PyTorch users reach it:
#   1. a grouped bf16 conv2d in channels_last (g6 ic6 oc12, ih4, iw2 kw2 sw2 -> ow1): brg_conv_fwd:avx512_core_bf16
#      writes output row 1 with what belongs to row 2 and leaves rows 2 and 3 zero;
#   2. the input gradient of a float32 conv_transpose2d in channels_last whose input is one column wide (N2 C4 ih7
#      iw1, one output channel, kernel 1x4, stride (1, 2), output_padding (0, 1)): oneDNN computes it as a conv
#      forward, conv:any+brg_conv_fwd:avx512_core, and gets it wrong; contiguous memory (jit:avx512_core) is right.
# Integer inputs, so every float32 and bf16 sum is exact and any error is the kernel's.
#   venvs/torch/bin/python torch215_brgconv_one_column.py   -> exit 1 while either shows
#   ONEDNN_VERBOSE=1 ...                                     -> the kernels named above
import sys

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
bug = False

# 1. forward, bf16, grouped
G, C, K, H = 6, 6, 12, 4
x = (torch.arange(C * H * 2, dtype=torch.float64).reshape(1, C, H, 2) % 5) - 2
w = (torch.arange(K * 2, dtype=torch.float64).reshape(K, 1, 1, 2) % 3) - 1
expected = F.conv2d(x, w, stride=(1, 2), groups=G)
got = F.conv2d(x.bfloat16().contiguous(memory_format=torch.channels_last), w.bfloat16(), stride=(1, 2), groups=G)
error = (got.double() - expected).abs().max().item()
print(f"bf16 conv2d g6 ic6 oc12 ih4 iw2 kw2 sw2, channels_last: max |error| {error:g}")
print("  expected rows of channel 0..3:", expected[0, :4, :, 0].T.tolist())
print("  got                          :", got.double()[0, :4, :, 0].T.tolist())
bug |= error > 0

# 2. conv_transpose2d input gradient, float32
N, C, H, kw = 2, 4, 7, 4
x = ((torch.arange(N * C * H, dtype=torch.float64) * 7) % 7 - 3).reshape(N, C, H, 1)
w = ((torch.arange(C * kw, dtype=torch.float64) * 5) % 7 - 3).reshape(C, 1, 1, kw)
y = F.conv_transpose2d(x, w, stride=(1, 2), output_padding=(0, 1))
g = ((torch.arange(y.numel(), dtype=torch.float64) * 3) % 7 - 3).reshape(y.shape)


def grad_input(dtype, memory_format):
    xx = x.to(dtype).clone().contiguous(memory_format=memory_format).requires_grad_()
    F.conv_transpose2d(xx, w.to(dtype), stride=(1, 2), output_padding=(0, 1)).backward(
        g.to(dtype).contiguous(memory_format=memory_format))
    return xx.grad.double()


expected = grad_input(torch.float64, torch.contiguous_format)
for memory_format in (torch.contiguous_format, torch.channels_last):
    error = (grad_input(torch.float32, memory_format) - expected).abs().max().item()
    print(f"float32 conv_transpose2d N2 C4 ih7 iw1 K1 kw4 sw2 opw1 grad_input, {memory_format}: max |error| {error:g}")
    bug |= error > 0
print("the bug shows" if bug else "agreed")
sys.exit(1 if bug else 0)
