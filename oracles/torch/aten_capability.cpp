#include "oracles/torch/aten_capability.hpp"

#include "core/numerics/dispatch_setting.hpp"

namespace convcheck {

namespace {

/// Like the ISA caps' default draw: a case whose capability is not the worker's crosses a pipe to a server of its
/// own, and each server costs its worker a start with libtorch (0.5 s to 2.7 s, docs/performance.md), so most
/// cases keep ATen's own choice ("": it is not known before libtorch is loaded, and a draw must not depend on
/// whether it was) and each capability the host can run gets an eighth: on an AVX-512 host that is ATen's default,
/// avx2 and avx512 kernels in one campaign.
std::vector<std::string> default_slots(const std::vector<std::string> &host) {
  std::vector<std::string> slots = host;
  slots.resize(8, "");
  return slots;
}

// What ATen 1.13 checks before it picks a capability itself (aten/src/ATen/native/DispatchStub.cpp,
// compute_cpu_capability): AVX2 with FMA; AVX-512 VL, BW and DQ with FMA.
const DispatchSettingRegistration registration{{
    aten_capability_setting,
    "ATen",
    "ATen CPU capability",
    "torch and torch_native",
    "ATen's ",
    "ATEN_CPU_CAPABILITY",
    "aten-capabilities",
    "oracles/torch/capability_server.hpp",
    {{"default", "default", {}},
     {"avx2", "avx2", {"avx2", "fma"}},
     {"avx512", "avx512", {"avx512f", "avx512vl", "avx512bw", "avx512dq", "fma"}}},
    0x6174656e2d636170ULL,
    default_slots,
    "ATen's own choice for 5/8 of the cases (on an AVX2 host 6/8), each capability the host can run for 1/8 (a "
    "server start costs a worker 0.5 s to 2.7 s with libtorch)",
}};

const DispatchSetting &setting() { return *find_dispatch_setting(aten_capability_setting); }

} // namespace

std::string aten_capability_of(const Case &conv_case) { return setting_of(conv_case, aten_capability_setting); }

std::string host_lacks_aten(const std::string &name) { return setting().host_lacks(name); }

std::vector<std::string> host_aten_capabilities() { return setting().host_values(); }

} // namespace convcheck
