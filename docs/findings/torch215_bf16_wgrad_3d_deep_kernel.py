# PyTorch 2.15.0 (its bundled oneDNN 3.13.3) on an AVX512-BF16 host: the bf16 weight gradient of a conv3d in
# channels_last_3d memory whose depth kernel is larger than the input depth (kd 3 on id 2, depth padding 1) runs
# oneDNN's jit_bf16:avx512_core_bf16 backward_weights and returns wrong values; contiguous memory is right.
# Integer inputs, so every float32 sum is exact and one rounding to bf16 is the whole allowed error.
#   venvs/torch/bin/python torch215_bf16_wgrad_3d_deep_kernel.py   -> exit 1 while it shows
import sys

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
x = ((torch.arange(1 * 2 * 2 * 3 * 2, dtype=torch.float64) * 5) % 7 - 3).reshape(1, 2, 2, 3, 2)
w = ((torch.arange(2 * 2 * 3, dtype=torch.float64) * 3) % 7 - 3).reshape(2, 2, 3, 1, 1)
y = F.conv3d(x, w, padding=(1, 0, 0))
g = ((torch.arange(y.numel(), dtype=torch.float64) * 2) % 7 - 3).reshape(y.shape)


def grad_weight(dtype, memory_format):
    xx = x.to(dtype).clone().contiguous(memory_format=memory_format)
    ww = w.to(dtype).clone().requires_grad_()
    F.conv3d(xx, ww, padding=(1, 0, 0)).backward(g.to(dtype).contiguous(memory_format=memory_format))
    return ww.grad.double()


expected = grad_weight(torch.float64, torch.contiguous_format)
bug = False
for memory_format in (torch.contiguous_format, torch.channels_last_3d):
    got = grad_weight(torch.bfloat16, memory_format)
    # one rounding of the exact sum to bfloat16 is the most a float32 accumulation may be off
    error = (got - expected.bfloat16().double()).abs().max().item()
    print(f"bf16 conv3d id2 kd3 pd1 grad_weight, {memory_format}: max |error| against the rounded exact sum {error:g}")
    bug |= error > 0
print("the bug shows" if bug else "agreed")
sys.exit(1 if bug else 0)
