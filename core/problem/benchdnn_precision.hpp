#pragma once
// benchdnn's precision options for conv: `--dt=SRC[:WEI[:DST]]` (oneDNN 3.x; one word for all three) and the older
// `--cfg=NAME` (f32, bf16bf16bf16, bf16bf16f32, f16, f16f16f32, ...: the formats written one after the other). In a
// batch file either sets the formats of the descriptor lines after it. benchdnn accumulates bf16 and f16
// convolutions in f32 and f64 ones in f64, so the accumulation is f64 when every tensor is f64 and f32 otherwise.

#include <optional>
#include <string>

#include "core/problem/problem.hpp"

namespace convcheck {

/// What a `--dt=`/`--cfg=` option sets: a precision, or why convcheck cannot take it (an integer format, a list).
struct BenchdnnPrecision {
  std::optional<Precision> precision;
  std::string refusal;
};

/// The option `text` ("--dt=bf16:bf16:f32"), or nullopt when it is no --dt or --cfg option.
std::optional<BenchdnnPrecision> parse_benchdnn_precision(const std::string &text);

} // namespace convcheck
