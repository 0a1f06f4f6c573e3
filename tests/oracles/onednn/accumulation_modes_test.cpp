// oneDNN's accumulation modes (oracles/onednn/accumulation_modes.hpp), a dispatch setting: the class each mode's
// result is judged under on each row and direction; the default draw and --acc-modes; the case file's /acc_mode; and
// end to end, a bf16 case under relaxed and any declaring sums in bfloat16 and passing, and a mode oneDNN refuses
// reported as oneDNN's error, not skipped.

#include "oracles/onednn/accumulation_modes.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/verify.hpp"
#include "core/storage/case_file.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {
namespace {

/// The class of `mode` on `descriptor`'s problem for `direction`, spelled ("not judged: ..." when none).
std::string class_of(const std::string &mode, const std::string &descriptor, Direction direction) {
  const AccumulationClass promised = accumulation_class(mode, parse_descriptor(descriptor), direction);
  return promised.not_judged.empty() ? to_string(promised.algorithm) : "not judged: " + promised.not_judged;
}

constexpr const char *conv = "mb1ic4ih6oc4kh3";

TEST(AccumulationModes, StrictAndF32AreDirectOnEveryRow) {
  for (const char *row : {"", "_bf16:bf16:bf16:f32", "_bf16:bf16:f32:f32", "_f16:f16:f16:f32", "_f16:f16:f32:f32"})
    for (const char *mode : {"", "strict", "f32"})
      for (Direction direction : all_directions)
        EXPECT_EQ(class_of(mode, std::string(conv) + row, direction), "direct") << row << " " << mode;
}

TEST(AccumulationModes, RelaxedAndAnyMayKeepSumsInTheNarrowerOfSrcAndDst) {
  for (const char *mode : {"relaxed", "any"}) {
    for (Direction direction : all_directions) {
      EXPECT_EQ(class_of(mode, conv, direction), "direct") << mode; // float32 src and dst: float32 sums
      EXPECT_EQ(class_of(mode, std::string(conv) + "_bf16:bf16:bf16:f32", direction), "direct:storage:bf16");
      EXPECT_EQ(class_of(mode, std::string(conv) + "_f16:f16:f16:f32", direction), "direct:storage:f16");
    }
    // A float32 result from bfloat16 inputs: "rounded to the src/dst datatype" allows the src's.
    EXPECT_EQ(class_of(mode, std::string(conv) + "_bf16:bf16:f32:f32", Direction::output), "direct:storage:bf16");
    EXPECT_EQ(class_of(mode, std::string(conv) + "_f16:f16:f32:f32", Direction::output), "direct:storage:f16");
    // A float32 data gradient (diff_src) from a bfloat16 output gradient (diff_dst): the diff_dst's format.
    EXPECT_EQ(class_of(mode, std::string(conv) + "_f32:bf16:bf16:f32", Direction::grad_data), "direct:storage:bf16");
  }
}

TEST(AccumulationModes, F16IsSumsInFloat16OnFloat16RowsOnly) {
  EXPECT_EQ(class_of("f16", std::string(conv) + "_f16:f16:f16:f32", Direction::grad_weight), "direct:storage:f16");
  EXPECT_EQ(class_of("f16", std::string(conv) + "_f16:f16:f32:f32", Direction::output), "direct:storage:f16");
  EXPECT_EQ(class_of("f16", std::string(conv) + "_bf16:bf16:bf16:f32", Direction::output),
            "not judged: accumulation mode f16 on bfloat16 data: float16 sums overflow where bfloat16 does not, which "
            "no bound here models");
  EXPECT_EQ(class_of("f16", conv, Direction::output).rfind("not judged: accumulation mode f16 on float32 data", 0), 0u);
}

TEST(AccumulationModes, TheClassIsSpelledAndReadBack) {
  const Algorithm bf16_sums = parse_algorithm("direct:storage:bf16");
  EXPECT_TRUE(bf16_sums.storage_sums);
  EXPECT_EQ(bf16_sums.sums_format, DType::bfloat16);
  EXPECT_EQ(to_string(bf16_sums), "direct:storage:bf16");
  EXPECT_EQ(describe(bf16_sums), "direct, sums in bfloat16");
  EXPECT_EQ(parse_algorithm("direct:storage:float16"), parse_algorithm("direct:storage:f16"));
  try {
    parse_algorithm("direct:storage:f32", "algorithm");
    FAIL() << "no error";
  } catch (const InputError &error) {
    EXPECT_STREQ(error.what(), "algorithm 'direct:storage:f32': sums kept in f32 are direct (name a storage format: "
                               "bf16, f16)");
  }
}

std::map<std::string, int> drawn_modes(int cases) {
  std::map<std::string, int> drawn;
  for (int index = 0; index < cases; ++index) ++drawn[drawn_setting(acc_mode_setting, 11, static_cast<uint64_t>(index))];
  return drawn;
}

TEST(AccumulationModes, DefaultDrawAndNamedModes) {
  set_drawn_values(acc_mode_setting, "");
  std::map<std::string, int> drawn = drawn_modes(16000);
  EXPECT_EQ(drawn.size(), 4u); // none set, strict, relaxed, any: f32 and f16 only when named
  EXPECT_NEAR(drawn[""], 11000, 300);
  EXPECT_NEAR(drawn["strict"], 3000, 250);
  EXPECT_NEAR(drawn["relaxed"], 1000, 150);
  EXPECT_NEAR(drawn["any"], 1000, 150);
  set_drawn_values(acc_mode_setting, "f32,f16");
  drawn = drawn_modes(4000);
  set_drawn_values(acc_mode_setting, "");
  EXPECT_EQ(drawn.size(), 2u);
  EXPECT_NEAR(drawn["f32"], 2000, 200);
  try {
    set_drawn_values(acc_mode_setting, "relaxed,s32");
    FAIL() << "no error";
  } catch (const InputError &error) {
    EXPECT_STREQ(error.what(), "--acc-modes relaxed,s32: unknown accumulation mode 's32' (known: strict, f32, relaxed, "
                               "any, f16)");
  }
  set_drawn_values(acc_mode_setting, "");
  EXPECT_EQ(find_dispatch_setting(acc_mode_setting)->assignment("relaxed"), ""); // no variable: a primitive attribute
}

TEST(AccumulationModes, ACaseFileKeepsItAsAccMode) {
  const std::string file = (std::filesystem::temp_directory_path() / "convcheck-acc-mode-test.h5").string();
  CaseFile saved{make_case(parse_descriptor("mb1ic2ih5oc2kh3"), FillMode::exact, 5, 9), {}, {}};
  saved.conv_case.settings[acc_mode_setting] = "any";
  write_case_file(file, saved);
  EXPECT_EQ(acc_mode_of(read_case_file(file).conv_case), "any");
  std::filesystem::remove(file);
}

/// A case of `descriptor` under accumulation mode `mode`, in this process (no ISA cap).
Case case_under(const std::string &descriptor, const std::string &mode, FillMode fill) {
  Case c = make_case(parse_descriptor(descriptor), fill, 3, 1);
  c.settings[acc_mode_setting] = mode;
  c.settings[isa_cap_setting] = "";
  return c;
}

// oneDNN 3.13's x64 convolutions read no accumulation mode: relaxed and any run the kernels strict runs, and their
// results pass under sums in bfloat16, each direction declaring that class.
TEST(AccumulationModes, RelaxedAndAnyBf16ResultsDeclareBf16SumsAndPass) {
  if (const std::string lacks = host_lacks("avx512_core"); !lacks.empty()) GTEST_SKIP() << lacks;
  for (const char *mode : {"relaxed", "any"})
    for (FillMode fill : {FillMode::exact, FillMode::normal}) {
      const Case c = case_under("mb2ic8ih7iw6oc16kh3kw2_bf16:bf16:bf16:f32", mode, fill);
      const Reference reference = compute_reference(c);
      for (OnednnPath path : {OnednnPath::plain, OnednnPath::any_weights, OnednnPath::blocked})
        for (const auto &[direction, run] : onednn_results(c, path)) {
          ASSERT_FALSE(run.result.empty()) << mode << " " << to_string(path) << " " << run.error << run.skipped;
          ASSERT_TRUE(run.algorithm.has_value());
          EXPECT_EQ(to_string(*run.algorithm), "direct:storage:bf16");
          const Outcome outcome = judge("onednn", direction, run.result, reference[direction], c, *run.algorithm);
          EXPECT_NE(outcome.verdict, Verdict::failed) << mode << " " << to_string(path) << ": " << outcome.detail;
          EXPECT_EQ(outcome.judged_under, "direct with sums in bfloat16");
        }
    }
}

// oneDNN 3.13 creates no convolution primitive descriptor under f32 or f16 (its attribute check takes only strict,
// relaxed and any): each direction fails with oneDNN's error, which says the mode is what it refuses.
TEST(AccumulationModes, AModeOneDnnRefusesIsAnErrorNamingIt) {
  for (const char *mode : {"f32", "f16"}) {
    const RunResults runs = onednn_results(case_under(conv, mode, FillMode::normal), OnednnPath::plain);
    for (const auto &[direction, run] : runs) {
      EXPECT_TRUE(run.skipped.empty()) << run.skipped;
      EXPECT_NE(run.error.find(fmt::format("refuses it with the mode {} (dnnl_accumulation_mode_{})", mode, mode)),
                std::string::npos)
          << run.error;
    }
  }
}

} // namespace
} // namespace convcheck
