# XLA:CPU's YNNPACK convolution fusion (on by default in jaxlib 0.10.2 for 2-D f32/f64 convolutions with more than 16
# channels) on an axis whose padding crops the whole input and leaves one padding position (low 1, high -in): the
# one output position is padding, so 0 is right. An input of width 1 returns the input's sum instead; a wider one
# crashes the process (SIGSEGV). With the fusion off (XLA_FLAGS=--xla_cpu_experimental_ynn_fusion_type=
# -individual_convolution) Eigen computes 0. JAX writes such a padding itself: the data gradient of a 1x1 conv whose
# output is all padding (pad_begin -1, pad_end 5 on a width of 1) is this convolution. Needs jax, jaxlib and numpy
# only; each case runs in a child process, so that the crash is reported rather than fatal.
#   python jax_ynn_empty_crop.py   -> exit 1 while the bug shows, 0 when right
#   jaxlib 0.10.2 (AVX2-only AMD EPYC): width 1: [153.] where [0.] is right; width 3: killed by SIGSEGV
import os
import subprocess
import sys

CHILD = r"""
import os, sys
os.environ.setdefault("JAX_PLATFORMS", "cpu")
import numpy as np, jax, jax.numpy as jnp
from jax import lax
width = int(sys.argv[1])
x = np.arange(1, width * 17 + 1, dtype=np.float32).reshape(1, 1, width, 17)   # NHWC, 17 channels: YNNPACK takes it
w = np.ones((1, 1, 17, 17), np.float32)                                      # 1x1 kernel of ones (HWIO)
f = jax.jit(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), [(0, 0), (1, -width)],
                                                  dimension_numbers=("NHWC", "HWIO", "NHWC")))
hlo = f.lower(x, w).compile().as_text()
print("YNNPACK fusion" if "__ynn_fusion" in hlo else "no YNNPACK fusion", flush=True)
print(np.asarray(f(x, w))[0, 0, :, 0], flush=True)
"""

import jax  # noqa: E402  (only for the version)
import jaxlib  # noqa: E402

print("jax", jax.__version__, "jaxlib", jaxlib.__version__)
shows = False
for width in (1, 3):
    run = subprocess.run([sys.executable, "-c", CHILD, str(width)], capture_output=True, text=True)
    out = " ".join(run.stdout.split())
    if run.returncode < 0:
        print(f"width {width}, padding (1, -{width}): {out}: killed by signal {-run.returncode}")
        shows = True
    elif run.returncode != 0:
        print(f"width {width}: the child failed: {run.stderr[-400:]}")
        shows = True
    else:
        right = out.endswith("[0.]")
        print(f"width {width}, padding (1, -{width}): {out} ({'right' if right else 'wrong: 0 is right'})")
        shows |= not right
sys.exit(1 if shows else 0)
