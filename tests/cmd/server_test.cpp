// The server protocol (docs/external.md): the NumPy example server agrees with naive; every way a server can fail
// is a finding with a clear reason (and the server is restarted for the next case) or, before the first case, a
// one-line error with exit status 2; nothing is left running or lying around afterwards. The faults come from
// tests/interop/faulty_server.py.

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

namespace fs = std::filesystem;
using convcheck::testing::Invocation;
using convcheck::testing::read_json;
using convcheck::testing::run_convcheck;

const std::string numpy_server = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/oracles/outside/python/numpy_server.py";
const std::string faulty_server = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/tests/interop/faulty_server.py";

class Server : public convcheck::testing::ScratchDirectoryTest {
protected:
  // A word in the command line of this test's servers (and their children), to find any left running.
  std::string marker() const { return "convcheck-server-test-" + directory_.filename().string(); }

  // faulty_server.py with FAULT on case N, marked.
  std::string faulty(const std::string &fault, int n = 2) const {
    return faulty_server + " " + fault + " " + std::to_string(n) + " " + marker();
  }

  // fuzz with naive and the server as `ext` (or a plugin, through `extra`), a private TMPDIR; reads the report.
  Invocation fuzz(const std::string &server, const std::string &extra = "--cases 4 --threads 1 --no-shrink") {
    fs::create_directories(path("tmp"));
    const Invocation run = run_convcheck("fuzz --strategies naive --external-server 'ext=" + server + "' " + extra +
                                             " --corpus " + path("findings") + " --report " + path("report.json"),
                                         "TMPDIR=" + path("tmp"));
    report_ = fs::exists(path("report.json")) ? read_json(path("report.json")) : nlohmann::json();
    return run;
  }

  // No process of this test is still running (a killed server may take a moment to be reaped by init), and the
  // private TMPDIR is empty.
  void expect_nothing_left() const {
    bool left = true;
    for (int attempt = 0; attempt < 30 && left; ++attempt) {
      // "[c]onvcheck...": a pattern that does not match the shell running pgrep, whose command line holds it
      left = std::system(("pgrep -f '[" + marker().substr(0, 1) + "]" + marker().substr(1) + "' >/dev/null").c_str()) == 0;
      if (left) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_FALSE(left) << "a process of " << marker() << " is still running";
    if (fs::exists(path("tmp"))) {
      EXPECT_TRUE(fs::is_empty(path("tmp")));
    }
  }

  std::string first_problem() const { return report_["failures"][0]["problem"]; }
  int ext(const char *verdict) const { return report_["strategies"]["ext"][verdict]; }
  // The directions of `ext` skipped for `reason`, over every direction.
  int ext_skipped_for(const std::string &reason) const {
    int count = 0;
    for (const auto &[direction, tally] : report_["strategies"]["ext"]["directions"].items())
      count += tally["skip_reasons"].value(reason, 0);
    return count;
  }

  nlohmann::json report_;
};

TEST_F(Server, NumpyExampleAgreesWithNaiveOnEveryRankAndCrop) {
  const Invocation run = fuzz(numpy_server + " " + marker(), "--cases 120 --threads 2");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(ext("failed"), 0);
  // It declares convs only (its hello): the default draw's deconvs are skipped, saying so, and nothing else is.
  EXPECT_GT(ext("skipped"), 0);
  EXPECT_EQ(ext_skipped_for("op deconv is not supported (ops: conv)"), ext("skipped"));
  EXPECT_EQ(ext("passed") + ext("weak") + ext("skipped"), 360);
  expect_nothing_left();
}

TEST_F(Server, CrashIsAFindingAndTheServerIsRestarted) {
  // It crashes on the second case of each life: cases 1 and 3 of 4, so it was restarted after the first crash.
  const Invocation run = fuzz(faulty("crash"));
  ASSERT_EQ(run.status, 1) << run.output;
  EXPECT_EQ(first_problem(), "the server failed: killed by signal 11 (Segmentation fault)");
  EXPECT_EQ(report_["failures"][0]["case_index"], 1);
  EXPECT_EQ(ext("failed"), 6);
  EXPECT_EQ(ext("passed") + ext("weak"), 6);
  expect_nothing_left();
}

TEST_F(Server, ExitCarriesWhatItWroteToStderr) {
  ASSERT_EQ(fuzz(faulty("exit")).status, 1);
  EXPECT_EQ(first_problem(), "the server failed: exit 3; output: faulty_server: giving up on case 2");
  expect_nothing_left();
}

TEST_F(Server, HangIsKilledWithItsChildrenAtTheTimeout) {
  const auto start = std::chrono::steady_clock::now();
  const Invocation run = fuzz(faulty("hang"), "--cases 3 --threads 1 --no-shrink --external-timeout 0.5");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(run.status, 1) << run.output;
  EXPECT_EQ(first_problem(), "the server failed: timed out after 0.5 s");
  EXPECT_EQ(ext("failed"), 3);
  EXPECT_LT(seconds, 20.0);
  expect_nothing_left(); // the child it started, sleeping with the marker, was killed with its process group
}

TEST_F(Server, GarbageAMalformedFrameAndAnAnswerToAnotherRequestAreFindings) {
  const std::vector<std::pair<std::string, std::string>> faults{
      {"garbage", "the server broke the protocol: it wrote 'Traceback (most recent call last): oops.' where a "
                  "frame (\"CCKF\"...) was expected"},
      {"bad_json", "the server broke the protocol: it sent a header that is not a JSON object: '{not json'"},
      {"short_payload", "the server broke the protocol: it sent a payload of 0 bytes, shorter than its results"},
      {"wrong_id", "the server broke the protocol: it answered request 3 when request 2 was asked"},
      {"short_dtype", "the server broke the protocol: it sent a result of dtype 'f32', not one of float32, "
                      "float64, bfloat16, float16"},
  };
  for (const auto &[fault, problem] : faults) {
    ASSERT_EQ(fuzz(faulty(fault)).status, 1) << fault;
    EXPECT_EQ(first_problem(), problem) << fault;
    EXPECT_EQ(ext("failed"), 6) << fault; // restarted after each: the fault struck again on its second case
  }
  expect_nothing_left();
}

TEST_F(Server, ErrorAnswerIsAFindingAndTheServerGoesOn) {
  ASSERT_EQ(fuzz(faulty("error")).status, 1);
  EXPECT_EQ(first_problem(), "the server reported an error: cuda out of memory");
  EXPECT_EQ(ext("failed"), 3); // not restarted: its second case was the only one
  expect_nothing_left();
}

TEST_F(Server, UnsupportedAnswerIsSkipped) {
  ASSERT_EQ(fuzz(faulty("unsupported", 1)).status, 0);
  EXPECT_EQ(ext("skipped"), 3);
  EXPECT_EQ(ext("failed"), 0);
}

TEST_F(Server, MaxCasesRestartsALeakingServerBeforeItDies) {
  ASSERT_EQ(fuzz(faulty("leak", 3), "--cases 8 --threads 1 --no-shrink").status, 1);
  EXPECT_EQ(first_problem(), "the server failed: exit 137; output: faulty_server: out of memory");
  const Invocation restarted = fuzz(faulty("leak", 3), "--cases 8 --threads 1 --no-shrink --external-server-max-cases 3");
  ASSERT_EQ(restarted.status, 0) << restarted.output;
  EXPECT_EQ(ext("passed") + ext("weak") + ext_skipped_for("op deconv is not supported (ops: conv)"), 24);
  expect_nothing_left();
}

TEST_F(Server, ProblemsOutsideItsHelloAreNeverSent) {
  const Invocation run = fuzz(faulty("rank2"), "--cases 60 --threads 1");
  ASSERT_EQ(run.status, 0) << run.output; // an error answer would have been a finding
  EXPECT_GT(ext("skipped"), 0);
  EXPECT_GT(ext("passed") + ext("weak"), 0);
}

TEST_F(Server, FailuresBeforeTheFirstCaseAreUsageErrors) {
  struct Start {
    std::string command, options, message;
  };
  const std::vector<Start> starts{
      {faulty("exit_at_start"), "",
       "failed before its hello: exit 1; output: faulty_server: cannot open the device"},
      {faulty("hang_at_start"), "--external-server-start-timeout 0.5",
       "failed before its hello: timed out after 0.5 s"},
      {faulty("wrong_version"), "", "broke the protocol in its hello: it speaks protocol 99; convcheck speaks 1"},
      {"/nonexistent/server " + marker(), "",
       "failed before its hello: exit 127; output: /bin/bash: line 1: /nonexistent/server: No such file or directory"},
  };
  for (const Start &start : starts) {
    const Invocation run = fuzz(start.command, "--cases 2 " + start.options);
    EXPECT_EQ(run.status, 2) << start.command;
    EXPECT_EQ(run.output, "convcheck: error: external-server 'ext' " + start.message + "\n") << start.command;
  }
  for (const char *spec : {"noequals", "naive=true", "bad name=true", "ext= "}) {
    const Invocation run = run_convcheck(std::string("fuzz --cases 1 --external-server '") + spec + "'");
    EXPECT_EQ(run.status, 2) << spec;
    EXPECT_EQ(run.output.rfind("convcheck: error: external-server", 0), 0u) << run.output;
  }
  EXPECT_EQ(run_convcheck("fuzz --cases 1 --external-server-max-cases -1").output,
            "convcheck: error: external-server-max-cases -1 must be >= 0\n");
  EXPECT_EQ(run_convcheck("fuzz --cases 1 --external-server-start-timeout 0").output,
            "convcheck: error: external-server-start-timeout 0 must be > 0 seconds\n");
  expect_nothing_left();
}

TEST_F(Server, ShrinkingReusesTheRunningServer) {
  const std::string log = path("starts.log");
  fs::create_directories(path("tmp"));
  const Invocation run =
      run_convcheck("fuzz --strategies naive --cases 12 --threads 1 --external-server 'ext=" + faulty("wrong", 1) +
                        "' --corpus " + path("findings") + " --report " + path("report.json"),
                    "FAULTY_SERVER_LOG=" + log + " TMPDIR=" + path("tmp"));
  ASSERT_EQ(run.status, 1) << run.output;
  const nlohmann::json report = read_json(path("report.json"));
  const nlohmann::json &failure = report["failures"][0];
  EXPECT_EQ(failure["direction"], "grad_weight");
  EXPECT_NE(failure["shrunk_config"], failure["config"]);
  std::ifstream in(log);
  std::set<std::string> starts;
  int cases = 0;
  for (std::string event, pid; in >> event >> pid;) {
    if (event == "start") starts.insert(pid);
    else ++cases;
  }
  // The hello probe, the worker, one server for the shrinking child, which sent it every try, and one for the
  // worker that runs the shrunk case's neighbours (the failing region, core/run/neighbour_table.hpp) all together.
  EXPECT_EQ(starts.size(), 4u);
  EXPECT_GT(cases, 12 + 5);
  expect_nothing_left();
}

// Server processes started, by pid, in a FAULTY_SERVER_LOG.
size_t starts_in(const std::string &log) {
  std::ifstream in(log);
  std::set<std::string> starts;
  for (std::string event, pid; in >> event >> pid;)
    if (event == "start") starts.insert(pid);
  return starts.size();
}

TEST_F(Server, ReproAndCorpusRunStartOneServerForManyFiles) {
  ASSERT_EQ(fuzz(faulty("wrong", 1), "--cases 12 --threads 1 --no-shrink --max-saved 3").status, 1);
  std::string files;
  size_t count = 0;
  for (const auto &entry : fs::directory_iterator(path("findings"))) files += " " + entry.path().string(), ++count;
  ASSERT_GE(count, 3u);
  const std::string server = " --external-server 'ext=" + faulty("wrong", 1) + "'";
  const Invocation repro = run_convcheck("repro" + files + server, "FAULTY_SERVER_LOG=" + path("repro.log"));
  EXPECT_EQ(repro.status, 1) << repro.output;
  EXPECT_EQ(starts_in(path("repro.log")), 2u) << "the hello probe, then one server for every file";
  ASSERT_EQ(run_convcheck("corpus add" + files + " " + path("corpus")).status, 0);
  const Invocation corpus =
      run_convcheck("corpus run " + path("corpus") + server, "FAULTY_SERVER_LOG=" + path("corpus.log"));
  EXPECT_EQ(corpus.status, 1) << corpus.output;
  EXPECT_NE(corpus.output.find("0 passed, 0 skipped, " + std::to_string(count) + " failed"), std::string::npos)
      << corpus.output;
  EXPECT_EQ(starts_in(path("corpus.log")), 2u) << "the hello probe, then one server for every file";
  expect_nothing_left();
}

TEST_F(Server, SavedFindingReplaysThroughCheckReproShrinkAndCorpus) {
  ASSERT_EQ(fuzz(faulty("wrong", 1), "--cases 12 --threads 1 --no-shrink").status, 1);
  const std::string saved = report_["failures"][0]["repro"];
  const std::string server = " --external-server 'ext=" + faulty("wrong", 1) + "'";
  const std::string config = report_["failures"][0]["config"];
  EXPECT_EQ(run_convcheck("check " + config + " --strategies naive" + server).status, 1);
  const Invocation repro = run_convcheck("repro " + saved + server);
  EXPECT_EQ(repro.status, 1) << repro.output;
  EXPECT_NE(repro.output.find("ext"), std::string::npos);
  const Invocation shrunk = run_convcheck("shrink " + saved + " --out " + path("small") + server);
  ASSERT_EQ(shrunk.status, 1) << shrunk.output;
  ASSERT_EQ(run_convcheck("corpus add " + path("small") + "/*.h5 " + path("corpus")).status, 0);
  // A regression case must pass for every strategy: the wrong server still fails it, the numpy server passes.
  EXPECT_EQ(run_convcheck("corpus run " + path("corpus") + server).status, 1);
  EXPECT_EQ(run_convcheck("corpus run " + path("corpus") + " --external-server 'ext=" + numpy_server + "'").status, 0);
  expect_nothing_left();
}

} // namespace

namespace {

// A crop longer than its axis (issue 39) is a problem convcheck keeps: the window is the input's positions
// [-pad_begin, in + pad_end) with zeros beyond both ends, so the other end's padding makes up for the crop. oneDNN's
// own benchdnn lists state such problems (shapes_3d_1st_strided_padding: id2 kd2 sd3 pd2 derives pad_back -2), and
// the NumPy server docs/external.md shows computes them as documented, in every direction.
TEST(LongCrops, TheDocumentedServerComputesThemAsDocumented) {
  const Invocation run = run_convcheck(
      "check --strategies naive --external-server 'ext=" + numpy_server + "' --threads 1 "
      "mb1ic1iw2oc1kw1pl2pr-3 mb1ic2ih1oc2kh1pt-2pb4 mb1ic1id2oc16kd2sd3pfr2pbk-2 g2mb2ic2iw3oc4kw2pl4pr-3");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("no mismatch"), std::string::npos) << run.output;
}

} // namespace
