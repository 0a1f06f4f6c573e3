#pragma once
// The canonical one-line descriptor of a ConvConfig, for repro commands, reports and `convcheck check`.
//
//   g2mb2ic4ih5iw7oc6kh3kw3sh1sw2dlh2pb1_nhwc_hwio_f64
//
// Keys (each a lowercase word followed by a non-negative integer, in any order, `_` allowed between them):
//   g groups, mb batch, ic in_channels, ih/iw in_height/in_width, oc out_channels,
//   kh/kw kernel_height/kernel_width, sh/sw stride, dlh/dlw dilation (1 means none), pt/pb/pl/pr padding
//   top/bottom/left/right. Then optional `_`-separated words: nchw|nhwc, oihw|hwio|ohwi, f32|f64.
// Required: ic, oc, ih, kh. Defaults: iw = ih, kw = kh, mb 1, g 1, stride 1, dilation 1, padding 0, nchw,
// oihw, f32. Dilation is deliberately not `dh`/`dw`: benchdnn counts dilation from 0 under those keys, so a
// benchdnn line pasted here is rejected instead of silently meaning something else.
// format_descriptor leaves out defaults and always parses back to an equal config.

#include <string>

#include "core/conv_config.hpp"

namespace convcheck {

/// The canonical descriptor; parse_descriptor(format_descriptor(c)) == c for every config.
std::string format_descriptor(const ConvConfig &config);

/// Parses a descriptor (syntax only; call validate() for meaning). Throws InputError quoting the whole input.
ConvConfig parse_descriptor(const std::string &text);

} // namespace convcheck
