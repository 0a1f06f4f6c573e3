#pragma once
// The torch strategies under ATen's CPU capability (oracles/torch/aten_capability.hpp: default, avx2, avx512) and, for `torch`,
// the oneDNN ISA cap beneath ATen's Mkldnn backend. ATen fixes its capability at its first dispatch and oneDNN its
// cap at its first primitive, both per process, so a case whose pair is not this process's runs in a cap server
// (oracles/dispatch/cap_server.hpp says how they run and fail): this same executable exec'd with
// ATEN_CPU_CAPABILITY (and ONEDNN_MAX_CPU_ISA) set and CONVCHECK_TORCH_SERVER naming the pair, one per pair and per
// process that asks. The server runs the strategy the worker names, so the strategy code stays in oracles/torch/torch.cpp.

#include <functional>
#include <string>

#include "core/numerics/case.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

/// Serves as a torch capability server and returns its exit status when this process was started as one;
/// otherwise returns -1 at once. Called first thing by every main() that links the oracles.
int serve_torch_capability_if_asked();

/// How a torch strategy runs in this process: its results on a case, and ATen's capability here (loads libtorch).
struct TorchHere {
  std::function<RunResults(const Case &, const Asked &)> run;
  std::function<std::string()> capability;
};

/// `strategy`'s results on `conv_case` under the case's ATen capability and, when `onednn_beneath`, its ISA cap:
/// `here.run` when this process runs at them, else through this process's server for the pair. Every direction
/// skipped with the reason when this host cannot run them.
RunResults torch_results_capped(const std::string &strategy, const Case &conv_case, const Asked &asked,
                                bool onednn_beneath, const TorchHere &here);

/// What a finding records of where `conv_case` ran: "ATen capability avx512, oneDNN cap avx2 (oneDNN isa avx2)"
/// ("ATen's choice, avx2 here" when the case has none).
std::string torch_capability_identity(const Case &conv_case, bool onednn_beneath, const TorchHere &here);

} // namespace convcheck
