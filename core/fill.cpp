#include "core/fill.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

namespace {

uint64_t stream_key(uint64_t seed, uint64_t case_index, TensorRole role) {
  return mix64(mix64(mix64(seed) ^ case_index) ^ static_cast<uint64_t>(role));
}

// A uniform double in (0, 1) from 53 random bits, never exactly 0 (Box-Muller takes its log).
double unit_interval(uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53; }

double normal_value(uint64_t key, uint64_t i) {
  const double u1 = unit_interval(mix64(key ^ (2 * i)));
  const double u2 = unit_interval(mix64(key ^ (2 * i + 1)));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

} // namespace

std::string to_string(FillMode mode) {
  switch (mode) {
  case FillMode::normal: return "normal";
  case FillMode::exact: return "exact";
  case FillMode::mixed: return "mixed";
  }
  return "?";
}

FillMode parse_fill_mode(const std::string &text) {
  if (text == "normal") return FillMode::normal;
  if (text == "exact") return FillMode::exact;
  if (text == "mixed") return FillMode::mixed;
  throw InputError(fmt::format("fill mode '{}' is not normal, exact or mixed", text));
}

FillMode resolve_fill_mode(FillMode mode, uint64_t seed, uint64_t case_index) {
  if (mode != FillMode::mixed) return mode;
  return mix64(seed ^ mix64(case_index ^ 0x6d69786564ULL)) % 2 ? FillMode::exact : FillMode::normal;
}

int64_t exact_fill_magnitude(const ConvConfig &config) {
  // The most products any output element of any direction sums: forward C/G*R*S, data gradient
  // K/G*R*S (an upper bound), weight gradient N*P*Q.
  const double terms = static_cast<double>(std::max({
      config.in_channels_per_group() * config.kernel_height * config.kernel_width,
      config.out_channels_per_group() * config.kernel_height * config.kernel_width,
      config.batch * config.out_height() * config.out_width(),
  }));
  const double magnitude = std::floor(std::sqrt(0x1.0p24 / terms));
  return static_cast<int64_t>(std::clamp(magnitude, 1.0, 4.0));
}

Tensor fill_tensor(const ConvConfig &config, const Shape &shape, FillMode mode, uint64_t seed, uint64_t case_index,
                   TensorRole role) {
  Tensor tensor = Tensor::uninitialized(config.dtype, shape); // every element is written below
  const uint64_t key = stream_key(seed, case_index, role);
  const int64_t count = tensor.size();
  // Exact values are the non-zero integers in [-m, m]: a zero input only hides taps from the diff.
  const int64_t magnitude = exact_fill_magnitude(config);
  auto exact_value = [magnitude](uint64_t bits) {
    const auto v = static_cast<int64_t>(bits % static_cast<uint64_t>(2 * magnitude));
    return v < magnitude ? -(v + 1) : v - magnitude + 1;
  };
  const FillMode resolved = resolve_fill_mode(mode, seed, case_index);
  visit_typed(tensor, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    for (int64_t i = 0; i < count; ++i) {
      const auto index = static_cast<uint64_t>(i);
      out[i] = resolved == FillMode::exact ? static_cast<T>(exact_value(mix64(key ^ index)))
                                           : static_cast<T>(normal_value(key, index));
    }
  });
  return tensor;
}

} // namespace convcheck
