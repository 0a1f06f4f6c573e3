#include "core/numerics/isa_cap.hpp"

#include <cpuid.h>

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/input_error.hpp"
#include "core/problem/mix64.hpp"

namespace convcheck {

namespace {

/// Whether the CPU (and, for the AVX ones, the kernel: __builtin_cpu_supports checks XCR0) has `feature`.
bool has(const std::string &feature) {
  if (feature == "sse4_1") return __builtin_cpu_supports("sse4.1");
  if (feature == "fma") return __builtin_cpu_supports("fma");
  if (feature == "avx2") return __builtin_cpu_supports("avx2");
  if (feature == "avx512f") return __builtin_cpu_supports("avx512f");
  if (feature == "avx512bw") return __builtin_cpu_supports("avx512bw");
  if (feature == "avx512vl") return __builtin_cpu_supports("avx512vl");
  if (feature == "avx512dq") return __builtin_cpu_supports("avx512dq");
  if (feature == "avx512_vnni") return __builtin_cpu_supports("avx512vnni");
  if (feature == "avx512_bf16") return __builtin_cpu_supports("avx512bf16");
  // AMX: CPUID leaf 7, EDX bits 22 (amx_bf16), 24 (amx_tile), 25 (amx_int8) (Intel SDM vol. 2A, table 3-8).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return false;
  if (feature == "amx_bf16") return (edx >> 22) & 1;
  if (feature == "amx_tile") return (edx >> 24) & 1;
  if (feature == "amx_int8") return (edx >> 25) & 1;
  return false;
}

/// Each cap needs what the one below needs, plus its own (oneDNN's cpu_isa_traits.hpp builds them the same way).
const std::vector<std::vector<std::string>> &features_by_cap() {
  static const std::vector<std::vector<std::string>> features = {
      {"sse4_1"},
      {"avx2"},
      {"avx512f", "avx512bw", "avx512vl", "avx512dq"},
      {"avx512_vnni", "avx512_bf16"},
      {"amx_tile", "amx_bf16", "amx_int8"},
  };
  return features;
}

} // namespace

const std::vector<IsaCap> &isa_caps() {
  static const std::vector<IsaCap> caps = [] {
    const char *names[][2] = {{"sse41", "SSE41"},
                              {"avx2", "AVX2"},
                              {"avx512_core", "AVX512_CORE"},
                              {"avx512_core_bf16", "AVX512_CORE_BF16"},
                              {"avx512_core_amx", "AVX512_CORE_AMX"}};
    std::vector<IsaCap> built;
    std::string needs;
    for (size_t i = 0; i < features_by_cap().size(); ++i) {
      for (const std::string &feature : features_by_cap()[i]) needs += (needs.empty() ? "" : " ") + feature;
      built.push_back({names[i][0], names[i][1], needs});
    }
    return built;
  }();
  return caps;
}

const IsaCap *find_isa_cap(const std::string &name) {
  for (const IsaCap &cap : isa_caps())
    if (cap.name == name) return &cap;
  return nullptr;
}

std::string host_lacks(const std::string &name) {
  if (find_isa_cap(name) == nullptr) {
    std::string known;
    for (const IsaCap &cap : isa_caps()) known += (known.empty() ? "" : ", ") + cap.name;
    return fmt::format("unknown ISA cap '{}' (known: {})", name, known);
  }
  for (size_t i = 0; i < isa_caps().size(); ++i) {
    for (const std::string &feature : features_by_cap()[i])
      if (!has(feature)) return fmt::format("this host cannot run {} kernels: it lacks {}", name, feature);
    if (isa_caps()[i].name == name) break;
  }
  return "";
}

std::vector<std::string> host_isa_caps() {
  std::vector<std::string> caps;
  for (const IsaCap &cap : isa_caps())
    if (host_lacks(cap.name).empty()) caps.push_back(cap.name);
  return caps;
}

namespace {

/// A campaign's caps by slot: by default 7 of 8 slots for the host's highest cap and 1 for avx2, the family most
/// machines run and where both oneDNN bugs of docs/findings.md live. A case whose cap is not its worker's crosses a
/// pipe to a server process of that cap, and each server costs its worker a start (about 60 ms of CPU: exec, the
/// libraries, oneDNN's first JIT kernels) and each such case about 0.1 ms (measured; oneDNN itself costs about
/// 0.1 ms a case), so the default keeps to one lower cap and an eighth of the cases: a default one-worker campaign
/// costs about 5% more CPU. The other lower caps (sse41; avx512_core below avx512_core_bf16) run when named with
/// --isa-caps, which draws each named cap alike.
struct Draw {
  std::vector<std::string> slots;
};

Draw default_draw() {
  const std::vector<std::string> host = host_isa_caps();
  if (host.empty()) return {{""}};
  Draw draw{std::vector<std::string>(7, host.back())};
  draw.slots.push_back(host.back() != "avx2" && host_lacks("avx2").empty() ? "avx2" : host.back());
  return draw;
}

Draw &current_draw() {
  static Draw draw = default_draw();
  return draw;
}

} // namespace

void set_drawn_isa_caps(const std::string &names) {
  if (names.empty()) {
    current_draw() = default_draw();
    return;
  }
  Draw draw;
  for (size_t begin = 0; begin <= names.size();) {
    const size_t end = std::min(names.find(',', begin), names.size());
    const std::string name = names.substr(begin, end - begin);
    if (const std::string lacks = host_lacks(name); !lacks.empty())
      throw InputError(fmt::format("--isa-caps {}: {}", names, lacks));
    draw.slots.push_back(name);
    begin = end + 1;
  }
  current_draw() = draw;
}

std::string drawn_isa_cap(uint64_t seed, uint64_t case_index) {
  const Draw &draw = current_draw();
  const uint64_t hash = mix64(mix64(seed ^ 0x6973612d63617021ULL) ^ case_index);
  return draw.slots[hash % draw.slots.size()];
}

std::string isa_cap_of(const Case &conv_case) {
  return conv_case.isa_cap ? *conv_case.isa_cap : drawn_isa_cap(conv_case.seed, conv_case.case_index);
}

const std::vector<std::string> &aten_capabilities() {
  static const std::vector<std::string> names = {"default", "avx2", "avx512"};
  return names;
}

std::string host_lacks_aten(const std::string &name) {
  // What ATen 1.13 checks before it picks a capability itself (aten/src/ATen/native/DispatchStub.cpp,
  // compute_cpu_capability): AVX2 with FMA; AVX-512 VL, BW and DQ with FMA.
  static const std::vector<std::vector<std::string>> needs = {
      {}, {"avx2", "fma"}, {"avx512f", "avx512vl", "avx512bw", "avx512dq", "fma"}};
  const auto &names = aten_capabilities();
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end())
    return fmt::format("unknown ATen CPU capability '{}' (known: {})", name, fmt::join(names, ", "));
  for (const std::string &feature : needs[static_cast<size_t>(found - names.begin())])
    if (!has(feature)) return fmt::format("this host cannot run ATen's {} kernels: it lacks {}", name, feature);
  return "";
}

std::vector<std::string> host_aten_capabilities() {
  std::vector<std::string> capabilities;
  for (const std::string &name : aten_capabilities())
    if (host_lacks_aten(name).empty()) capabilities.push_back(name);
  return capabilities;
}

std::string drawn_aten_capability(uint64_t seed, uint64_t case_index) {
  // Like the ISA caps' default draw: a case whose capability is not the worker's crosses a pipe to a server of its
  // own, and each server costs its worker a start with libtorch (0.5 s to 2.7 s, docs/performance.md), so most
  // cases keep ATen's own choice ("": it is not known before libtorch is loaded, and a draw must not depend on
  // whether it was) and each capability the host can run gets an eighth: on an AVX-512 host that is ATen's default,
  // avx2 and avx512 kernels in one campaign.
  static const std::vector<std::string> slots = [] {
    std::vector<std::string> built = host_aten_capabilities();
    built.resize(8, "");
    return built;
  }();
  return slots[mix64(mix64(seed ^ 0x6174656e2d636170ULL) ^ case_index) % slots.size()];
}

std::string aten_capability_of(const Case &conv_case) {
  return conv_case.aten_capability ? *conv_case.aten_capability
                                   : drawn_aten_capability(conv_case.seed, conv_case.case_index);
}

} // namespace convcheck
