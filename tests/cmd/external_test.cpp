// The external-process protocol (docs/external.md): every way a command can behave becomes a verdict with a
// clear reason, never a crash or hang of convcheck, and no temporary file is left behind.

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"
#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;

struct Invocation {
  int status;
  std::string output;
  nlohmann::json report;
};

// Runs fuzz with naive plus one external called `ext`, and returns the parsed report.
Invocation fuzz_with(const std::string &command, const std::string &extra = "--cases 6 --no-shrink",
                     const std::string &environment = "") {
  // One directory per test: ctest runs the tests of this file in parallel processes.
  const fs::path directory =
      fs::temp_directory_path() /
      (std::string("convcheck-protocol-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(directory);
  fs::create_directories(directory);
  const std::string report = (directory / "report.json").string();
  const convcheck::testing::Invocation run = convcheck::testing::run_convcheck(
      "fuzz --strategies naive --external 'ext=" + command + "' " + extra + " --corpus " +
      (directory / "findings").string() + " --report " + report, environment);
  Invocation result{run.status, run.output, {}};
  std::ifstream in(report);
  if (in) result.report = nlohmann::json::parse(in);
  return result;
}

std::string first_problem(const Invocation &run) { return run.report["failures"][0]["problem"]; }

TEST(External, CrashIsAFindingWithTheSignal) {
  // A private TMPDIR: what convcheck leaves there is all it left.
  const fs::path temporary = fs::temp_directory_path() / "convcheck-protocol-crash-tmp";
  fs::remove_all(temporary);
  fs::create_directories(temporary);
  const Invocation run = fuzz_with("kill -SEGV $$", "--cases 6 --no-shrink --external-case-format 2", "TMPDIR=" + temporary.string());
  ASSERT_EQ(run.status, 1) << run.output;
  EXPECT_EQ(first_problem(run), "the command failed: killed by signal 11 (Segmentation fault)");
  // Of the 6 cases (seed 1), 2 are deconvs, which a command is never offered (it declares no op: convs only).
  EXPECT_EQ(run.report["strategies"]["ext"]["failed"], 12);
  EXPECT_EQ(run.report["strategies"]["ext"]["skip_reasons"]["op deconv is not supported (ops: conv)"], 6);
  EXPECT_TRUE(fs::is_empty(temporary)) << fs::directory_iterator(temporary)->path();
  fs::remove_all(temporary);
}

TEST(External, NonZeroExitCarriesTheOutputTail) {
  const Invocation run = fuzz_with("echo reading $1 >&2; echo out of memory >&2; exit 3");
  ASSERT_EQ(run.status, 1);
  const std::string problem = first_problem(run);
  EXPECT_EQ(problem.rfind("the command failed: exit 3; output: reading /", 0), 0u) << problem;
  EXPECT_NE(problem.find("in.h5|out of memory"), std::string::npos) << problem;
}

TEST(External, Exit77IsSkippedNotFailed) {
  // Skipped with the reason, never failed; but named and judged on no case, so the run ends with exit 2 saying why.
  const Invocation run = fuzz_with("exit 77");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_EQ(run.report["strategies"]["ext"]["skipped"], 18);
  EXPECT_EQ(run.report["strategies"]["ext"]["failed"], 0);
  EXPECT_EQ(run.report["strategies"]["ext"]["skip_reasons"]["the command exited 77: config unsupported"], 12);
  EXPECT_NE(run.output.find("convcheck: error: strategy ext judged none of the 6 cases offered; skipped: 12 x the "
                            "command exited 77: config unsupported; 6 x op deconv is not supported (ops: conv)\n"),
            std::string::npos)
      << run.output;
}

TEST(External, TimeoutKillsTheCommandAndItsChildren) {
  const auto start = std::chrono::steady_clock::now();
  const Invocation run = fuzz_with("sleep 30 & sleep 30; true", "--cases 6 --no-shrink --external-timeout 0.3");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(run.status, 1);
  EXPECT_EQ(first_problem(run), "the command failed: timed out after 0.3 s");
  EXPECT_LT(seconds, 10.0);
}

TEST(External, MissingOrGarbageOutputIsAFinding) {
  EXPECT_EQ(first_problem(fuzz_with("true")), "the command exited 0 but wrote no output file");
  const std::string garbage = first_problem(fuzz_with("f() { echo garbage > \"$2\"; }; f"));
  EXPECT_EQ(garbage.rfind("the command wrote an unreadable output: case file /", 0), 0u) << garbage;
  EXPECT_NE(garbage.find("out.h5: not an HDF5 file"), std::string::npos) << garbage;
}

TEST(External, CorrectImplementationPassesAndUnwrittenDirectionsAreSkipped) {
  const std::string script = std::string(CONVCHECK_SOURCE_DIR) + "/tests/interop/numpy_forward.py";
  const Invocation run = fuzz_with("/usr/bin/python3 " + script, "--cases 12 --threads 2");
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json &ext = run.report["strategies"]["ext"]["directions"];
  EXPECT_GT(ext["output"]["passed"].get<int>() + ext["output"]["weak"].get<int>(), 0);
  EXPECT_EQ(ext["grad_data"]["skipped"], 12);
}

TEST(External, WrongShapeIsShrunkAndSavedWithTheShapes) {
  const std::string script = std::string(CONVCHECK_SOURCE_DIR) + "/tests/interop/numpy_forward.py";
  const Invocation run = fuzz_with("WRONG_SHAPE=1 /usr/bin/python3 " + script, "--cases 8 --threads 2");
  ASSERT_EQ(run.status, 1) << run.output;
  const nlohmann::json &failure = run.report["failures"][0];
  const std::string problem = failure["problem"];
  EXPECT_NE(problem.find("differs from expected"), std::string::npos) << problem;
  ASSERT_TRUE(failure["repro"].is_string());
  // Shrinking called the command again: the saved case is smaller than the one found.
  EXPECT_NE(failure["shrunk_config"], failure["config"]);
  EXPECT_TRUE(fs::exists(failure["repro"].get<std::string>()));
}

TEST(External, BadSpecificationsAreUsageErrors) {
  for (const char *spec : {"noequals", "=cmd", "naive=true", "bad name=true", "ext= "}) {
    const std::string line = std::string(CONVCHECK_BINARY) + " fuzz --cases 1 --external '" + spec + "' 2>/dev/null";
    const int status = std::system(line.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 2) << spec;
  }
}

// A command is offered convs only unless --external-ops names deconv; then it gets the deconv's case file, v2, whose
// /config says op = "deconv" (here the command exits 3 on exactly that, so each direction is that finding).
TEST(External, ExternalOpsDecideWhetherACommandIsOfferedDeconvs) {
  const std::string check = "check mb1ic1iw2oc1kw2sw2opw1_deconv --strategies naive --no-shrink --corpus " +
                            (fs::temp_directory_path() / "convcheck-protocol-ops").string() + " ";
  const auto run = [&](const std::string &options) { return convcheck::testing::run_convcheck(check + options); };
  EXPECT_NE(run("--external 'ext=exit 77'").output.find(
                "strategy ext judged none of the 1 cases offered; skipped: 3 x op deconv is not supported (ops: conv)"),
            std::string::npos);
  const std::string reads_op =
      R"x(--external 'ext=/usr/bin/python3 -c "import sys, h5py; op = h5py.File(sys.argv[1])[\"config\"].attrs[\"op\"]; )x"
      R"x(sys.exit(3 if op in (\"deconv\", b\"deconv\") else 0)"' --external-case-format 2 --external-ops )x";
  const auto offered = run(reads_op + "conv,deconv");
  EXPECT_EQ(offered.status, 1) << offered.output;
  EXPECT_NE(offered.output.find("FAILED ext output case 0 (exact fill): the command failed: exit 3"), std::string::npos)
      << offered.output;
  const auto unknown = run("--external 'ext=true' --external-case-format 2 --external-ops conv,dconv");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("convcheck: error: external-ops 'dconv' is not conv or deconv"), std::string::npos)
      << unknown.output;
  const auto v1 = run("--external 'ext=true' --external-ops deconv");
  EXPECT_EQ(v1.status, 2);
  EXPECT_NE(v1.output.find("convcheck: error: external-ops deconv needs --external-case-format 2 (format v1 holds "
                           "convs only)"),
            std::string::npos)
      << v1.output;
}

} // namespace
