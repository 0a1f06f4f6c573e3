# XLA:CPU's Eigen convolution (f32 and f16 convolutions in the NHWC/HWIO form, jaxlib 0.10.2) with a negative low
# padding and a positive high padding on a spatial axis: the output rows that should come from the high padding
# (zeros) read the next image's rows, and past the last image memory outside the input (garbage, an out-of-bounds
# read). The same convolution in float64 runs on XLA's emitted loops and is right. JAX writes such paddings itself:
# the weight gradient of a conv cropped at the top (pad_begin -1) and padded at the bottom has this padding, and so has
# the data gradient of a conv with a large top padding. Needs jax, jaxlib and numpy only; exact small integers, so
# any difference is the bug, not rounding.
#   python jax_eigen_negative_padding.py   -> exit 1 while the bug shows, 0 when right
#   jaxlib 0.10.2 (AVX2-only AMD EPYC): [100, 164, 228, 8.3e-03] where [100, 0, 228, 0] is right (the 164 is the
#   second image's first row; the last value is memory past the input, different from run to run)
# Reported upstream as openxla/xla#48713 (open; fix proposed in openxla/xla#48748).
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

# Two images of 2 x 4 pixels, 2 channels (NHWC), values 1..32; a 1x4 kernel of ones (HWIO) sums each row's 8 values.
x = np.arange(1, 33, dtype=np.float32).reshape(2, 2, 4, 2)
w = np.ones((1, 4, 2, 1), np.float32)
padding = [(-1, 1), (0, 0)]  # height: crop the first row, add one row of zeros after the last: rows [x1, 0]

conv = jax.jit(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), padding,
                                                     dimension_numbers=("NHWC", "HWIO", "NHWC")))
got = np.asarray(conv(x, w)).ravel()
# The reference: output row 0 is input row 1 summed over width and channels, output row 1 is the zero padding.
expected = np.array([[x[n, 1].sum(), 0.0] for n in range(2)]).ravel()
print("jax", jax.__version__, "jaxlib", jaxlib.__version__)
print("HLO:", next(line.strip() for line in conv.lower(x, w).compile().as_text().splitlines()
                   if " convolution(" in line))
print("got", got, "expected", expected)
if not np.array_equal(got, expected):
    print("the bug shows: the padding rows read other rows and memory past the input")
    sys.exit(1)
print("right")
