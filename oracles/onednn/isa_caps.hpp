#pragma once
// oneDNN's ISA caps, a dispatch setting (core/numerics/dispatch_setting.hpp). oneDNN picks its kernels by the host's
// ISA (jit:avx2, jit:avx512_core, brgconv:avx512_core, ...), so a campaign that always runs it uncapped tests one
// family only, and a bug that lives in another (oneDNN issue #6035 is in the AVX2 jit_1x1 kernel) passes on a host
// that dispatches elsewhere. A cap (dnnl_set_max_cpu_isa, or ONEDNN_MAX_CPU_ISA) is fixed per process before its
// first primitive, so a case whose cap differs from the process's runs in a process started with that cap
// (oracles/onednn/isa_server.hpp). Values: sse41, avx2, avx512_core, avx512_core_bf16, avx512_core_amx, lowest first;
// a case file keeps a case's cap as the root attribute `isa_cap`.

#include <string>

#include "core/numerics/case.hpp"

namespace convcheck {

/// The setting's name: Case::settings key and case-file attribute.
inline constexpr const char *isa_cap_setting = "isa_cap";

/// The case's cap: the one it carries, else the drawn one; "" no cap (the process's own ISA).
std::string isa_cap_of(const Case &conv_case);

/// Why this host cannot run kernels capped at `cap` ("" when it can), e.g. "this host cannot run avx512_core
/// kernels: it lacks avx512bw"; an unknown cap says so.
std::string host_lacks(const std::string &cap);

/// Whether oneDNN, running `conv_case`, may dispatch to kernels of `isa` (a cap's name: "avx512_core_bf16"): every
/// feature `isa` needs is in the case's cap, or, with no cap, on the host. Known-bug rows of a kernel family ask it.
bool onednn_may_use(const Case &conv_case, const std::string &isa);

/// What ONEDNN_MAX_CPU_ISA takes for `cap`: "AVX2" ("" for an unknown cap).
std::string onednn_isa_value(const std::string &cap);

} // namespace convcheck
