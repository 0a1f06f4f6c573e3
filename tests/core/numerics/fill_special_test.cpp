// The special kinds of core/numerics/fill_special.hpp: each makes its values in each tensor's own format, keeps the
// guarantees of the fill it joins, is drawn at its share and survives a case file (tests/oracles/special_fill_test.cpp:
// the strategies that are right pass on it while the injected bug it is for fails).

#include "core/numerics/fill_special.hpp"

#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/numerics/tolerance.hpp"
#include "core/problem/descriptor.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {
namespace {

const char *const f16 = "mb2ic3ih6iw5oc4kh3kw2_f16:f16:f16:f32";
const char *const bf16 = "mb2ic3ih6iw5oc4kh3kw2_bf16:bf16:bf16:f32";

// The first case index of seed 3 whose case carries `kind` under `fill`, filled so.
Case case_carrying(const char *descriptor, FillMode fill, FillSpecial kind) {
  const Problem problem = parse_descriptor(descriptor);
  for (uint64_t index = 0;; ++index) {
    Case c = make_case(problem, fill, 3, index, kind);
    if (c.special == kind) return c;
  }
}

TEST(FillSpecial, SubnormalsAreTheTensorsOwnFormats) {
  for (const char *descriptor : {f16, bf16, "mb2ic3ih6iw5oc4kh3kw2"}) {
    const Case c = case_carrying(descriptor, FillMode::normal, FillSpecial::subnormal);
    int64_t carried = 0;
    for (Role role : input_roles) {
      const DTypeInfo &format = info(c[role].dtype());
      int64_t subnormals = 0;
      for (int64_t i = 0; i < c[role].size(); ++i) {
        const double x = c[role].get(i);
        subnormals += x != 0 && std::abs(x) < format.smallest_normal;
      }
      // A carrying tensor is all subnormals, another has none (normal draws: 5 in 100,000 for float16).
      if (carries_special(c.special, c.seed, c.case_index, role)) {
        EXPECT_EQ(subnormals, c[role].size()) << descriptor << " " << to_string(role);
        ++carried;
      } else {
        EXPECT_EQ(subnormals, 0) << descriptor << " " << to_string(role);
      }
    }
    EXPECT_GE(carried, 1) << descriptor;
  }
}

TEST(FillSpecial, NearMaxKeepsEverySumFinite) {
  for (const char *descriptor : {f16, bf16, "mb2ic3ih6iw5oc4kh3kw2", "mb2ic3ih6iw5oc4kh3kw2_f64"}) {
    const Case c = case_carrying(descriptor, FillMode::normal, FillSpecial::near_max);
    for (Role role : input_roles) {
      if (!carries_special(c.special, c.seed, c.case_index, role)) continue;
      const double largest = info(c[role].dtype()).largest_finite;
      for (int64_t i = 0; i < c[role].size(); ++i) ASSERT_GE(std::abs(c[role].get(i)), largest * (1 - 0x1p-5));
    }
    const Reference reference = compute_reference(c);
    for (const auto &[direction, expected] : reference.directions) {
      const double largest = info(result_dtype(c.problem, direction)).largest_finite;
      for (size_t i = 0; i < expected.bound.size(); ++i) {
        ASSERT_TRUE(std::isfinite(expected.bound[i])) << descriptor;
        ASSERT_LT(std::abs(expected.expected.get(static_cast<int64_t>(i))), largest / 4) << descriptor;
      }
    }
  }
}

TEST(FillSpecial, TiesLandOnTiesAndStayExact) {
  const Case c = case_carrying(bf16, FillMode::exact, FillSpecial::tie);
  int64_t ties = 0, elements = 0;
  for (Role role : input_roles)
    for (int64_t i = 0; i < c[role].size(); ++i) ASSERT_EQ(c[role].get(i), std::nearbyint(c[role].get(i)));
  const Reference reference = compute_reference(c);
  for (const auto &[direction, expected] : reference.directions)
    for (size_t i = 0; i < expected.bound.size(); ++i, ++elements) ties += expected.bound[i] == 0 &&
        std::abs(expected.expected.get(static_cast<int64_t>(i))) > 256;
  EXPECT_GE(ties, elements / 10) << ties << " of " << elements;
}

TEST(FillSpecial, TheReferenceRequiresTheEvenNeighbourAtATie) {
  ErrorBound bound(DType::float32, DType::bfloat16, true);
  EXPECT_EQ(bound.tie_rounding(300, 257), 256); // 256 even, 258 odd
  EXPECT_EQ(bound.tie_rounding(300, 259), 260);
  EXPECT_TRUE(std::isnan(bound.tie_rounding(300, 258))); // representable
  EXPECT_TRUE(std::isnan(bound.tie_rounding(600, 513))); // 512 and 516 are not equally far
  EXPECT_TRUE(std::isnan(ErrorBound(DType::float32, DType::bfloat16, false).tie_rounding(300, 257)));
}

TEST(FillSpecial, SignedZerosAreNegativeZeros) {
  const Case c = case_carrying(f16, FillMode::exact, FillSpecial::signed_zero);
  int64_t negative_zeros = 0, elements = 0;
  for (Role role : input_roles)
    if (carries_special(c.special, c.seed, c.case_index, role))
      for (int64_t i = 0; i < c[role].size(); ++i, ++elements)
        negative_zeros += c[role].get(i) == 0 && std::signbit(c[role].get(i));
  EXPECT_GT(negative_zeros, elements / 4);
  EXPECT_LT(negative_zeros, 3 * elements / 4);
}

TEST(FillSpecial, KindsStayOutOfFillsWhoseGuaranteesTheyBreak) {
  const Problem problem = parse_descriptor(bf16);
  EXPECT_FALSE(special_applies(FillSpecial::subnormal, FillMode::exact, problem));
  EXPECT_FALSE(special_applies(FillSpecial::near_max, FillMode::exact, problem));
  EXPECT_FALSE(special_applies(FillSpecial::tie, FillMode::normal, problem));
  EXPECT_FALSE(special_applies(FillSpecial::tie, FillMode::exact, parse_descriptor("mb2ic3ih6oc4kh3"))); // no narrowing
  for (FillSpecial kind : special_kinds) EXPECT_FALSE(special_applies(kind, FillMode::witness, problem));
  EXPECT_EQ(make_case(problem, FillMode::witness, 3, 0, FillSpecial::subnormal).special, FillSpecial::none);
}

TEST(FillSpecial, SharesOfAMixedDraw) {
  const Problem problem = parse_descriptor(f16);
  std::map<FillSpecial, int> normal, exact;
  const int cases = 16000;
  for (uint64_t index = 0; index < static_cast<uint64_t>(cases); ++index) {
    ++normal[resolve_fill_special(FillSpecial::mixed, FillMode::normal, 5, index, problem)];
    ++exact[resolve_fill_special(FillSpecial::mixed, FillMode::exact, 5, index, problem)];
  }
  EXPECT_NEAR(normal[FillSpecial::subnormal], cases / 8, cases / 80);
  EXPECT_NEAR(normal[FillSpecial::near_max], cases / 8, cases / 80);
  EXPECT_NEAR(normal[FillSpecial::signed_zero], cases / 16, cases / 80);
  EXPECT_NEAR(exact[FillSpecial::tie], cases / 2, cases / 80);
  EXPECT_NEAR(exact[FillSpecial::signed_zero], cases / 16, cases / 80);
}

TEST(FillSpecial, CaseFilesKeepTheKind) {
  const Case c = case_carrying(f16, FillMode::normal, FillSpecial::subnormal);
  const std::string path = (std::filesystem::temp_directory_path() / "convcheck-fill-special.h5").string();
  write_case_file(path, CaseFile{make_case(c.problem, c.fill, c.seed, c.case_index, c.special), {}, {}});
  const CaseFile read = read_case_file(path);
  EXPECT_EQ(read.conv_case.special, FillSpecial::subnormal);
  for (Role role : input_roles)
    for (int64_t i = 0; i < c[role].size(); ++i) ASSERT_EQ(read.conv_case[role].get(i), c[role].get(i));
  std::filesystem::remove(path);
}

} // namespace
} // namespace convcheck
