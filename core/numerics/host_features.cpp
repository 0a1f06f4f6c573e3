#include "core/numerics/host_features.hpp"

#include <cpuid.h>

namespace convcheck {

bool host_has(const std::string &feature) {
  // __builtin_cpu_supports checks XCR0 too: a feature the kernel does not save the state of is absent.
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

} // namespace convcheck
