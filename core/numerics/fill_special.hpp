#pragma once
// Special values mixed into the fills (core/numerics/fill.hpp): the corners of each storage format that normal and
// integer draws almost never reach (issue 39: a float16 subnormal in about 5 of 100,000 normal elements, none in
// the integer fills). A case carries at most one kind, drawn from (seed, case index) like its fill; which of its
// input tensors carry it is drawn per tensor from (seed, case index, role). A kind is applied only in the fills
// whose guarantees it keeps:
//
// - subnormal (normal fill): every element of one tensor a subnormal of that tensor's storage format (random
//   significand and sign), so its outputs are made of subnormal products and a kernel that reads them as zero
//   (denormals-are-zero, Arm's FZ16) is off by far more than the bound. Not in exact or witness: not integers;
// - near_max (normal fill): one tensor's elements among the eight largest finite values of its format (either
//   sign); every other input is a normal draw clamped to |8| and scaled by a power of two so that every sum of
//   |products| of every direction stays below a quarter of the smallest largest-finite of the accumulation and
//   result formats: a correct accumulation and its one rounding never overflow, and the bound stays finite. A scaled
//   value below its format's normal range is raised to the smallest normal (or, past 4,096 float16 terms, where
//   that would break the cap, flushed to zero), so that subnormals stay the subnormal kind's and a finding shrinks
//   to a small problem rather than to one long enough to scale its inputs into them.
//   Not in exact or witness: the sums would leave the exact range;
// - tie (exact fill, rows where some direction's result is narrower than its accumulation): positive integers no
//   larger than exact fill's magnitude, sized so that one direction's sums (drawn per case) land mostly between the
//   result format's exact integer limit L and 4L, where half the integers are exact ties of the final rounding
//   (bfloat16: odd sums in (256, 512)). The sums stay exact, so exact fill's guarantee holds and the reference
//   (core/numerics/reference.cpp) requires the even neighbour: round-half-away or truncation bugs show;
// - signed_zero (normal and exact fills): half the elements of a carrying tensor -0. An exact zero result may be
//   +0 or -0: a correct accumulator started at +0 (oneDNN's, PyTorch's) gives +0 on a sum of -0 products, one
//   started from its first product -0, so the reference requires neither sign.
//
// Witness fill carries none: its guarantee is positive integers, every partial sum growing.

#include <cstdint>
#include <string>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

enum class FillMode; // core/numerics/fill.hpp, which includes this

enum class FillSpecial { none, subnormal, near_max, tie, signed_zero, mixed };

/// Every kind a case can carry (not none, not mixed), in a fixed order.
inline constexpr FillSpecial special_kinds[] = {FillSpecial::subnormal, FillSpecial::near_max, FillSpecial::tie,
                                                FillSpecial::signed_zero};

std::string to_string(FillSpecial special);
/// Throws InputError for anything but none, subnormal, near_max, tie, signed_zero or mixed.
FillSpecial parse_fill_special(const std::string &text);

/// Whether `special` keeps the guarantees of a case of `problem` filled `resolved` (normal, exact or witness).
bool special_applies(FillSpecial special, FillMode resolved, const Problem &problem);

/// The kind case `case_index` carries: `mixed` draws one (a normal case: subnormal 1/8, near_max 1/8, signed_zero
/// 1/16; an exact case: tie 1/2 on rows with a narrowing result, signed_zero 1/16; otherwise none); another kind is
/// carried when it applies; none never.
FillSpecial resolve_fill_special(FillSpecial special, FillMode resolved, uint64_t seed, uint64_t case_index,
                                 const Problem &problem);

/// Whether input `role` carries the case's kind `special` (resolved): subnormal and near_max one role, tie every
/// role, signed_zero each role with probability 1/2 and at least one.
bool carries_special(FillSpecial special, uint64_t seed, uint64_t case_index, Role role);

/// How one tensor of a case is filled, beyond its mode: the kind it carries, or the power of two a near_max case
/// scales its other tensors by, and tie's magnitude.
struct SpecialFill {
  FillSpecial kind = FillSpecial::none; // carried by this tensor
  double scale = 1;                     // near_max: what this tensor's normal draws are multiplied by
  int64_t magnitude = 0;                // tie: the largest integer drawn
};

/// The SpecialFill of input `role` of case `case_index` of `problem` carrying `special` (resolved).
SpecialFill special_fill(const Problem &problem, Role role, FillSpecial special, uint64_t seed, uint64_t case_index);

/// A subnormal of `dtype` from `bits`: j times its smallest subnormal, 1 <= j below the normal range, either sign.
double special_subnormal(DType dtype, uint64_t bits);
/// One of the eight largest finite values of `dtype` from `bits`, either sign.
double special_near_max(DType dtype, uint64_t bits);

} // namespace convcheck
