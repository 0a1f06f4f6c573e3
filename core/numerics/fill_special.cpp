#include "core/numerics/fill_special.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/numerics/fill.hpp"
#include "core/problem/mix64.hpp"
#include "core/problem/op.hpp"
#include "core/problem/witness_reach.hpp"

namespace convcheck {

namespace {

// Independent of the bits that resolve the fill mode (fill.cpp's 0x6d69786564, "mixed").
uint64_t case_bits(uint64_t seed, uint64_t case_index) {
  return mix64(seed ^ mix64(case_index ^ 0x7370656369616cULL)); // "special"
}

size_t role_index(Role role) {
  return static_cast<size_t>(std::find(input_roles.begin(), input_roles.end(), role) - input_roles.begin());
}

// The directions of `problem`'s op whose result is rounded to a format narrower than the accumulation: where a
// tie of the final rounding can be judged.
std::vector<Direction> narrowing_directions(const Problem &problem) {
  std::vector<Direction> narrowing;
  for (const DirectionInfo &d : directions(problem.op))
    if (info(result_dtype(problem, d.direction)).unit_roundoff > info(problem.precision.acc).unit_roundoff)
      narrowing.push_back(d.direction);
  return narrowing;
}

// The most products any element of any direction sums (as exact_fill_magnitude counts them).
double most_terms(const Problem &problem) {
  const Problem p = equivalent_conv(problem);
  return static_cast<double>(std::max({p.in_channels_per_group() * p.kernel_volume(),
                                       p.out_channels_per_group() * p.kernel_volume(), p.batch * p.out_volume()}));
}

} // namespace

std::string to_string(FillSpecial special) {
  switch (special) {
  case FillSpecial::none: return "none";
  case FillSpecial::subnormal: return "subnormal";
  case FillSpecial::near_max: return "near_max";
  case FillSpecial::tie: return "tie";
  case FillSpecial::signed_zero: return "signed_zero";
  case FillSpecial::mixed: return "mixed";
  }
  return "?";
}

FillSpecial parse_fill_special(const std::string &text) {
  for (FillSpecial special : {FillSpecial::none, FillSpecial::subnormal, FillSpecial::near_max, FillSpecial::tie,
                              FillSpecial::signed_zero, FillSpecial::mixed})
    if (text == to_string(special)) return special;
  throw InputError(
      fmt::format("fill special '{}' is not none, subnormal, near_max, tie, signed_zero or mixed", text));
}

bool special_applies(FillSpecial special, FillMode resolved, const Problem &problem) {
  switch (special) {
  case FillSpecial::subnormal:
  case FillSpecial::near_max: return resolved == FillMode::normal;
  case FillSpecial::tie: return resolved == FillMode::exact && !narrowing_directions(problem).empty();
  case FillSpecial::signed_zero: return resolved == FillMode::normal || resolved == FillMode::exact;
  case FillSpecial::none:
  case FillSpecial::mixed: break;
  }
  return false;
}

FillSpecial resolve_fill_special(FillSpecial special, FillMode resolved, uint64_t seed, uint64_t case_index,
                                 const Problem &problem) {
  FillSpecial drawn = special;
  if (special == FillSpecial::mixed) {
    const uint64_t sixteenth = case_bits(seed, case_index) % 16;
    drawn = FillSpecial::none;
    if (resolved == FillMode::normal)
      drawn = sixteenth < 2   ? FillSpecial::subnormal
              : sixteenth < 4 ? FillSpecial::near_max
              : sixteenth < 5 ? FillSpecial::signed_zero
                              : FillSpecial::none;
    else if (resolved == FillMode::exact)
      drawn = sixteenth < 8 ? FillSpecial::tie : sixteenth < 9 ? FillSpecial::signed_zero : FillSpecial::none;
  }
  return special_applies(drawn, resolved, problem) ? drawn : FillSpecial::none;
}

bool carries_special(FillSpecial special, uint64_t seed, uint64_t case_index, Role role) {
  const uint64_t bits = mix64(case_bits(seed, case_index));
  const size_t index = role_index(role);
  switch (special) {
  case FillSpecial::none:
  case FillSpecial::mixed: return false;
  case FillSpecial::tie: return true;
  // One tensor: a product of two subnormals is far below any result format's resolution, so a second carrying
  // tensor would only make sums a flushed input cannot change.
  case FillSpecial::subnormal:
  case FillSpecial::near_max: return index == bits % input_roles.size();
  case FillSpecial::signed_zero: break;
  }
  const uint64_t chosen = (bits >> 8) % 8; // a bit per role; none chosen falls back to one
  return chosen == 0 ? index == bits % input_roles.size() : ((chosen >> index) & 1) != 0;
}

SpecialFill special_fill(const Problem &problem, Role role, FillSpecial special, uint64_t seed, uint64_t case_index) {
  SpecialFill fill;
  if (carries_special(special, seed, case_index, role)) fill.kind = special;
  if (special == FillSpecial::near_max && fill.kind == FillSpecial::none) {
    // Every product of a big element (at most M) and a scaled one (at most 8 * scale), summed over the most terms
    // any element takes, stays below a quarter of the smallest largest-finite among the accumulation and results.
    const Precision &f = problem.precision;
    double limit = info(f.acc).largest_finite;
    for (DType dtype : {f.src, f.weight, f.dst}) limit = std::min(limit, info(dtype).largest_finite);
    double big = 0;
    for (Role other : input_roles)
      if (carries_special(special, seed, case_index, other)) big = info(dtype_of(problem, other)).largest_finite;
    fill.scale = std::exp2(std::floor(std::log2(limit / (32.0 * big * most_terms(problem)))));
  }
  if (fill.kind == FillSpecial::tie) {
    // Positive values in [1, m] sum on average terms * ((m + 1) / 2)^2: aim the direction drawn at 1.5 L, L its
    // result format's exact integer limit, between which and 2L every odd sum is a tie.
    const std::vector<Direction> narrowing = narrowing_directions(problem);
    const Direction aimed = narrowing[mix64(case_bits(seed, case_index) ^ 0x7469ULL) % narrowing.size()];
    const double limit = info(result_dtype(problem, aimed)).exact_sum_limit;
    const auto terms = static_cast<double>(
        std::max<int64_t>(1, reduction_terms(equivalent_conv(problem), conv_direction(problem.op, aimed))));
    const double magnitude = std::floor(2 * std::sqrt(1.5 * limit / terms)) - 1;
    fill.magnitude = static_cast<int64_t>(std::clamp(magnitude, 1.0, static_cast<double>(exact_fill_magnitude(problem))));
  }
  return fill;
}

double special_subnormal(DType dtype, uint64_t bits) {
  const DTypeInfo &format = info(dtype);
  const auto count = static_cast<uint64_t>(format.smallest_normal / format.smallest_subnormal); // 2^(p-1)
  const double value = static_cast<double>(1 + (bits >> 1) % (count - 1)) * format.smallest_subnormal;
  return bits & 1 ? -value : value;
}

double special_near_max(DType dtype, uint64_t bits) {
  const DTypeInfo &format = info(dtype);
  // The largest finite is (2 - 2u) * 2^emax; the spacing of the top binade 2u * 2^emax.
  const double spacing = 2 * format.unit_roundoff * format.largest_finite / (2 - 2 * format.unit_roundoff);
  const double value = format.largest_finite - static_cast<double>((bits >> 1) % 8) * spacing;
  return bits & 1 ? -value : value;
}

} // namespace convcheck
