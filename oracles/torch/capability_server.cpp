#include "oracles/torch/capability_server.hpp"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "core/process/wire.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/run/known_bug.hpp"
#include "oracles/dispatch/cap_server.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/isa_server.hpp"
#include "oracles/torch/aten_capability.hpp"

namespace convcheck {

namespace {

constexpr const char *server_variable = "CONVCHECK_TORCH_SERVER";

/// The server's pair as its variable spells it: "avx512/avx2" (ATen capability / oneDNN cap, "" for none).
std::string pair_key(const std::string &capability, const std::string &cap) { return capability + "/" + cap; }


std::string answer(const std::string &request) {
  WireReader in(request);
  const bool run_held_back = in.get<bool>();
  const std::string name = in.get_string();
  Case conv_case;
  conv_case.problem = in.get<Problem>();
  conv_case.seed = in.get<uint64_t>();
  conv_case.case_index = in.get<uint64_t>();
  conv_case.special = in.get<FillSpecial>(); // known-bug rows of special values ask it
  conv_case.settings[aten_capability_setting] = in.get_string();
  conv_case.settings[isa_cap_setting] = in.get_string();
  for (Role role : input_roles) conv_case[role] = get_tensor(in);
  WireWriter out;
  const Strategy *strategy = find_strategy(name);
  put_runs(out, strategy != nullptr && strategy->run_case
                    ? strategy->run_case(conv_case, Asked{direction_list(conv_case.problem.op), run_held_back})
                    : every_direction_failed(conv_case.problem.op, "the torch server has no strategy " + name));
  return out.bytes();
}

} // namespace

int serve_torch_capability_if_asked() {
  if (std::getenv(server_variable) == nullptr) return -1;
  return serve_frames(answer);
}

RunResults torch_results_capped(const std::string &strategy, const Case &conv_case, const Asked &asked,
                                bool onednn_beneath, const TorchHere &here) {
  // The oneDNN cap matters to `torch` only (its Mkldnn backend is oneDNN), but a server for another ATen capability
  // is started with the case's cap either way, so that torch_native's cases share torch's servers.
  const std::string capability = aten_capability_of(conv_case);
  std::string cap = isa_cap_of(conv_case);
  if (std::string lacks = capability.empty() ? "" : host_lacks_aten(capability); !lacks.empty())
    return every_direction_skipped(conv_case.problem.op, lacks);
  if (std::string lacks = cap.empty() || !onednn_beneath ? "" : host_lacks(cap); !lacks.empty())
    return every_direction_skipped(conv_case.problem.op, lacks);
  const bool capability_here = capability.empty() || capability == here.capability();
  const bool cap_here = cap.empty() || cap == onednn_process_isa();
  if (capability_here && (cap_here || !onednn_beneath)) return here.run(conv_case, asked);
  if (!cap.empty() && !host_lacks(cap).empty()) cap = ""; // torch_native: no cap rather than none at all
  const std::string key = pair_key(capability, cap), what = fmt::format("the torch server for {}", key);
  if (const char *serving = std::getenv(server_variable); serving != nullptr)
    return every_direction_failed(conv_case.problem.op,
                                  fmt::format("{} runs ATen at {} and oneDNN at {}", what, here.capability(),
                                              onednn_process_isa()));
  WireWriter request;
  request.put(asked.run_held_back);
  request.put(strategy);
  request.put(conv_case.problem);
  request.put(conv_case.seed);
  request.put(conv_case.case_index);
  request.put(conv_case.special);
  request.put(capability);
  request.put(cap);
  for (Role role : input_roles) put_tensor(request, conv_case[role]);
  std::string environment = fmt::format("{}='{}' ATEN_CPU_CAPABILITY={}", server_variable, key,
                                        capability.empty() ? here.capability() : capability);
  if (!cap.empty()) environment += " " + find_dispatch_setting(isa_cap_setting)->assignment(cap);
  std::string reply, why;
  if (!ask_cap_server(key, environment, server_variable, what, request, reply, why))
    return every_direction_failed(conv_case.problem.op, why);
  try {
    WireReader in(reply);
    return get_runs(in);
  } catch (const std::runtime_error &error) {
    return every_direction_failed(conv_case.problem.op, fmt::format("{} broke the protocol: {}", what, error.what()));
  }
}

std::string torch_capability_identity(const Case &conv_case, bool onednn_beneath, const TorchHere &here) {
  const std::string capability = aten_capability_of(conv_case), cap = isa_cap_of(conv_case);
  std::string identity = capability.empty() ? fmt::format("ATen's choice of capability, {} here", here.capability())
                                            : "ATen capability " + capability;
  if (onednn_beneath)
    identity += fmt::format(", oneDNN cap {} (oneDNN isa {})", cap.empty() ? "none" : cap, onednn_isa_under(cap));
  return identity;
}

} // namespace convcheck
