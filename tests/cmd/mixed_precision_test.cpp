// Mixed precision reaches outside implementations that declare the formats (issue 26): a problem whose tensors and
// accumulation mix float32 and float64 is sent to the NumPy example server and the example plugin, which declare
// both, and judged; an implementation declaring float32 only is not sent it, and says why.

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;
using convcheck::testing::run_convcheck;

const std::string numpy_server = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/oracles/outside/python/numpy_server.py";
const std::string direct_plugin = CONVCHECK_PLUGIN_DIR "/libdirect_plugin.so";
const std::string wrong_plugin = CONVCHECK_PLUGIN_DIR "/libwrong_plugin.so";

class MixedPrecision : public convcheck::testing::ScratchDirectoryTest {
protected:
  // check of mixed-precision problems with `named` (--external-server/--plugin options); the report.
  nlohmann::json check(const std::string &named, int expected_status) {
    const Invocation run = run_convcheck("check mb2ic4ih6oc6kh3_f64:f32:f32:f64 ic3iw7oc2kw2pr-1_f32:f64:f64:f64 " +
                                         named + " --threads 1 --corpus " + path("findings") + " --report " +
                                         path("r.json"));
    EXPECT_EQ(run.status, expected_status) << run.output;
    return read_json(path("r.json"));
  }
};

TEST_F(MixedPrecision, ReachesAServerAndAPluginThatDeclareBothFormats) {
  const nlohmann::json report =
      check("--external-server 'ext=" + numpy_server + "' --plugin dp=" + direct_plugin, 0);
  for (const char *name : {"ext", "dp"}) {
    const nlohmann::json &tally = report["strategies"][name];
    EXPECT_EQ(tally["passed"].get<int>() + tally["weak"].get<int>(), 6) << name << ": " << tally;
    EXPECT_EQ(tally["skipped"], 0) << name << ": " << tally;
  }
  // The built-in strategies compute one format, or one row of the precision table, at a time and say so.
  EXPECT_EQ(report["strategies"]["naive"]["skip_reasons"].value(
                "mixed formats float64:float32:float32:float64 are not supported (one of: float32, float64, "
                "f32:f32:f32:f64, bf16:bf16:bf16:f32, f16:f16:f16:f32, bf16:bf16:f32:f32, f16:f16:f32:f32, "
                "f32:bf16:bf16:f32, bf16:f32:bf16:f32, f32:f16:f16:f32, f16:f32:f16:f32)",
                0),
            3);
}

TEST_F(MixedPrecision, AnImplementationOfOneFormatIsNotSentIt) {
  // wrong_plugin declares float32 only (and forward only): it judges nothing here, so the run exits 2.
  const nlohmann::json report = check("--plugin wrong=" + wrong_plugin, 2);
  EXPECT_EQ(report["strategies"]["wrong"]["skip_reasons"].value(
                "mixed formats float64:float32:float32:float64: float64 is not supported (formats: float32)", 0),
            3);
}

} // namespace
