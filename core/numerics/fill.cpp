#include "core/numerics/fill.hpp"
#include "core/problem/op.hpp"
#include "core/problem/witness_reach.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

uint64_t stream_key(uint64_t seed, uint64_t case_index, uint64_t stream) {
  return mix64(mix64(mix64(seed) ^ case_index) ^ stream);
}

// A uniform double in [0, 1) from the top 53 bits.
double unit_interval(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// Marsaglia and Tsang's ziggurat ("The Ziggurat Method for Generating Random Variables", 2000) with 256 layers:
// the area under exp(-x^2/2) covered by 255 rectangles and a base strip with the tail, each of area v. A layer and
// a point in it come from one 64-bit draw; about 99% of points fall inside the next layer's width and are returned
// with no further arithmetic (Box-Muller, before, took a logarithm and a sincos per two values: 7% of a fuzz case).
// The rest are settled exactly, the wedges against exp(-x^2/2) and the tail (x > r) by Marsaglia's exponential
// method, with more draws re-mixed from the first, so a value still depends only on its element's bits.
struct Ziggurat {
  static constexpr int layers = 256;
  static constexpr double r = 3.6541528853610088; // where the tail begins
  static constexpr double v = 4.92867323399e-3;   // the area of each layer
  double x[layers + 1];                           // x[i]: the right edge of layer i, decreasing to x[256] = 0
  double f[layers + 1];                           // exp(-x[i]^2 / 2)

  Ziggurat() {
    x[0] = v / std::exp(-0.5 * r * r); // the base strip's width, were it a rectangle of area v
    x[1] = r;
    for (int i = 2; i < layers; ++i)
      x[i] = std::sqrt(-2.0 * std::log(v / x[i - 1] + std::exp(-0.5 * x[i - 1] * x[i - 1])));
    x[layers] = 0;
    for (int i = 0; i <= layers; ++i) f[i] = std::exp(-0.5 * x[i] * x[i]);
  }

  double operator()(uint64_t bits) const {
    for (;;) {
      const int layer = static_cast<int>(bits & 0xff);
      const double sign = bits & 0x100 ? -1.0 : 1.0;
      const double at = unit_interval(bits) * x[layer];
      if (at < x[layer + 1]) return sign * at; // inside the width of the layer above: under the curve
      bits = mix64(bits);
      if (layer == 0) return sign * tail(bits);
      if (f[layer] + unit_interval(bits) * (f[layer + 1] - f[layer]) < std::exp(-0.5 * at * at)) return sign * at;
      bits = mix64(bits);
    }
  }

  // |x| given |x| > r: r + E1 / r, with E1 and E2 standard exponentials, accepted when 2 E2 > (E1 / r)^2.
  static double tail(uint64_t bits) {
    for (;;) {
      const double e1 = -std::log1p(-unit_interval(bits)) / r;
      bits = mix64(bits);
      const double e2 = -std::log1p(-unit_interval(bits));
      bits = mix64(bits);
      if (2 * e2 > e1 * e1) return r + e1;
    }
  }
};

double standard_normal(uint64_t bits) {
  static const Ziggurat ziggurat;
  return ziggurat(bits);
}

// Exact values are the non-zero integers in [-m, m]: a zero input only hides taps from the diff. Witness values
// are the positive ones, [1, m].
int64_t exact_value(uint64_t bits, int64_t magnitude) {
  const auto v = static_cast<int64_t>(bits % static_cast<uint64_t>(2 * magnitude));
  return v < magnitude ? -(v + 1) : v - magnitude + 1;
}
int64_t witness_value(uint64_t bits, int64_t magnitude) {
  return static_cast<int64_t>(bits % static_cast<uint64_t>(magnitude)) + 1;
}

// A tensor carrying a special kind, or scaled for another's (core/numerics/fill_special.hpp), element by element
// through doubles: off the hot path, which only the special cases take. An element's value still depends only on
// (seed, case, stream, element); the kind's choices use bits the ordinary value does not (the top ones).
Tensor special_values(DType dtype, const Shape &shape, FillMode mode, uint64_t seed, uint64_t case_index,
                      uint64_t stream, int64_t magnitude, const SpecialFill &special) {
  Tensor tensor = Tensor::uninitialized(dtype, shape);
  const uint64_t key = stream_key(seed, case_index, stream);
  const FillMode resolved = resolve_fill_mode(mode, seed, case_index);
  auto ordinary = [&](uint64_t bits) {
    if (resolved == FillMode::exact) return static_cast<double>(exact_value(bits, magnitude));
    if (resolved == FillMode::witness) return static_cast<double>(witness_value(bits, magnitude));
    return standard_normal(bits);
  };
  // A near_max case's scaled inputs are normal numbers or zeros, never the subnormal kind's values: raised to the
  // smallest normal where that stays within the cap the scale allows (8 * scale), flushed to a signed zero where not.
  const double smallest_normal = info(dtype).smallest_normal, cap = 8 * special.scale;
  auto scaled = [&](double value) {
    if (std::abs(value) >= smallest_normal) return value;
    return std::copysign(smallest_normal <= cap ? smallest_normal : 0.0, value);
  };
  for (int64_t i = 0; i < tensor.size(); ++i) {
    const uint64_t bits = mix64(key ^ static_cast<uint64_t>(i));
    const uint64_t more = mix64(bits ^ 0x5350454349414cULL);
    double value = 0;
    switch (special.kind) {
    case FillSpecial::subnormal: value = special_subnormal(dtype, more); break;
    case FillSpecial::near_max: value = special_near_max(dtype, more); break;
    case FillSpecial::tie: value = static_cast<double>(witness_value(bits, special.magnitude)); break;
    case FillSpecial::signed_zero: value = more & 1 ? -0.0 : ordinary(bits); break;
    case FillSpecial::none:
    case FillSpecial::mixed: value = scaled(special.scale * std::clamp(ordinary(bits), -8.0, 8.0)); break;
    }
    tensor.set(i, value);
  }
  return tensor;
}

} // namespace

std::string to_string(FillMode mode) {
  switch (mode) {
  case FillMode::normal: return "normal";
  case FillMode::exact: return "exact";
  case FillMode::witness: return "witness";
  case FillMode::mixed: return "mixed";
  }
  return "?";
}

FillMode parse_fill_mode(const std::string &text) {
  if (text == "normal") return FillMode::normal;
  if (text == "exact") return FillMode::exact;
  if (text == "witness") return FillMode::witness;
  if (text == "mixed") return FillMode::mixed;
  throw InputError(fmt::format("fill mode '{}' is not normal, exact, witness or mixed", text));
}

FillMode resolve_fill_mode(FillMode mode, uint64_t seed, uint64_t case_index) {
  if (mode != FillMode::mixed) return mode;
  // The low bit splits normal from the integer fills as before the witness fill existed, so a case that drew
  // normal still does; two more bits give the witness a quarter of the integer cases.
  const uint64_t bits = mix64(seed ^ mix64(case_index ^ 0x6d69786564ULL));
  if (bits % 2 == 0) return FillMode::normal;
  return (bits >> 1) % 4 == 0 ? FillMode::witness : FillMode::exact;
}

FillMode resolve_fill_mode(FillMode mode, uint64_t seed, uint64_t case_index, const Problem &problem) {
  const FillMode drawn = resolve_fill_mode(mode, seed, case_index);
  if (mode != FillMode::mixed) return drawn;
  const Problem conv = equivalent_conv(problem);
  const int64_t narrow = witness_terms(conv);
  const bool reaches = narrow > 0 && std::any_of(all_directions.begin(), all_directions.end(), [&](Direction d) {
    return reduction_terms(conv, d) >= narrow;
  });
  if (!reaches) return drawn;
  // Three cases in four: every integer one, and half the normal ones (by a bit the split above does not use).
  const uint64_t bits = mix64(seed ^ mix64(case_index ^ 0x6d69786564ULL));
  return drawn == FillMode::normal && (bits >> 3) % 2 == 0 ? FillMode::normal : FillMode::witness;
}

int64_t exact_fill_magnitude(const Problem &problem) {
  // Another op sums the products of its equivalent conv (core/problem/op.hpp).
  const Problem p = equivalent_conv(problem);
  // The most products any output element of any direction sums: forward C/G * kernel volume, data gradient
  // K/G * kernel volume (an upper bound), weight gradient N * output volume.
  const double terms = static_cast<double>(std::max({
      p.in_channels_per_group() * p.kernel_volume(),
      p.out_channels_per_group() * p.kernel_volume(),
      p.batch * p.out_volume(),
  }));
  // Partial sums live in the accumulation format, so its exact range is the limit; the stored formats bound only
  // the values drawn (a result past a narrow destination's exact range is rounded once, which the bound allows).
  // A destination with a small range (float16's 65504) must hold the results too, or they round to infinity.
  const Precision &f = p.precision;
  const double limit = std::min(info(f.acc).exact_sum_limit, info(f.dst).largest_finite);
  double largest = static_cast<double>(info(f.src).max_exact_fill);
  for (DType dtype : {f.weight, f.dst}) largest = std::min(largest, static_cast<double>(info(dtype).max_exact_fill));
  const double magnitude = std::floor(std::sqrt(limit / terms));
  return static_cast<int64_t>(std::clamp(magnitude, 1.0, largest));
}

Tensor fill_tensor(const Problem &problem, Role role, FillMode mode, uint64_t seed, uint64_t case_index,
                   FillSpecial special) {
  return fill_values(dtype_of(problem, role), shape_of(problem, role), resolve_fill_mode(mode, seed, case_index, problem),
                     seed, case_index, info(role).fill_stream, exact_fill_magnitude(problem),
                     special_fill(problem, role, special, seed, case_index));
}

Tensor fill_values(DType dtype, const Shape &shape, FillMode mode, uint64_t seed, uint64_t case_index,
                   uint64_t stream, int64_t magnitude, const SpecialFill &special) {
  if (special.kind != FillSpecial::none || special.scale != 1)
    return special_values(dtype, shape, mode, seed, case_index, stream, magnitude, special);
  Tensor tensor = Tensor::uninitialized(dtype, shape); // every element is written below
  const uint64_t key = stream_key(seed, case_index, stream);
  const int64_t count = tensor.size();
  const FillMode resolved = resolve_fill_mode(mode, seed, case_index);
  visit_typed(tensor, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    if (resolved == FillMode::exact || resolved == FillMode::witness) {
      const bool positive = resolved == FillMode::witness;
      for (int64_t i = 0; i < count; ++i) {
        const uint64_t bits = mix64(key ^ static_cast<uint64_t>(i));
        out[i] = round_to<T>(static_cast<double>(positive ? witness_value(bits, magnitude) : exact_value(bits, magnitude)));
      }
      return;
    }
    for (int64_t i = 0; i < count; ++i)
      out[i] = round_to<T>(standard_normal(mix64(key ^ static_cast<uint64_t>(i))));
  });
  return tensor;
}

} // namespace convcheck
