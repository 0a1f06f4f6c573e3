// benchdnn's deconv driver from the command line: `check --format benchdnn --driver deconv` on verbatim lines of
// oneDNN's deconv lists, the driver's usage errors, and `repro --emit benchdnn` on a deconv finding.

#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;

Invocation convcheck(const std::string &args) { return convcheck::testing::run_convcheck(args); }

class BenchdnnDeconv : public convcheck::testing::ScratchDirectoryTest {};

TEST_F(BenchdnnDeconv, OneDnnDeconvLinesAllAgree) {
  const std::string batch = std::string(CONVCHECK_SOURCE_DIR) + "/tests/core/problem/benchdnn/deconv_lines";
  const Invocation run = convcheck("check --format benchdnn --driver deconv --batch " + batch + " --report " +
                                   path("r.json") + " --corpus " + path("findings"));
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json report = read_json(path("r.json"));
  EXPECT_EQ(report["cases"], 25) << report.dump(); // every descriptor line of the file: none is over the cap
  EXPECT_TRUE(report["failures"].empty()) << report.dump();
}

TEST_F(BenchdnnDeconv, AnUnknownDriverOrADriverWithoutBenchdnnIsOneLine) {
  const Invocation unknown = convcheck("check --format benchdnn --driver pool ic2ih5oc2kh3");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.output, "convcheck: error: driver 'pool' is not conv or deconv\n");
  const Invocation native = convcheck("check --driver deconv ic2ih5oc2kh3");
  EXPECT_EQ(native.status, 2);
  EXPECT_EQ(native.output, "convcheck: error: --driver deconv reads benchdnn lines: give --format benchdnn (a native "
                           "descriptor names its op itself)\n");
}

TEST_F(BenchdnnDeconv, ADeconvFindingIsEmittedForTheDeconvDriverAndReadsBack) {
  // deconv_outpad_zero leaves the output_padding row zero: found on the forward direction (FWD_D).
  const Invocation check = convcheck("check --strategies naive --inject deconv_outpad_zero --no-shrink --corpus " +
                                     path("findings") + " --report " + path("r.json") +
                                     " mb1ic3ih5iw4oc2kh3kw1sh2pt1pb1oph1_deconv");
  ASSERT_EQ(check.status, 1) << check.output;
  const nlohmann::json report = read_json(path("r.json"));
  ASSERT_FALSE(report["failures"].empty()) << report.dump();
  const std::string case_path = report["failures"][0]["repro"];
  // An injected bug's finding, which oneDNN does not have: written anyway, to test the line (cmd/emit.cpp).
  const Invocation emit = convcheck("repro " + case_path + " --emit benchdnn --emit-anyway");
  ASSERT_EQ(emit.status, 0) << emit.output;
  // Height: out = 4 * 2 - 1 - 1 + 2 + 1 + 1 = 10, the output padding in the output size. IOHW weight: "bacd".
  const std::string descriptor = "mb1_ic3oc2_ih5oh10kh3sh2dh0ph1_iw4ow4kw1sw1dw0pw0";
  EXPECT_NE(emit.output.find("./benchdnn --deconv --dir=FWD_D --dt=f32 --stag=abcd --wtag=bacd --dtag=abcd "
                             "--alg=direct --attr-scratchpad=user " + descriptor + "\n"),
            std::string::npos)
      << emit.output;
  // Read back with the deconv driver, the same deconv (the naive loops agree with themselves: exit 0, one case).
  const Invocation back = convcheck("check --format benchdnn --driver deconv --strategies naive --report " +
                                    path("back.json") + " --corpus " + path("findings") + " " + descriptor);
  ASSERT_EQ(back.status, 0) << back.output;
  EXPECT_EQ(read_json(path("back.json"))["cases"], 1);
}

} // namespace
