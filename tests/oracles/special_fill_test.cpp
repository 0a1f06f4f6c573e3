// Each special kind of core/numerics/fill_special.hpp forced on a row of its own: the loop strategies pass, the
// injected bug the kind is for fails (its campaign-level counts: tests/scripts/special_fill_mutants.sh).

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {
namespace {

const char *const f16 = "mb2ic3ih6iw5oc4kh3kw2_f16:f16:f16:f32";
const char *const bf16 = "mb2ic3ih6iw5oc4kh3kw2_bf16:bf16:bf16:f32";

TEST(FillSpecial, RightStrategiesPassAndTheBugFails) {
  struct Row {
    const char *descriptor;
    FillMode fill;
    FillSpecial kind;
    const char *bug;
  };
  for (const Row &row : {Row{f16, FillMode::normal, FillSpecial::subnormal, "half_input_daz"},
                         Row{bf16, FillMode::normal, FillSpecial::near_max, "bf16_through_f16"},
                         Row{bf16, FillMode::exact, FillSpecial::tie, "dst_round_half_away"},
                         Row{bf16, FillMode::exact, FillSpecial::tie, "dst_truncate"},
                         Row{f16, FillMode::exact, FillSpecial::signed_zero, "half_negative_zero"}}) {
    bool found = false;
    for (uint64_t index = 0; index < 40 && !found; ++index) {
      const Case c = make_case(parse_descriptor(row.descriptor), row.fill, 3, index, row.kind);
      if (c.special != row.kind) continue;
      const Reference reference = compute_reference(c);
      for (Direction direction : all_directions) {
        for (const char *right : {"naive", "direct", "layout"}) {
          ASSERT_NE(find_strategy(right), nullptr) << right;
          EXPECT_NE(verify_one(c, reference, *find_strategy(right), direction).verdict, Verdict::failed)
              << right << " " << to_string(row.kind) << " case " << index;
        }
        ASSERT_NE(find_strategy(row.bug), nullptr) << row.bug;
        found = found || verify_one(c, reference, *find_strategy(row.bug), direction).verdict == Verdict::failed;
      }
    }
    EXPECT_TRUE(found) << row.bug << " under " << to_string(row.kind);
  }
}

} // namespace
} // namespace convcheck
