#include "core/problem/benchdnn_precision.hpp"

#include <vector>

#include <fmt/format.h>

namespace convcheck {

namespace {

// The formats written one after another ("bf16bf16f32"), or nullopt when a part is no format word.
std::optional<std::vector<DType>> format_words(const std::string &text, bool separated) {
  std::vector<DType> formats;
  for (size_t at = 0; at < text.size();) {
    if (separated && !formats.empty()) {
      if (text[at] != ':') return std::nullopt;
      ++at;
    }
    bool found = false;
    for (const DTypeInfo &row : dtype_table()) {
      const std::string word = row.word;
      if (text.compare(at, word.size(), word) == 0) {
        formats.push_back(row.dtype);
        at += word.size();
        found = true;
        break;
      }
    }
    if (!found) return std::nullopt;
  }
  return formats;
}

} // namespace

std::optional<BenchdnnPrecision> parse_benchdnn_precision(const std::string &text) {
  const bool dt = text.rfind("--dt=", 0) == 0, cfg = text.rfind("--cfg=", 0) == 0;
  if (!dt && !cfg) return std::nullopt;
  const std::string value = text.substr(dt ? 5 : 6);
  const std::optional<std::vector<DType>> formats = format_words(value, dt);
  if (!formats || (formats->size() != 1 && formats->size() != 3))
    return BenchdnnPrecision{std::nullopt, fmt::format("{} is not f32, f64, bf16 or f16 for src, weights and dst "
                                                       "(integer formats and lists are not supported)", text)};
  const std::vector<DType> &f = *formats;
  Precision precision{f[0], f.size() == 3 ? f[1] : f[0], f.size() == 3 ? f[2] : f[0], DType::float32};
  if (precision.src == DType::float64 && precision.weight == DType::float64 && precision.dst == DType::float64)
    precision.acc = DType::float64;
  return BenchdnnPrecision{precision, ""};
}

} // namespace convcheck
