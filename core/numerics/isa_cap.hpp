#pragma once
// ISA caps: which kernel family a library may dispatch to. oneDNN picks its kernels by the host's ISA (jit:avx2,
// jit:avx512_core, brgconv:avx512_core, ...), so a campaign that always runs it uncapped tests one family only, and
// a bug that lives in another (oneDNN issue #6035 is in the AVX2 jit_1x1 kernel) passes on a host that dispatches
// elsewhere. A cap (oneDNN's dnnl_set_max_cpu_isa, or ONEDNN_MAX_CPU_ISA) is fixed per process before its first
// primitive, so a case whose cap differs from the process's runs in a process started with that cap
// (oracles/onednn/isa_server.hpp).
//
// Each case has a cap: drawn from (seed, case index) among the caps this host can run, like the oneDNN path, so
// shrinking keeps it; a case file records it (root attribute `isa_cap`) and `repro` replays under it. A file without
// the attribute reads as "no cap" (""): the process's own ISA, as convcheck ran every case before caps existed.

#include <cstdint>
#include <string>
#include <vector>

#include "core/numerics/case.hpp"

namespace convcheck {

/// A cap convcheck knows, lowest first.
struct IsaCap {
  std::string name;          ///< "avx2": convcheck's and oneDNN's lowercase name (dnnl_cpu_isa_avx2)
  std::string onednn_value;  ///< "AVX2": what ONEDNN_MAX_CPU_ISA takes
  std::string needs;         ///< the host features it needs, as /proc/cpuinfo spells them
};

/// sse41, avx2, avx512_core, avx512_core_bf16, avx512_core_amx.
const std::vector<IsaCap> &isa_caps();

/// The cap called `name`, or nullptr.
const IsaCap *find_isa_cap(const std::string &name);

/// Why this host cannot run kernels capped at `name` ("" when it can), e.g. "this host has no avx512_core (it
/// lacks avx512bw)"; an unknown name says so.
std::string host_lacks(const std::string &name);

/// The caps this host can run, lowest first.
std::vector<std::string> host_isa_caps();

/// The cap of case `case_index` of a campaign seeded `seed`: by default the host's highest cap for 7/8 of the
/// cases and avx2 for 1/8 (isa_cap.cpp says why); after set_drawn_isa_caps, each of those caps alike.
std::string drawn_isa_cap(uint64_t seed, uint64_t case_index);

/// `--isa-caps a,b`: the caps cases are drawn from, process-wide, set before workers are forked ("" restores the
/// default). Throws InputError naming a cap that is unknown or that the host cannot run.
void set_drawn_isa_caps(const std::string &names);

/// The case's cap: the one it carries (from a case file), else the drawn one.
std::string isa_cap_of(const Case &conv_case);

// ATen's CPU capabilities: ATen compiles its vectorised CPU kernels once per capability (DEFAULT, AVX2, AVX512) and
// picks one per process at its first dispatch, from ATEN_CPU_CAPABILITY or, unset, the host (Debian's libtorch 1.13
// picks avx2 on this AVX-512 host, measured: torch.__config__.show()). ATen 1.13 takes the variable's value without
// checking the host (a capability the host lacks would run instructions it has not), so convcheck checks. The torch
// strategies run each case under one, drawn per case like the ISA cap (oracles/torch/capability_server.hpp);
// `torch` also under the case's ISA cap, which caps the oneDNN beneath ATen's Mkldnn backend. A case file keeps it
// (root attribute `aten_capability`); a file without it reads as "" (ATen's own choice).

/// default, avx2, avx512: ATEN_CPU_CAPABILITY's values, lowest first.
const std::vector<std::string> &aten_capabilities();

/// Why this host cannot run ATen's kernels of capability `name` ("" when it can); an unknown name says so.
std::string host_lacks_aten(const std::string &name);

/// The ATen capabilities this host can run, lowest first.
std::vector<std::string> host_aten_capabilities();

/// The ATen capability of case `case_index` of a campaign seeded `seed`: "" (ATen's own choice, the worker's) for 5/8
/// of the cases and each capability the host can run for 1/8 (isa_cap.cpp says why).
std::string drawn_aten_capability(uint64_t seed, uint64_t case_index);

/// The case's ATen capability: the one it carries (from a case file), else the drawn one.
std::string aten_capability_of(const Case &conv_case);

} // namespace convcheck
