#pragma once
// ATen's CPU capability, a dispatch setting (core/numerics/dispatch_setting.hpp). ATen compiles its vectorised CPU
// kernels once per capability (DEFAULT, AVX2, AVX512) and picks one per process at its first dispatch, from
// ATEN_CPU_CAPABILITY or, unset, the host (Debian's libtorch 1.13 picks avx2 on an AVX-512 host, measured:
// torch.__config__.show()). ATen 1.13 takes the variable's value without checking the host (a capability the host
// lacks would run instructions it has not), so convcheck checks. The torch strategies run each case under one
// (oracles/torch/capability_server.hpp); `torch` also under the case's ISA cap (oracles/onednn/isa_caps.hpp), which
// caps the oneDNN beneath ATen's Mkldnn backend. A case file keeps it as the root attribute `aten_capability`.

#include <string>
#include <vector>

#include "core/numerics/case.hpp"

namespace convcheck {

/// The setting's name: Case::settings key and case-file attribute.
inline constexpr const char *aten_capability_setting = "aten_capability";

/// The case's capability: the one it carries, else the drawn one; "" ATen's own choice.
std::string aten_capability_of(const Case &conv_case);

/// Why this host cannot run ATen's kernels of capability `name` ("" when it can); an unknown name says so.
std::string host_lacks_aten(const std::string &name);

/// The capabilities this host can run, lowest first.
std::vector<std::string> host_aten_capabilities();

} // namespace convcheck
