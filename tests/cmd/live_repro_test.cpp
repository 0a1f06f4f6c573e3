// A fix confirmed (issue 26): a case found in a buggy server, replayed with `repro --live` against the fixed server,
// exits 0, and against the buggy one 1; without --live the results the file recorded still fail it. Every repro
// row names the implementation, as its hello did; so do the reports. The servers are
// tests/interop/faulty_server.py's: `wrong` (grad_weight times 1.01 for grouped problems) and `none` (correct).
// After the finding (issue 38): nothing the replay named may pass silently, and a held-back finding replays lifted.

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

  // A reproducer that runs PyTorch or oneDNN cannot show a bug of the user's own server: refused, one line, exit 2.
  for (const char *kind : {"pytorch", "benchdnn"}) {
    const Invocation emit = run_convcheck("repro " + saved + " --emit " + kind);
    EXPECT_EQ(emit.status, 2) << emit.output;
    EXPECT_NE(emit.output.find("is a finding of mine, which "), std::string::npos) << emit.output;
  }

  const std::string fixed = " --external-server 'mine=" + faulty_server + " none 1'";
  const Invocation recorded = run_convcheck("repro " + saved + fixed);
  EXPECT_EQ(recorded.status, 1) << recorded.output; // the buggy results the file recorded still fail
  EXPECT_TRUE(recorded.output.ends_with("live: passed; recorded result still fails (--live judges only what runs "
                                        "now)\n"))
      << recorded.output;
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

// No silent pass after the finding (issue 38): an implementation named for the replay that is offered nothing (a
// typo in its support list) or declines everything judged nothing, and repro, repro --live, corpus run and shrink
// end with exit 2 and a line naming it and why, never "all agreed" or a pass; corpus run counts the case skipped.
// Where the cause is a declaration other than the finder's, they say which field differs.
TEST_F(LiveRepro, AnImplementationJudgedOnNothingIsNoPass) {
  const Invocation found = run_convcheck("fuzz --strategies naive --external-server 'mine=" + faulty_server +
                                         " wrong 1' --cases 40 --threads 1 --max-saved 1 --no-shrink --corpus " +
                                         path("findings") + " --report " + path("r.json"));
  ASSERT_EQ(found.status, 1) << found.output;
  const std::string saved = read_json(path("r.json"))["failures"][0]["repro"];
  ASSERT_EQ(run_convcheck("corpus add " + saved + " " + path("corpus")).status, 0);
  for (const char *fault : {"typo", "unsupported"}) {
    const std::string server = " --external-server 'mine=" + faulty_server + " " + std::string(fault) + " 1'";
    for (const std::string &command : {"repro --live " + saved, "repro " + saved, "corpus run " + path("corpus")}) {
      const Invocation replay = run_convcheck(command + server);
      EXPECT_EQ(replay.status, 2) << command << fault << replay.output;
      EXPECT_NE(replay.output.find("strategy mine judged none of the 1 cases offered; skipped: "), std::string::npos)
          << replay.output;
      EXPECT_EQ(replay.output.find("all agreed"), std::string::npos) << replay.output;
      // The case file keeps how mine was declared when it found the case (/finding declaration): a hello that
      // declares otherwise now is said in one line, naming the field.
      const bool redeclared = std::string(fault) == "typo";
      EXPECT_EQ(replay.output.find("  mine is declared otherwise than when it found this case: formats none (mixed) "
                                   "(when found: float32,float64 (mixed)): it is offered other problems now") != std::string::npos,
                redeclared)
          << command << fault << replay.output;
    }
    const Invocation shrink = run_convcheck("shrink " + saved + " --out " + path("shrunk") + server);
    EXPECT_EQ(shrink.status, 2) << shrink.output;
    EXPECT_NE(shrink.output.find("which the case was saved for, was not judged here: "), std::string::npos)
        << shrink.output;
    const Invocation corpus = run_convcheck("corpus run " + path("corpus") + server);
    EXPECT_NE(corpus.output.find("0 passed, 1 skipped, 0 failed"), std::string::npos) << corpus.output;
    EXPECT_NE(corpus.output.find("which the case was saved for, was not judged: "), std::string::npos)
        << corpus.output;
  }
}

// A finding made with a known bug's hold-back lifted (--run-held-back) keeps that in its case file
// (/finding/held_back_lifted), and the repro line printed for it reproduces it: repro and repro --live replay the
// finding's strategy lifted, saying so (issue 38). XNNPACK 2022's subconv2d crash (corpus/upstream/) is the bug.
TEST_F(LiveRepro, AFindingMadeWithItsHoldBackLiftedReplaysLifted) {
  const Invocation found = run_convcheck("check mb1ic1iw1oc1kw3sw3pl1pr1_deconv --strategies naive,xnnpack "
                                         "--run-held-back --corpus " + path("findings") + " --report " + path("r.json"));
  if (found.status != 1) GTEST_SKIP() << "XNNPACK here does not show its held-back subconv2d crash: " << found.output;
  const std::string saved = read_json(path("r.json"))["failures"][0]["repro"];
  for (const std::string &command : {"repro --live " + saved, "repro " + saved}) {
    const Invocation replay = run_convcheck(command);
    EXPECT_EQ(replay.status, 1) << command << replay.output;
    EXPECT_NE(replay.output.find("found with xnnpack's known-bug hold-backs lifted (--run-held-back): replayed so"),
              std::string::npos)
        << replay.output;
    EXPECT_NE(replay.output.find("failed   killed by signal"), std::string::npos) << replay.output;
  }
}

} // namespace
