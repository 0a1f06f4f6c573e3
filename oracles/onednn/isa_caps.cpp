#include "oracles/onednn/isa_caps.hpp"

#include <algorithm>

#include "core/numerics/dispatch_setting.hpp"

namespace convcheck {

namespace {

std::vector<DispatchValue> caps() {
  // oneDNN 3.x's cpu_isa_t, as its masks nest (dnnl_types.h): each cap here needs the features of the caps it
  // contains. avx2_vnni_2 (AVX-VNNI-INT8, AVX-NE-CONVERT: bf16 and f16 conversions on AVX2) is a branch of avx2, not
  // below avx512_core; avx512_core_amx contains avx512_core_fp16 (both avx10_1_512 in oneDNN 3.13).
  const std::vector<std::string> avx2 = {"sse4_1", "avx2"};
  const auto with = [](std::vector<std::string> base, const std::vector<std::string> &own) {
    base.insert(base.end(), own.begin(), own.end());
    return base;
  };
  const std::vector<std::string> avx512_core = with(avx2, {"avx512f", "avx512bw", "avx512vl", "avx512dq"});
  const std::vector<std::string> avx512_bf16 = with(avx512_core, {"avx512_vnni", "avx512_bf16"});
  const std::vector<std::string> avx512_fp16 = with(avx512_bf16, {"avx512_fp16"});
  return {
      {"sse41", "SSE41", {"sse4_1"}},
      {"avx2", "AVX2", avx2},
      {"avx2_vnni_2", "AVX2_VNNI_2", with(avx2, {"avx_vnni", "avx_vnni_int8", "avx_ne_convert"})},
      {"avx512_core", "AVX512_CORE", avx512_core},
      {"avx512_core_bf16", "AVX512_CORE_BF16", avx512_bf16},
      {"avx512_core_fp16", "AVX512_CORE_FP16", avx512_fp16},
      {"avx512_core_amx", "AVX512_CORE_AMX", with(avx512_fp16, {"amx_tile", "amx_bf16", "amx_int8"})},
  };
}

/// A campaign's caps by slot: by default 7 of 8 slots for the host's highest cap and 1 for avx2, the family most
/// machines run and where both oneDNN bugs of docs/findings.md live. A case whose cap is not its worker's crosses a
/// pipe to a server process of that cap, and each server costs its worker a start (about 60 ms of CPU: exec, the
/// libraries, oneDNN's first JIT kernels) and each such case about 0.1 ms (measured; oneDNN itself costs about
/// 0.1 ms a case), so the default keeps to one lower cap and an eighth of the cases: a default one-worker campaign
/// costs about 5% more CPU. The other lower caps (sse41; avx512_core below avx512_core_bf16) run when named with
/// --isa-caps, which draws each named cap alike.
std::vector<std::string> default_slots(const std::vector<std::string> &host) {
  if (host.empty()) return {""};
  std::vector<std::string> slots(7, host.back());
  const bool has_avx2 = std::find(host.begin(), host.end(), "avx2") != host.end();
  slots.push_back(host.back() != "avx2" && has_avx2 ? "avx2" : host.back());
  return slots;
}

const DispatchSettingRegistration registration{{
    isa_cap_setting,
    "oneDNN",
    "ISA cap",
    "oneDNN",
    "",
    "ONEDNN_MAX_CPU_ISA",
    "isa-caps",
    "oracles/onednn/isa_server.hpp",
    caps(),
    0x6973612d63617021ULL,
    default_slots,
    "the host's highest cap for 7/8 of the cases, avx2 for 1/8 (a server start costs a worker about 60 ms)",
}};

const DispatchSetting &setting() { return *find_dispatch_setting(isa_cap_setting); }

} // namespace

std::string isa_cap_of(const Case &conv_case) { return setting_of(conv_case, isa_cap_setting); }

std::string host_lacks(const std::string &cap) { return setting().host_lacks(cap); }

bool onednn_may_use(const Case &conv_case, const std::string &isa) {
  const std::string cap = isa_cap_of(conv_case);
  if (cap.empty()) return host_lacks(isa).empty();
  const DispatchValue *wanted = setting().find(isa), *allowed = setting().find(cap);
  if (wanted == nullptr || allowed == nullptr) return false;
  return std::all_of(wanted->needs.begin(), wanted->needs.end(), [&](const std::string &feature) {
    return std::find(allowed->needs.begin(), allowed->needs.end(), feature) != allowed->needs.end();
  });
}

std::string onednn_isa_value(const std::string &cap) {
  const DispatchValue *value = setting().find(cap);
  return value == nullptr ? "" : value->environment;
}

} // namespace convcheck
