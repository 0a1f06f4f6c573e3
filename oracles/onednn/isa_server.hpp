#pragma once
// oneDNN under an ISA cap (oracles/onednn/isa_caps.hpp). oneDNN fixes its cap at the first primitive of a process, so a
// case whose cap is not this process's runs in a cap server (oracles/dispatch/cap_server.hpp says how they run and
// fail): this same executable, exec'd with ONEDNN_MAX_CPU_ISA set and CONVCHECK_ONEDNN_ISA_SERVER naming the cap,
// one per cap and per process that asks (each worker starts its own, like --external-server).

#include <string>

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {

/// Serves as a cap server and returns its exit status when this process was started as one; otherwise returns
/// -1 at once. Called first thing by every main() that links the oracles (convcheck's, the oracle tests').
int serve_onednn_isa_if_asked();

/// The ISA oneDNN runs at in this process, by convcheck's cap name ("avx512_core_bf16"; oneDNN's own name for
/// one convcheck has no cap for). Fixes this process's cap, as any primitive does.
std::string onednn_process_isa();

/// onednn_results under `cap`: in this process when it runs at `cap`, else through this process's server for it.
RunResults onednn_results_under(const std::string &cap, const Case &conv_case, OnednnPath path,
                                OnednnAlgorithm algorithm, bool run_held_back);

/// onednn_results under the case's own cap (oracles/onednn/isa_caps.hpp: carried or drawn); every direction skipped with
/// the reason when this host cannot run that cap.
RunResults onednn_results_capped(const Case &conv_case, OnednnPath path, OnednnAlgorithm algorithm,
                                 bool run_held_back);

/// onednn_implementation under `cap`, likewise; "none: ..." when the server fails.
std::string onednn_implementation_under(const std::string &cap, const Problem &config, Direction direction,
                                        OnednnPath path, OnednnAlgorithm algorithm = OnednnAlgorithm::direct,
                                        const std::string &acc_mode = "");

/// The ISA oneDNN reports under `cap` (its dnnl_get_effective_cpu_isa), or why none could be asked.
std::string onednn_isa_under(const std::string &cap);

} // namespace convcheck
