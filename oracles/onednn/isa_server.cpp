#include "oracles/onednn/isa_server.hpp"

#include <cstdlib>
#include <stdexcept>

#include <oneapi/dnnl/dnnl.h>
#include <fmt/format.h>

#include "core/process/wire.hpp"
#include "oracles/onednn/accumulation_modes.hpp"
#include "oracles/onednn/isa_caps.hpp"
#include "oracles/onednn/memory.hpp"
#include "oracles/dispatch/cap_server.hpp"

namespace convcheck {

namespace {

constexpr const char *server_variable = "CONVCHECK_ONEDNN_ISA_SERVER";

enum class Request : uint8_t { run, implementation, isa };

/// dnnl_cpu_isa_t by the name convcheck uses (oneDNN's, without the prefix).
std::string isa_name(dnnl_cpu_isa_t isa) {
  switch (isa) {
  case dnnl_cpu_isa_sse41: return "sse41";
  case dnnl_cpu_isa_avx: return "avx";
  case dnnl_cpu_isa_avx2: return "avx2";
  case dnnl_cpu_isa_avx512_core: return "avx512_core";
  case dnnl_cpu_isa_avx512_core_vnni: return "avx512_core_vnni";
  case dnnl_cpu_isa_avx512_core_bf16: return "avx512_core_bf16";
  case dnnl_cpu_isa_avx512_core_amx: return "avx512_core_amx";
  case dnnl_cpu_isa_avx2_vnni: return "avx2_vnni";
  case dnnl_cpu_isa_avx2_vnni_2: return "avx2_vnni_2";
  case dnnl_cpu_isa_avx512_core_fp16: return "avx512_core_fp16";
  case dnnl_cpu_isa_avx512_core_amx_fp16: return "avx512_core_amx_fp16";
  default: return fmt::format("isa {:#x}", static_cast<unsigned>(isa));
  }
}

std::string answer(const std::string &request) {
  WireReader in(request);
  WireWriter out;
  const auto kind = in.get<Request>();
  if (kind == Request::isa) {
    out.put(onednn_process_isa());
    return out.bytes();
  }
  const bool run_held_back = in.get<bool>();
  const auto path = in.get<OnednnPath>();
  const auto algorithm = in.get<OnednnAlgorithm>();
  Case conv_case;
  conv_case.problem = in.get<Problem>();
  // The case's accumulation mode as its worker has it (carried by a case file, or drawn under the worker's
  // --acc-modes): this process would draw its own.
  conv_case.settings[acc_mode_setting] = in.get_string();
  // Its cap is this server's (the known-bug rows ask it): drawn here it could be another when the worker's was carried.
  conv_case.settings[isa_cap_setting] = std::getenv(server_variable);
  if (kind == Request::implementation) {
    out.put(onednn_implementation(conv_case.problem, in.get<Direction>(), path, algorithm,
                                  conv_case.settings[acc_mode_setting]));
    return out.bytes();
  }
  conv_case.seed = in.get<uint64_t>();
  conv_case.case_index = in.get<uint64_t>();
  conv_case.special = in.get<FillSpecial>();                 // what known-bug rows ask of the case, as in the
  conv_case.settings[isa_cap_setting] = in.get_string();     // client's process
  for (Role role : input_roles) conv_case[role] = get_tensor(in);
  put_runs(out, onednn_results(conv_case, path, algorithm, run_held_back));
  return out.bytes();
}

int serve(const std::string &cap) {
  if (onednn_process_isa() != cap) {
    fmt::print(stderr, "oneDNN runs at {} here, not at the cap {} it was started with\n", onednn_process_isa(), cap);
    return 3;
  }
  return serve_frames(answer);
}

// --- the client ------------------------------------------------------------------------------------------

/// The reply to `request` from this process's server for `cap`, or why there is none ("" and the reason in `why`).
bool ask(const std::string &cap, const WireWriter &request, std::string &reply, std::string &why) {
  const std::string environment =
      fmt::format("{}={} ONEDNN_MAX_CPU_ISA={}", server_variable, cap, onednn_isa_value(cap));
  return ask_cap_server(cap, environment, server_variable, fmt::format("the oneDNN server for cap {}", cap), request, reply, why);
}

WireWriter request_header(Request kind, OnednnPath path, OnednnAlgorithm algorithm, const Problem &problem,
                          const std::string &acc_mode, bool run_held_back = false) {
  WireWriter request;
  request.put(kind);
  request.put(run_held_back);
  request.put(path);
  request.put(algorithm);
  request.put(problem);
  request.put(acc_mode);
  return request;
}

} // namespace

int serve_onednn_isa_if_asked() {
  const char *cap = std::getenv(server_variable);
  if (cap == nullptr) return -1;
  return serve(cap);
}

std::string onednn_process_isa() {
  static const std::string isa = isa_name(dnnl_get_effective_cpu_isa()); // fixed from the first call on
  return isa;
}

namespace {

/// The cap a case of `cap` runs at, and whether this process runs it: at its own cap ("" is the process's), unless
/// it was forked from one whose oneDNN runtime already ran (cpu_engine_usable_here); else a server does.
std::string served_cap(const std::string &cap) { return cap.empty() ? onednn_process_isa() : cap; }
bool runs_here(const std::string &cap) { return served_cap(cap) == onednn_process_isa() && cpu_engine_usable_here(); }

} // namespace

RunResults onednn_results_under(const std::string &requested, const Case &conv_case, OnednnPath path,
                                OnednnAlgorithm algorithm, bool run_held_back) {
  if (runs_here(requested)) return onednn_results(conv_case, path, algorithm, run_held_back);
  const std::string cap = served_cap(requested);
  WireWriter request =
      request_header(Request::run, path, algorithm, conv_case.problem, acc_mode_of(conv_case), run_held_back);
  request.put(conv_case.seed);
  request.put(conv_case.case_index);
  request.put(conv_case.special);
  request.put(isa_cap_of(conv_case));
  for (Role role : input_roles) put_tensor(request, conv_case[role]);
  std::string reply, why;
  if (!ask(cap, request, reply, why)) return every_direction_failed(conv_case.problem.op, why);
  try {
    WireReader in(reply);
    return get_runs(in);
  } catch (const std::runtime_error &error) {
    return every_direction_failed(conv_case.problem.op,
                                  fmt::format("the oneDNN server for cap {} broke the protocol: {}", cap, error.what()));
  }
}

RunResults onednn_results_capped(const Case &conv_case, OnednnPath path, OnednnAlgorithm algorithm,
                                 bool run_held_back) {
  const std::string cap = isa_cap_of(conv_case);
  if (std::string lacks = cap.empty() ? "" : host_lacks(cap); !lacks.empty())
    return every_direction_skipped(conv_case.problem.op, lacks);
  return onednn_results_under(cap, conv_case, path, algorithm, run_held_back);
}

std::string onednn_implementation_under(const std::string &requested, const Problem &config, Direction direction,
                                        OnednnPath path, OnednnAlgorithm algorithm, const std::string &acc_mode) {
  if (runs_here(requested)) return onednn_implementation(config, direction, path, algorithm, acc_mode);
  const std::string cap = served_cap(requested);
  WireWriter request = request_header(Request::implementation, path, algorithm, config, acc_mode);
  request.put(direction);
  std::string reply, why;
  if (!ask(cap, request, reply, why)) return "none: " + why;
  try {
    WireReader in(reply);
    return in.get_string();
  } catch (const std::runtime_error &error) {
    return fmt::format("none: the oneDNN server for cap {} broke the protocol: {}", cap, error.what());
  }
}

std::string onednn_isa_under(const std::string &cap) {
  if (cap.empty() || cap == onednn_process_isa()) return onednn_process_isa(); // asks no engine
  WireWriter request;
  request.put(Request::isa);
  std::string reply, why;
  if (!ask(cap, request, reply, why)) return "unknown (" + why + ")";
  try {
    WireReader in(reply);
    return in.get_string();
  } catch (const std::runtime_error &error) {
    return fmt::format("unknown (the oneDNN server for cap {} broke the protocol: {})", cap, error.what());
  }
}

} // namespace convcheck
