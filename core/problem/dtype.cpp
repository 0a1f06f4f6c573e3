#include "core/problem/dtype.hpp"

#include <array>
#include <cctype>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/spelling.hpp"

namespace convcheck {

namespace {

// In DType order.
// The generator draws formats as combinations (core/problem/precision_table.hpp), not one by one.
constexpr std::array<DTypeInfo, 4> rows{{
    {DType::float32, "float32", "f32", 0x1.0p-24, 0x1.0p-126, 0x1.0p-149, 0x1.0p24, 32, 4, 0x1.fffffep127, true},
    {DType::float64, "float64", "f64", 0x1.0p-53, 0x1.0p-1022, 0x1.0p-1074, 0x1.0p53, 64, 4, 0x1.fffffffffffffp1023, true},
    {DType::bfloat16, "bfloat16", "bf16", 0x1.0p-8, 0x1.0p-126, 0x1.0p-133, 0x1.0p8, 32, 256, 0x1.fep127, false},
    {DType::float16, "float16", "f16", 0x1.0p-11, 0x1.0p-14, 0x1.0p-24, 0x1.0p11, 16, 2048, 65504.0, false},
}};

} // namespace

std::span<const DTypeInfo> dtype_table() { return rows; }

const DTypeInfo &info(DType dtype) { return rows[static_cast<size_t>(dtype)]; }

std::string to_string(DType dtype) { return info(dtype).name; }

DType parse_dtype(const std::string &text, const std::string &what) {
  const std::string key = lowercase(text);
  std::string known;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (key == rows[i].name || key == rows[i].word) return rows[i].dtype;
    known += fmt::format("{}{}", i == 0 ? "" : i + 1 == rows.size() ? " or " : ", ", rows[i].name);
  }
  throw InputError(fmt::format("{} '{}' is not {}", what, text, known));
}

} // namespace convcheck
