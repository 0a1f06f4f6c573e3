#include "core/problem/precision_table.hpp"

#include <array>

#include <fmt/format.h>

namespace convcheck {

namespace {

constexpr DType f32 = DType::float32, f64 = DType::float64, bf16 = DType::bfloat16, f16 = DType::float16;

// The classic rows first (classic_precisions() is their prefix). Weights (of 100): float32 and float64 keep about
// the 7:1 they had before this table; low precision is 28 in 100 draws (issue 23: about 1 in 4), and every row at
// least 4, so that `configs --stats` sees each in every rank (tests/core/problem/generators_test.cpp). The four
// training rows after them (data and weight in different formats) weigh 0: drawn only when `--rows` names them, so
// a seed draws what it drew before they joined; `check` reaches them from benchdnn's --dt lists.
constexpr std::array<PrecisionRow, 11> rows{{
    // A framework's default: everything float32 (PyTorch, TensorFlow, oneDNN's --dt=f32).
    {"f32", {f32, f32, f32, f32}, 60, false},
    // Double precision end to end (PyTorch's gradcheck, oneDNN's --dt=f64).
    {"f64", {f64, f64, f64, f64}, 8, false},
    // float32 tensors summed in double: a float32 implementation that only widens its accumulator (a reference-
    // quality CPU path); spelled `_f32:f32:f32:f64` in descriptors.
    {"f32_f64acc", {f32, f32, f32, f64}, 4, false},
    // PyTorch's CPU autocast (torch.autocast("cpu") casts conv inputs to bfloat16, output bfloat16) and oneDNN's
    // --dt=bf16: bfloat16 tensors, float32 accumulators (oneDNN's bf16 kernels, AVX512-BF16's vdpbf16ps).
    {"bf16_f32acc", {bf16, bf16, bf16, f32}, 10, true},
    // CUDA autocast's float16 and oneDNN's --dt=f16: float16 tensors, float32 accumulators.
    {"f16_f32acc", {f16, f16, f16, f32}, 8, true},
    // oneDNN's --dt=bf16:bf16:f32 (and mixed-precision training's master gradients): bfloat16 inputs, float32 result.
    {"bf16_to_f32", {bf16, bf16, f32, f32}, 5, true},
    // oneDNN's --dt=f16:f16:f32: float16 inputs, float32 result.
    {"f16_to_f32", {f16, f16, f32, f32}, 5, true},
    // Mixed-precision training's gradients in float32 (oneDNN's benchdnn inputs test_conv_bfloat16, deconv's
    // test_deconv_bfloat16): a float32 data gradient from bfloat16 weights and output gradient
    // (--dir=BWD_D --dt=f32:bf16:bf16), and a float32 weight gradient from bfloat16 data and output gradient
    // (--dir=BWD_WB --dt=bf16:f32:bf16). A problem runs every direction, so the other two are judged as well (the
    // output of f32 data and bf16 weights stored in bf16, say): each is one float32 sum rounded once to its format.
    {"bf16_f32data", {f32, bf16, bf16, f32}, 0, true},
    {"bf16_f32weight", {bf16, f32, bf16, f32}, 0, true},
    // The float16 twins (test_conv_float16_nxc's --dt=f32:f16:f16 and f16:f32:f16).
    {"f16_f32data", {f32, f16, f16, f32}, 0, true},
    {"f16_f32weight", {f16, f32, f16, f32}, 0, true},
}};

constexpr size_t classic_rows = 3;

} // namespace

std::span<const PrecisionRow> precision_table() { return rows; }

std::span<const PrecisionRow> classic_precisions() { return std::span(rows).first(classic_rows); }

const PrecisionRow *find_precision_row(const Precision &precision) {
  for (const PrecisionRow &row : rows)
    if (row.precision == precision) return &row;
  return nullptr;
}

std::vector<Precision> mixed_precisions() {
  std::vector<Precision> all;
  for (const PrecisionRow &row : rows)
    if (!row.precision.single()) all.push_back(row.precision);
  return all;
}

bool mixes_input_formats(const Precision &precision) { return precision.src != precision.weight; }

std::vector<Precision> precisions_storing(DType storage) {
  std::vector<Precision> found;
  for (const PrecisionRow &row : rows)
    if (row.precision.src == storage && row.precision.weight == storage) found.push_back(row.precision);
  return found;
}

std::string precision_words(const Precision &p) {
  return fmt::format("{}:{}:{}:{}", info(p.src).word, info(p.weight).word, info(p.dst).word, info(p.acc).word);
}

} // namespace convcheck
