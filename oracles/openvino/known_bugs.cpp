// OpenVINO's known bugs: the rows that hold a direction of its strategies back (core/run/known_bug.hpp). Its
// strategies are outside servers, so verification asks the table before the server is sent the case
// (core/run/verify.cpp), and each row decides from the problem and this host alone. The version compared is the one
// the venv's openvino reports (the adapter's version probe: asked once per process, and only when a row is reached).

#include <string>

#include "core/numerics/host_features.hpp"
#include "core/numerics/fill_special.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

std::string openvino_version() { return adapter_package_version("openvino", "openvino"); }

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
                .reason = "a bfloat16 result is rounded from float32 by adding (bits & 0x10000) >> 1 before keeping "
                          "the upper half: truncated where the kept part is even (an error up to one bfloat16 ulp), "
                          "rounded half up where it is odd; the CPU plugin's AVX2/SSE4.1 'round_to_nearest_even "
                          "emulation' (jit_uni_vcvtneps2bf16) and ov::bfloat16::round_to_nearest_even",
                .upstream = "not reported upstream yet (a reviewer doubted the core formula in openvinotoolkit/"
                            "openvino#37104, a GPU change that copied it)",
                .docs = "docs/findings.md#openvinos-cpu-plugin-rounds-float32-to-bfloat16-wrongly-without-avx-512",
                .why_no_case = "the corpus replays built-in strategies; ctest openvino_server runs this one with the "
                               "hold-back lifted and fails when OpenVINO no longer shows the bug",
            },
            {
                .id = "openvino-single-channel-padding",
                // 2026.4.1 run; older releases not run.
                .versions = {"2026.4", ""},
                .strategies = {"openvino", "openvino_bf16"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      // Seen only with one input and one output channel (the plugin's jit_avx2_f32 kernel on this
                      // AVX2 host), 2-D and 3-D, and padding: every one of the campaign's 41 such failures, none
                      // elsewhere. Not every padded case fails (the sweep of docs/findings/ shows which do most), so
                      // the row holds back all of them; an AVX-512 host runs other kernels and is not held back.
                      const Problem &p = c.problem;
                      if (p.op != Op::conv || p.groups != 1 || p.in_channels != 1 || p.out_channels != 1 ||
                          p.ndims < 2 || host_has("avx512f"))
                        return false;
                      for (const SpatialAxis &axis : p.axes)
                        if (axis.pad_begin > 0 || axis.pad_end > 0) return true;
                      return false;
                    },
                .reason = "a convolution of one input and one output channel with padding returns, where its window "
                          "lies in the padding, values read past the data's row or memory that holds neither data "
                          "nor weight (1e34, 1e-42) instead of 0 (jit_avx2_f32, 2-D and 3-D)",
                .upstream = "not reported upstream yet (related: out-of-bounds reads fixed in the fork's JIT planar "
                            "convolution, openvinotoolkit/oneDNN#67, #115, #117, 2021-2022)",
                .docs = "docs/findings.md#openvinos-one-channel-convolution-returns-garbage-in-its-padding-avx2",
                .why_no_case = "the corpus replays built-in strategies; ctest openvino_server runs this one with the "
                               "hold-back lifted and fails when OpenVINO no longer shows the bug",
            },
            {
                .id = "openvino-deconv-1x1-output-padding",
                // 2026.4.1 run; older releases not run.
                .versions = {"2026.4", ""},
                .strategies = {"openvino", "openvino_bf16"},
                .directions = {Direction::output},
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      // Every axis a 1-tap kernel at stride 1 whose output_padding gives back what the padding took
                      // (output size = input size), and some padding at the beginning: the output is not moved.
                      const Problem &p = c.problem;
                      if (p.op != Op::deconv) return false;
                      bool moved = false;
                      for (int64_t i = p.first_axis(); i < max_ndims; ++i) {
                        const SpatialAxis &axis = p.axes[i];
                        if (axis.kernel != 1 || axis.stride != 1 || axis.transposed_out() != axis.in) return false;
                        moved = moved || axis.pad_begin > 0;
                      }
                      return moved;
                    },
                .reason = "a deconv of 1-tap kernels at stride 1 whose output_padding makes its output the input's "
                          "size returns the input times the weight where it is, not moved by pads_begin (the "
                          "plugin's 1x1 path, jit_gemm_f32 on AVX2)",
                .upstream = "not reported upstream yet",
                .docs = "docs/findings.md#"
                        "openvinos-1x1-deconv-ignores-pads_begin-when-output_padding-restores-the-size",
                .why_no_case = "the corpus replays built-in strategies; ctest openvino_server runs this one with the "
                               "hold-back lifted and fails when OpenVINO no longer shows the bug",
            },
            {
                .id = "openvino-bf16-daz",
                .versions = {"2026.4", ""},
                .strategies = {"openvino_bf16"},
                .directions = {Direction::output},
                // ctest openvino_server on this AVX512-BF16 host: 3 of 123 bf16 outputs of subnormal inputs came back
                // 0 (expected -2.95e-40, got 0): oneDNN's bf16 kernels under the plugin, as onednn-bf16-daz.
                .reached =
                    [](const Case &c, Direction, const Ran &) {
                      return c.special == FillSpecial::subnormal && host_has("avx512_bf16");
                    },
                .reason = "its bf16 convolutions (oneDNN's kernels on AVX512-BF16) read bfloat16 subnormal inputs as "
                          "zero, as VDPBF16PS does by definition",
                .upstream = "the instruction's documented behaviour; not a bug report",
                .docs = "docs/findings.md#subnormal-inputs-read-as-zero-onednns-bf16-kernels-and-xnnpack",
                .why_no_case = "documented behaviour, not a bug: held back so that the subnormal fill judges the "
                               "others",
            },
        },
}};

} // namespace

} // namespace convcheck
