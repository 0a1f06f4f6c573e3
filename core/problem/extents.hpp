#pragma once
// A problem's extents read once, in the letters the loop strategies use: N images, C input and K output channels
// (cg and kg per group); D, H, W the input, T, R, S the kernel and OD, P, Q the output, per axis depth, height,
// width. SpatialAxis computes out() on every call, and a loop nest asking it per element would pay for that.

#include <cstdint>

#include "core/problem/problem.hpp"

namespace convcheck {

struct Extents {
  explicit Extents(const Problem &p)
      : N(p.batch), C(p.in_channels), K(p.out_channels), cg(p.in_channels_per_group()),
        kg(p.out_channels_per_group()), D(p.depth().in), H(p.height().in), W(p.width().in), T(p.depth().kernel),
        R(p.height().kernel), S(p.width().kernel), OD(p.depth().out()), P(p.height().out()), Q(p.width().out()),
        in_volume(D * H * W), out_volume(OD * P * Q), filter_volume(cg * T * R * S) {}
  int64_t N, C, K, cg, kg;
  int64_t D, H, W, T, R, S, OD, P, Q;
  int64_t in_volume;     // D * H * W: one input channel
  int64_t out_volume;    // OD * P * Q: one output channel
  int64_t filter_volume; // C/G * T * R * S: one kernel
};

} // namespace convcheck
