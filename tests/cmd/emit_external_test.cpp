// `repro --emit external` (issue 38): a finding of the user's own implementation gets a reproducer too, a script
// that runs the command or server as convcheck ran it and judges it under the case's bound. It exits 1 while the bug
// is in and 0 once fixed (the script's --command runs the fixed one); it needs the implementation named as the
// campaign named it, and refuses one line, exit 2, without it.

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;
using convcheck::testing::run_convcheck;
using convcheck::testing::run_shell;

const std::string faulty_server = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/tests/interop/faulty_server.py";
const std::string numpy_forward = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/tests/interop/numpy_forward.py";

class EmitExternal : public convcheck::testing::ScratchDirectoryTest {
protected:
  /// The repro path of the first finding of a campaign with `implementation` (an --external... option).
  std::string finding(const std::string &implementation) {
    const Invocation found = run_convcheck("fuzz --strategies naive " + implementation +
                                           " --cases 40 --threads 1 --max-saved 1 --corpus " + path("findings") +
                                           " --report " + path("r.json"));
    EXPECT_EQ(found.status, 1) << found.output;
    return read_json(path("r.json"))["failures"][0]["repro"];
  }
};

TEST_F(EmitExternal, AServersReproducerShowsTheBugAndPassesTheFix) {
  const std::string server = "--external-server 'mine=" + faulty_server + " wrong 1'";
  const std::string saved = finding(server);
  const Invocation emit = run_convcheck("repro " + saved + " --emit external --out " + path("mine.py") + " " + server);
  ASSERT_EQ(emit.status, 0) << emit.output;
  const Invocation buggy = run_shell("/usr/bin/python3 " + path("mine.py"));
  EXPECT_EQ(buggy.status, 1) << buggy.output;
  EXPECT_NE(buggy.output.find("mine: faulty wrong\n"), std::string::npos) << buggy.output;
  EXPECT_NE(buggy.output.find(" over convcheck's bound (direct)\n"), std::string::npos) << buggy.output;
  EXPECT_TRUE(buggy.output.ends_with("the bug shows\n")) << buggy.output;
  const Invocation fixed = run_shell("/usr/bin/python3 " + path("mine.py") + " --command '" + faulty_server + " none 1'");
  EXPECT_EQ(fixed.status, 0) << fixed.output;
  EXPECT_TRUE(fixed.output.ends_with("agreed\n")) << fixed.output;
  // A server that dies on the case, or hangs past --timeout, is the bug showing, not the end of the script.
  const Invocation dies = run_shell("/usr/bin/python3 " + path("mine.py") + " --command 'exit 3'");
  EXPECT_EQ(dies.status, 1) << dies.output;
  EXPECT_NE(dies.output.find("mine: the server exited with status 3 before "), std::string::npos) << dies.output;
  const Invocation hangs = run_shell("/usr/bin/python3 " + path("mine.py") + " --timeout 1 --command 'sleep 30'");
  EXPECT_EQ(hangs.status, 1) << hangs.output;
  EXPECT_NE(hangs.output.find("ran past --timeout before its hello"), std::string::npos) << hangs.output;

  // Without the implementation named, or naming another one, it is refused: one line, exit 2.
  const Invocation unnamed = run_convcheck("repro " + saved + " --emit external");
  EXPECT_EQ(unnamed.status, 2) << unnamed.output;
  EXPECT_NE(unnamed.output.find("repro --emit external needs the implementation to run: repeat the campaign's "
                                "--external NAME=COMMAND or --external-server NAME=COMMAND naming mine"),
            std::string::npos)
      << unnamed.output;
  const Invocation other = run_convcheck("repro " + saved + " --emit external --external-server 'yours=true'");
  EXPECT_EQ(other.status, 2) << other.output;
  EXPECT_NE(other.output.find("is a finding of mine, and no --external or --external-server names it (named: yours)"),
            std::string::npos)
      << other.output;
}

TEST_F(EmitExternal, APerCaseCommandsReproducerShowsTheBugAndPassesTheFix) {
  const std::string command = "--external 'ext=WRONG_SHAPE=1 " + numpy_forward + "'";
  const std::string saved = finding(command);
  const Invocation emit = run_convcheck("repro " + saved + " --emit external --out " + path("ext.py") + " " + command);
  ASSERT_EQ(emit.status, 0) << emit.output;
  const Invocation buggy = run_shell("/usr/bin/python3 " + path("ext.py"));
  EXPECT_EQ(buggy.status, 1) << buggy.output;
  EXPECT_NE(buggy.output.find("output: shape ["), std::string::npos) << buggy.output;
  EXPECT_NE(buggy.output.find("grad_data: skipped: the command wrote no grad_data dataset"), std::string::npos)
      << buggy.output;
  const Invocation fixed = run_shell("/usr/bin/python3 " + path("ext.py") + " --command '" + numpy_forward + "'");
  EXPECT_EQ(fixed.status, 0) << fixed.output;
  EXPECT_NE(fixed.output.find(" 0 elements over convcheck's bound (direct)\n"), std::string::npos) << fixed.output;
  const Invocation declines = run_shell("/usr/bin/python3 " + path("ext.py") + " --command 'exit 77'");
  EXPECT_EQ(declines.status, 2) << declines.output;
  EXPECT_NE(declines.output.find("ext declined the problem (exit 77)"), std::string::npos) << declines.output;
}

} // namespace
