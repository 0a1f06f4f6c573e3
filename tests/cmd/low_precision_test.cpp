// Low precision from the command line: bfloat16 and float16 descriptors run through every strategy that computes
// them, benchdnn batch files set formats with --dt and --cfg lines, and a case file whose low-precision dataset its
// format contradicts exits 2 with one line.

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"
#include <nlohmann/json.hpp>

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;

Invocation convcheck(const std::string &args) { return convcheck::testing::run_convcheck(args); }

class LowPrecision : public convcheck::testing::ScratchDirectoryTest {};

TEST_F(LowPrecision, EveryCombinationAgreesOnTheLoopStrategies) {
  const std::string descriptors = " g2mb2ic4ih6iw5oc4kh3kw2pt1_bf16:bf16:bf16:f32 mb3ic3id3ih4iw3oc5kd2kh2kw2_f16:f16:f16:f32"
                                  " mb2ic5iw9oc3kw4sw2_bf16:bf16:f32:f32 g3mb1ic3ih7oc3kh3dlh2_f16:f16:f32:f32";
  for (const char *fill : {"normal", "exact"}) {
    const Invocation run = convcheck("check --strategies naive,direct,im2col,layout,nhwc_hwio --threads 1 --fill " +
                                     std::string(fill) + " --report " + path("r.json") + " --corpus " +
                                     path("findings") + descriptors);
    ASSERT_EQ(run.status, 0) << run.output;
    const nlohmann::json report = read_json(path("r.json"));
    for (const char *strategy : {"naive", "direct", "im2col", "layout", "nhwc_hwio"})
      EXPECT_EQ(report["strategies"][strategy]["passed"].get<int>() + report["strategies"][strategy]["weak"].get<int>(),
                12)
          << strategy << " " << fill << " " << report["strategies"][strategy].dump();
  }
}

TEST_F(LowPrecision, BenchdnnDtAndCfgLinesSetTheFormatsOfTheLinesAfterThem) {
  std::ofstream(path("batch")) << "mb1ic2ih5oc2kh3\n--dt=bf16\nmb1ic2ih5oc2kh3\n--cfg=f16f16f32\nmb1ic2ih5oc2kh3\n"
                                  "--dt=u8:s8:u8\nmb1ic2ih5oc2kh3\n";
  const Invocation run = convcheck("check --format benchdnn --batch " + path("batch") +
                                   " --strategies naive --threads 1 --report " + path("r.json") + " --corpus " +
                                   path("findings"));
  ASSERT_EQ(run.status, 0) << run.output;
  // The u8 run is counted, once, in the summary of what was skipped (core/problem/benchdnn_file.hpp).
  EXPECT_NE(run.output.find(path("batch") + ": skipped 1 run: --dt=u8:s8:u8 (1)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(path("batch") + ": benchdnn makes 4 runs (1 file read); 3 in convcheck's scope, judged "
                                            "as 3 problems, each in every direction"),
            std::string::npos)
      << run.output;
  const nlohmann::json report = read_json(path("r.json"));
  EXPECT_EQ(report["cases"], 3) << report.dump();
}

TEST_F(LowPrecision, AStrategyWithoutTheCombinationSkipsItWithTheReason) {
  // legalized (float32 and float64 only) declares no low-precision row (onednn, which this test named before it
  // ran bf16, now computes it).
  const Invocation run = convcheck("check --strategies naive,legalized --threads 1 --report " + path("r.json") +
                                   " --corpus " + path("findings") + " mb1ic2ih5oc2kh3_bf16:bf16:bf16:f32");
  // legalized was named and judged nothing: no silent pass, the run ends with exit 2 and the reason.
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(run.output.starts_with("convcheck: error: strategy legalized judged none of the 1 cases offered; "
                                     "skipped: 3 x mixed formats bfloat16:bfloat16:bfloat16:float32 are not "
                                     "supported (one of: float32, float64)\n"))
      << run.output;
  const nlohmann::json report = read_json(path("r.json"));
  EXPECT_EQ(report["strategies"]["legalized"]["skipped"], 3) << report.dump();
  EXPECT_EQ(report["strategies"]["naive"]["passed"], 3) << report.dump();
}

} // namespace
