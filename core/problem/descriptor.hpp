#pragma once
// The canonical one-line descriptor of a Problem, for repro commands, reports and `convcheck check`.
//
//   g2mb2ic4ih5iw7oc6kh3kw3sh1sw2dlh2pb1_nhwc_hwio_f64      a 2-D problem
//   mb2ic4iw9oc6kw3pl-1_nwc                                 1-D: only width keys
//   ic4id5ih6iw7oc6kd2kh3kw3sd2_ndhwc_dhwio                 3-D: any depth key
//
// Keys (a lowercase word followed by an integer, in any order, `_` allowed between them), one per field of
// core/problem/fields.hpp: g groups, mb batch, ic/oc channels, and per spatial axis (depth, height, width):
// id/ih/iw input size, kd/kh/kw kernel, sd/sh/sw stride, dld/dlh/dlw dilation (1 means none), and padding at the
// beginning and end: pfr/pbk (front, back), pt/pb (top, bottom), pl/pr (left, right). Padding may be negative
// (`pl-2`: a crop). Then optional `_`-separated words: a data layout (ncw|nwc, nchw|nhwc, ncdhw|ndhwc), a
// weight layout (oiw|wio|owi, oihw|hwio|ohwi, oidhw|dhwio|odhwi), and the formats: one word for all tensors
// (f32|f64) or four joined by `:` for src:weight:dst:acc (`f32:f32:f32:f64`).
//
// The rank is 3 when any depth key is given, else 2 when any height key is, else 1. Required: ic, oc, an input
// size and a kernel size; a missing input or kernel size of the rank's axes copies the nearest given axis,
// outer first (so `ih5kh3` is 5x5 with a 3x3 kernel). Everything else defaults to its neutral value (batch 1,
// one group, stride and dilation 1, no padding, channels-first data, OI... weight, float32) and is left out when
// printing. Dilation is deliberately not `dh`/`dw`: benchdnn counts dilation from 0 under those keys, so a
// benchdnn line pasted here is rejected instead of silently meaning something else.

#include <string>

#include "core/problem/problem.hpp"

namespace convcheck {

/// The canonical descriptor; parse_descriptor(format_descriptor(p)) == p for every problem whose outer axes are
/// unit axes.
std::string format_descriptor(const Problem &problem);

/// Parses a descriptor (syntax only; call validate() for meaning). Throws InputError quoting the whole input.
Problem parse_descriptor(const std::string &text);

} // namespace convcheck
