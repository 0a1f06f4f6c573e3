"""numpy's float16 conversions, for tests/core/tensor/narrow_float_test.cpp: an independent implementation to
compare convcheck's float16 with over every bit pattern.

Writes to argv[1], little-endian:
  65536 uint32: the float32 bits numpy gives for float16 pattern i (i = 0..65535);
  uint32 n, then n (float32 input bits, float16 bits numpy rounds it to);
  uint32 m, then m (float64 input bits, float16 bits numpy rounds it to).
The inputs are, for every finite float16 and the next one up in magnitude (65536 past the largest), their midpoint
and the floats on either side of it; for float64 also points a 2^-40 relative step from the midpoint, which a
float64 -> float32 -> float16 double rounding gets wrong.
"""
import sys

import numpy as np

patterns = np.arange(65536, dtype=np.uint32).astype(np.uint16)
values = patterns.view(np.float16)
widened = values.astype(np.float32).view(np.uint32)

finite = np.isfinite(values)
low = values[finite].astype(np.float64)
step_up = patterns[finite].astype(np.uint32) + 1
high = np.where((patterns[finite] & 0x7FFF) == 0x7BFF, np.copysign(65536.0, low),
                step_up.astype(np.uint16).view(np.float16).astype(np.float64))
middle = (low + high) / 2  # exact: 12 significand bits at most

mid32 = middle.astype(np.float32)
inputs32 = np.concatenate([mid32, np.nextafter(mid32, np.float32(np.inf)), np.nextafter(mid32, np.float32(-np.inf))])
inputs64 = np.concatenate([middle, middle * (1 + 2.0**-40), middle * (1 - 2.0**-40),
                           np.nextafter(middle, np.inf), np.nextafter(middle, -np.inf)])

with open(sys.argv[1], "wb") as out, np.errstate(over="ignore"):
    out.write(widened.astype("<u4").tobytes())
    out.write(np.uint32(inputs32.size).astype("<u4").tobytes())
    out.write(np.stack([inputs32.view(np.uint32), inputs32.astype(np.float16).view(np.uint16).astype(np.uint32)],
                       axis=1).astype("<u4").tobytes())
    out.write(np.uint32(inputs64.size).astype("<u4").tobytes())
    pairs = np.zeros(inputs64.size, dtype=[("x", "<u8"), ("h", "<u8")])
    pairs["x"] = inputs64.view(np.uint64)
    pairs["h"] = inputs64.astype(np.float16).view(np.uint16)
    out.write(pairs.tobytes())
