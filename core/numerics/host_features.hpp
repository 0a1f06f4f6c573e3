#pragma once
// What the CPU this process runs on can execute, by feature name as /proc/cpuinfo spells it ("avx2", "avx512bw",
// "amx_bf16"): what a dispatch setting's values need (core/numerics/dispatch_setting.hpp).

#include <string>

namespace convcheck {

/// Whether the CPU (and, for the AVX ones, the kernel: XCR0) has `feature`; an unknown feature is false.
bool host_has(const std::string &feature);

} // namespace convcheck
