# PyTorch 1.13 (Debian python3-torch, oneDNN 2.6.3): the weight gradient of a strided 1x1 conv in channels_last memory
# with fewer input channels than oneDNN's channel block runs oneDNN's jit_1x1 backward-weights kernel, which writes
# past its scratchpad (oneDNN issue #6035). With one thread the values are right and the heap is corrupted: a later
# call crashes or glibc aborts (MALLOC_CHECK_=3 makes it prompt). With two threads the overflow lands in the other
# thread's part of the scratchpad and the values are wrong.
#   MALLOC_CHECK_=3 /usr/bin/python3 torch_1x1_wgrad.py 1   -> attempt 0: max error 0, then SIGSEGV (exit 139)
#   /usr/bin/python3 torch_1x1_wgrad.py 2                   -> max error 10 against float64 on every attempt
import sys
import torch

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N, C, H, W, K, stride = 2, 4, 12, 6, 5, (1, 2)
x = torch.tensor([float((i * 7) % 5 - 2) for i in range(N * C * H * W)]).reshape(N, C, H, W)  # small integers:
go = torch.tensor([float((i * 3) % 7 - 3) for i in range(N * K * H * 3)]).reshape(N, K, H, 3)  # every sum exact
weight = torch.zeros(K, C, 1, 1)
expected = torch.einsum("nchw,nkhw->kc", x.double()[:, :, :: stride[0], :: stride[1]], go.double())
for attempt in range(3):
    _, grad_weight, _ = torch.ops.aten.convolution_backward(
        go.contiguous(memory_format=torch.channels_last), x.contiguous(memory_format=torch.channels_last), weight,
        None, stride, (0, 0), (1, 1), False, (0, 0), 1, (False, True, False))
    error = (grad_weight.reshape(K, C).double() - expected).abs().max().item()
    print(f"attempt {attempt}: grad_weight max |error| against float64 {error:g}", flush=True)
print("no crash")
