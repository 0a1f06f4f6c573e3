// OpenVINO's known bugs: the rows that hold a direction of its strategies back (core/run/known_bug.hpp). Its
// strategies are outside servers, so verification asks the table before the server is sent the case
// (core/run/verify.cpp), and each row decides from the problem and this host alone. The version compared is the one
// the venv's openvino reports (the adapter's version probe: asked once per process, and only when a row is reached).

#include <string>

#include "core/numerics/host_features.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

std::string openvino_version() {
  static const std::string version = [] {
    const Adapter *adapter = find_adapter("openvino");
    const std::string said = adapter != nullptr ? adapter_status(*adapter).version : ""; // "openvino 2026.4.1"
    return said.substr(said.find(' ') + 1);
  }();
  return version;
}

const KnownBugRegistration openvino_bugs{{
    .library = "OpenVINO",
    .version = openvino_version,
    .rows =
        {
            {
                .id = "openvino-bf16-rounding-avx2",
                // 2026.4.1 run (docs/libraries/openvino.md); the emulation's formula is in older releases too, which
                // were not run.
                .versions = {"2026.4", ""},
                .strategies = {"openvino"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      // The plugin converts with vcvtneps2bf16 where it has AVX512_BF16 or AVX-NE-CONVERT and with a
                      // right emulation on AVX-512; the wrong emulation runs on AVX2 and SSE4.1 (avx512bw stands
                      // for the plugin's avx512_core; an AVX-NE-CONVERT host without it is held back needlessly).
                      return c.problem.precision.dst == DType::bfloat16 && !host_has("avx512bw");
                    },
                .reason = "a bfloat16 result is rounded from float32 by adding (bits & 0x10000) >> 1 before keeping the "
                          "upper half: truncated where the kept part is even (an error up to one bfloat16 ulp), "
                          "rounded half up where it is odd; the CPU plugin's AVX2/SSE4.1 'round_to_nearest_even "
                          "emulation' (jit_uni_vcvtneps2bf16) and ov::bfloat16::round_to_nearest_even",
                .upstream = "not reported upstream yet (a reviewer doubted the core formula in openvinotoolkit/"
                            "openvino#37104, a GPU change that copied it)",
                .docs = "docs/findings.md#openvinos-cpu-plugin-rounds-float32-to-bfloat16-wrongly-without-avx-512",
                .why_no_case = "the corpus replays built-in strategies; ctest openvino_server runs this one with the "
                               "hold-back lifted and fails when OpenVINO no longer shows the bug",
            },
        },
}};

} // namespace

} // namespace convcheck
