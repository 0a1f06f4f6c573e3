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

// Box-Muller: r*cos(theta) and r*sin(theta) are two independent standard normals made from one pair of uniforms.
// Element i = 2j takes the cosine and element 2j + 1 the sine of the pair drawn for element 2j, so one logarithm
// and one sincos serve two elements.
void normal_pair(uint64_t key, uint64_t even, double &cosine_value, double &sine_value) {
  const double u1 = unit_interval(mix64(key ^ (2 * even)));
  const double u2 = unit_interval(mix64(key ^ (2 * even + 1)));
  const double radius = std::sqrt(-2.0 * std::log(u1));
  double sine = 0, cosine = 0;
  ::sincos(6.283185307179586 * u2, &sine, &cosine);
  cosine_value = radius * cosine;
  sine_value = radius * sine;
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
    if (resolved == FillMode::exact) {
      for (int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(exact_value(mix64(key ^ static_cast<uint64_t>(i))));
      return;
    }
    for (int64_t i = 0; i < count; i += 2) {
      double even = 0, odd = 0;
      normal_pair(key, static_cast<uint64_t>(i), even, odd);
      out[i] = static_cast<T>(even);
      if (i + 1 < count) out[i + 1] = static_cast<T>(odd);
    }
  });
  return tensor;
}

} // namespace convcheck
