#include "oracles/onednn/isa_caps.hpp"

#include <algorithm>

#include "core/numerics/dispatch_setting.hpp"

namespace convcheck {

namespace {

std::vector<DispatchValue> caps() {
  // Each cap needs what the one below needs, plus its own (oneDNN's cpu_isa_traits.hpp builds them the same way).
  const std::vector<std::pair<DispatchValue, std::vector<std::string>>> own = {
      {{"sse41", "SSE41", {}}, {"sse4_1"}},
      {{"avx2", "AVX2", {}}, {"avx2"}},
      {{"avx512_core", "AVX512_CORE", {}}, {"avx512f", "avx512bw", "avx512vl", "avx512dq"}},
      {{"avx512_core_bf16", "AVX512_CORE_BF16", {}}, {"avx512_vnni", "avx512_bf16"}},
      {{"avx512_core_amx", "AVX512_CORE_AMX", {}}, {"amx_tile", "amx_bf16", "amx_int8"}},
  };
  std::vector<DispatchValue> built;
  std::vector<std::string> needs;
  for (const auto &[cap, features] : own) {
    needs.insert(needs.end(), features.begin(), features.end());
    built.push_back({cap.name, cap.environment, needs});
  }
  return built;
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

bool isa_cap_at_least(const std::string &cap, const std::string &floor) {
  if (cap.empty()) return true;
  const std::vector<DispatchValue> &values = setting().values;
  const auto at = [&](const std::string &name) {
    return std::find_if(values.begin(), values.end(), [&](const DispatchValue &each) { return each.name == name; });
  };
  return at(cap) != values.end() && at(cap) >= at(floor);
}

std::string onednn_isa_value(const std::string &cap) {
  const DispatchValue *value = setting().find(cap);
  return value == nullptr ? "" : value->environment;
}

} // namespace convcheck
