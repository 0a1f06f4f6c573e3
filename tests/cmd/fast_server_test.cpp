// Correct fast algorithms behind the server protocol pass under their classes' bounds (docs/bounds.md):
// oracles/outside/python/fast_server.py's Winograd F(4,3) (declaring "algorithm": "winograd:4" and the shapes it takes) and
// FFT (complex64 through torch.fft, declaring "fft"), a few hundred cases in each fill; bench/fast_algorithms.sh
// runs 20,000 of each. The Winograd server's other tilings (issue 39: F(2,3), F(4,3), F(6,3), tiles from the padded
// grad_output's origin or shifted, grad_data transposed) pass in every fill too.

#include <cstdlib>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

using convcheck::testing::Invocation;
using convcheck::testing::read_json;
using convcheck::testing::run_convcheck;

const std::string fast_server = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/oracles/outside/python/fast_server.py";

class FastServer : public convcheck::testing::ScratchDirectoryTest {
protected:
  // A campaign of naive and the server as `s`; every direction of `s` judged on `judged` cases or skipped.

  // Judged on every case but the near_max ones, whose Winograd and FFT results are skipped with the reason (docs/bounds.md;
  // about 6% of normal cases), and on at least 85 in 100.
  static void expect_judged_on_all_but_near_max(const nlohmann::json &s, const char *direction, int cases,
                                                const std::string &what) {
    const nlohmann::json &d = s["directions"][direction];
    const int judged = d["passed"].get<int>() + d["weak"].get<int>();
    EXPECT_EQ(judged + d["skipped"].get<int>(), cases) << what << " " << direction;
    EXPECT_GE(judged, cases * 85 / 100) << what << " " << direction;
  }
  nlohmann::json fuzz(const std::string &mode, const std::string &extra, const char *fill) {
    const Invocation run = run_convcheck("fuzz --strategies naive --external-server 's=" + fast_server + " " + mode +
                                         "' " + extra + " --threads 2 --seed 7 --fill " + fill + " --corpus " +
                                         path("findings") + " --report " + path("report.json"));
    EXPECT_EQ(run.status, 0) << mode << " " << fill << ": " << run.output;
    return read_json(path("report.json"))["strategies"]["s"];
  }
};

TEST_F(FastServer, WinogradPassesUnderItsBoundInEveryFill) {
  for (const char *fill : {"normal", "mixed", "exact"}) {
    const nlohmann::json s = fuzz("winograd", "--cases 150 --focus s", fill);
    EXPECT_EQ(s["failed"], 0) << fill;
    for (const char *direction : {"output", "grad_data"}) expect_judged_on_all_but_near_max(s, direction, 150, fill);
  }
}

TEST_F(FastServer, WinogradPassesWhereverItsTilesStart) {
  for (int m : {2, 4, 6})
    for (const std::string &tiling : {std::string("--shift padded"), "--shift " + std::to_string(m - 1) + " --grad-data transposed"})
      for (const char *fill : {"normal", "exact", "mixed", "witness"}) {
        const std::string mode = "winograd --tile " + std::to_string(m) + " " + tiling;
        const nlohmann::json s = fuzz(mode, "--cases 100 --focus s", fill);
        EXPECT_EQ(s["failed"], 0) << mode << " " << fill;
        for (const char *direction : {"output", "grad_data"})
          expect_judged_on_all_but_near_max(s, direction, 100, mode + " " + fill);
      }
}

TEST_F(FastServer, FftPassesUnderItsBoundInEveryFill) {
  if (std::system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "torch is not installed for /usr/bin/python3 (scripts/install-deps.sh test installs it)";
  for (const char *fill : {"normal", "mixed", "exact"}) {
    const nlohmann::json s = fuzz("fft", "--cases 100", fill);
    EXPECT_EQ(s["failed"], 0) << fill;
    // float64 cases are skipped, and near_max ones (their transforms sum values near the largest finite)
    EXPECT_GT(s["passed"].get<int>() + s["weak"].get<int>(), 170) << fill;
  }
}

} // namespace
