#include "core/numerics/fill.hpp"

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

uint64_t stream_key(uint64_t seed, uint64_t case_index, uint64_t stream) {
  return mix64(mix64(mix64(seed) ^ case_index) ^ stream);
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

int64_t exact_fill_magnitude(const Problem &p) {
  // The most products any output element of any direction sums: forward C/G * kernel volume, data gradient
  // K/G * kernel volume (an upper bound), weight gradient N * output volume.
  const double terms = static_cast<double>(std::max({
      p.in_channels_per_group() * p.kernel_volume(),
      p.out_channels_per_group() * p.kernel_volume(),
      p.batch * p.out_volume(),
  }));
  const Precision &f = p.precision;
  double limit = 0, largest = 0;
  for (DType dtype : {f.src, f.weight, f.dst, f.acc}) {
    limit = limit == 0 ? info(dtype).exact_sum_limit : std::min(limit, info(dtype).exact_sum_limit);
    largest = largest == 0 ? static_cast<double>(info(dtype).max_exact_fill)
                           : std::min(largest, static_cast<double>(info(dtype).max_exact_fill));
  }
  const double magnitude = std::floor(std::sqrt(limit / terms));
  return static_cast<int64_t>(std::clamp(magnitude, 1.0, largest));
}

Tensor fill_tensor(const Problem &problem, Role role, FillMode mode, uint64_t seed, uint64_t case_index) {
  return fill_values(dtype_of(problem, role), shape_of(problem, role), mode, seed, case_index,
                     info(role).fill_stream, exact_fill_magnitude(problem));
}

Tensor fill_values(DType dtype, const Shape &shape, FillMode mode, uint64_t seed, uint64_t case_index,
                   uint64_t stream, int64_t magnitude) {
  Tensor tensor = Tensor::uninitialized(dtype, shape); // every element is written below
  const uint64_t key = stream_key(seed, case_index, stream);
  const int64_t count = tensor.size();
  // Exact values are the non-zero integers in [-m, m]: a zero input only hides taps from the diff.
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
