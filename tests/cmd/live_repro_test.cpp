// A fix confirmed (issue 26): a case found in a buggy server, replayed with `repro --live` against the fixed server,
// exits 0, and against the buggy one 1; without --live the results the file recorded still fail it. Every repro
// row names the implementation, as its hello did; so do the reports. The servers are
// tests/interop/faulty_server.py's: `wrong` (grad_weight times 1.01 for grouped problems) and `none` (correct).

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;
using convcheck::testing::run_convcheck;

const std::string faulty_server = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/tests/interop/faulty_server.py";

class LiveRepro : public convcheck::testing::ScratchDirectoryTest {};

TEST_F(LiveRepro, AFixedServerExitsZeroAndTheBuggyOneOne) {
  const Invocation found = run_convcheck("fuzz --strategies naive --external-server 'mine=" + faulty_server +
                                         " wrong 1' --cases 40 --threads 1 --max-saved 1 --corpus " +
                                         path("findings") + " --report " + path("r.json") + " --junit " +
                                         path("r.xml") + " --html " + path("r.html"));
  ASSERT_EQ(found.status, 1) << found.output;
  const nlohmann::json report = read_json(path("r.json"));
  const std::string saved = report["failures"][0]["repro"];
  // The implementation's own name, from its hello, in every report format.
  EXPECT_EQ(report["strategies"]["mine"]["implementation"]["name"], "faulty wrong");
  EXPECT_NE(found.output.find("implementations: mine is faulty wrong\n"), std::string::npos) << found.output;
  EXPECT_NE(convcheck::testing::read_text(path("r.xml")).find(
                "<property name=\"implementation.mine\" value=\"faulty wrong\"/>"),
            std::string::npos);
  EXPECT_NE(convcheck::testing::read_text(path("r.html")).find("<div class=\"implementation\">faulty wrong</div>"),
            std::string::npos);

  const std::string fixed = " --external-server 'mine=" + faulty_server + " none 1'";
  const Invocation recorded = run_convcheck("repro " + saved + fixed);
  EXPECT_EQ(recorded.status, 1) << recorded.output; // the buggy results the file recorded still fail
  const Invocation live = run_convcheck("repro --live " + saved + fixed);
  EXPECT_EQ(live.status, 0) << live.output;
  EXPECT_NE(live.output.find("  mine (faulty none) "), std::string::npos) << live.output;
  EXPECT_NE(live.output.find("(recorded results not judged: --live)"), std::string::npos) << live.output;
  EXPECT_TRUE(live.output.ends_with("all agreed\n")) << live.output;
  const Invocation still_buggy = run_convcheck("repro --live " + saved + " --external-server 'mine=" +
                                               faulty_server + " wrong 1'");
  EXPECT_EQ(still_buggy.status, 1) << still_buggy.output;
  EXPECT_TRUE(still_buggy.output.ends_with("failure reproduced\n")) << still_buggy.output;
  // The walk of docs/external.md: the case into a corpus, where the fixed server passes and the buggy one fails.
  ASSERT_EQ(run_convcheck("corpus add " + saved + " " + path("corpus")).status, 0);
  EXPECT_EQ(run_convcheck("corpus run --live " + path("corpus") + fixed).status, 0);
  EXPECT_EQ(run_convcheck("corpus run " + path("corpus") + " --external-server 'mine=" + faulty_server + " wrong 1'")
                .status,
            1);
}

} // namespace
