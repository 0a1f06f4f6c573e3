#include "oracles/support/onednn_isa_server.hpp"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

#include <dnnl.h>
#include <fmt/format.h>
#include <unistd.h>

#include "core/process/server_process.hpp"
#include "core/process/wire.hpp"
#include "core/run/held_back.hpp"
#include "core/numerics/isa_cap.hpp"

namespace convcheck {

namespace {

constexpr const char *server_variable = "CONVCHECK_ONEDNN_ISA_SERVER";
constexpr double request_timeout_s = 600; // the worker's own --case-timeout ends a hang well before this

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
  default: return fmt::format("isa {:#x}", static_cast<unsigned>(isa));
  }
}

void put_tensor(WireWriter &out, const Tensor &tensor) {
  out.put(tensor.dtype());
  out.put(static_cast<uint64_t>(tensor.shape().size()));
  for (int64_t extent : tensor.shape()) out.put(extent);
  out.put(std::string(static_cast<const char *>(tensor.bytes()), tensor.byte_size()));
}

/// A tensor of any format oneDNN takes (float32, bf16, f16), its bytes as they were.
Tensor get_tensor(WireReader &in) {
  const auto dtype = in.get<DType>();
  if (static_cast<size_t>(dtype) >= dtype_table().size()) throw std::runtime_error("wire: unknown tensor format");
  Shape shape(in.get<uint64_t>());
  if (shape.size() > 8) throw std::runtime_error("wire: tensor rank over 8");
  for (int64_t &extent : shape) extent = in.get<int64_t>();
  const std::string bytes = in.get_string();
  Tensor tensor = Tensor::uninitialized(dtype, shape);
  if (bytes.size() != tensor.byte_size()) throw std::runtime_error("wire: tensor bytes do not match its shape");
  std::memcpy(tensor.bytes(), bytes.data(), bytes.size());
  return tensor;
}

// --- the server ------------------------------------------------------------------------------------------

bool read_exactly(int fd, char *bytes, size_t size) {
  for (size_t done = 0; done < size;) {
    const ssize_t n = read(fd, bytes + done, size - done);
    if (n > 0) done += static_cast<size_t>(n);
    else if (n == 0 || errno != EINTR) return false;
  }
  return true;
}

bool write_exactly(int fd, const char *bytes, size_t size) {
  for (size_t done = 0; done < size;) {
    const ssize_t n = write(fd, bytes + done, size - done);
    if (n > 0) done += static_cast<size_t>(n);
    else if (errno != EINTR) return false;
  }
  return true;
}

/// The payload of the next frame on stdin, or false when stdin closed (the owner is done).
bool read_request(std::string &payload) {
  char prefix[16];
  if (!read_exactly(STDIN_FILENO, prefix, sizeof prefix) || std::memcmp(prefix, "CCKF", 4) != 0) return false;
  uint32_t header_size = 0;
  uint64_t payload_size = 0;
  std::memcpy(&header_size, prefix + 4, 4);
  std::memcpy(&payload_size, prefix + 8, 8);
  std::string header(header_size, '\0');
  payload.assign(payload_size, '\0');
  return read_exactly(STDIN_FILENO, header.data(), header.size()) &&
         read_exactly(STDIN_FILENO, payload.data(), payload.size());
}

bool write_reply(int fd, const std::string &payload) {
  char prefix[16];
  const uint32_t header_size = 0;
  const uint64_t payload_size = payload.size();
  std::memcpy(prefix, "CCKF", 4);
  std::memcpy(prefix + 4, &header_size, 4);
  std::memcpy(prefix + 8, &payload_size, 8);
  return write_exactly(fd, prefix, sizeof prefix) && write_exactly(fd, payload.data(), payload.size());
}

std::string answer(const std::string &request) {
  WireReader in(request);
  WireWriter out;
  const auto kind = in.get<Request>();
  if (kind == Request::isa) {
    out.put(onednn_process_isa());
    return out.bytes();
  }
  set_run_held_back(in.get<bool>());
  const auto path = in.get<OnednnPath>();
  const auto algorithm = in.get<OnednnAlgorithm>();
  Case conv_case;
  conv_case.problem = in.get<Problem>();
  if (kind == Request::implementation) {
    out.put(onednn_implementation(conv_case.problem, in.get<Direction>(), path, algorithm));
    return out.bytes();
  }
  conv_case.seed = in.get<uint64_t>();
  conv_case.case_index = in.get<uint64_t>();
  for (Role role : input_roles) conv_case[role] = get_tensor(in);
  const RunResults runs = onednn_results(conv_case, path, algorithm);
  out.put(static_cast<uint64_t>(runs.size()));
  for (const auto &[direction, run] : runs) {
    out.put(direction);
    out.put(run.skipped);
    out.put(run.error);
    out.put(run.algorithm ? to_string(*run.algorithm) : std::string());
    out.put(!run.result.empty());
    if (!run.result.empty()) put_tensor(out, run.result);
  }
  return out.bytes();
}

int serve(const std::string &cap) {
  // Replies go to a private copy of stdout; whatever a library prints goes to stderr, never into a frame.
  const int replies = dup(STDOUT_FILENO);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  if (onednn_process_isa() != cap) {
    fmt::print(stderr, "oneDNN runs at {} here, not at the cap {} it was started with\n", onednn_process_isa(), cap);
    return 3;
  }
  std::string request;
  while (read_request(request))
    if (!write_reply(replies, answer(request))) return 0;
  return 0;
}

// --- the client ------------------------------------------------------------------------------------------

std::string this_executable() {
  char path[PATH_MAX] = {};
  const ssize_t size = readlink("/proc/self/exe", path, sizeof path - 1);
  if (size <= 0) throw std::runtime_error("cannot find this executable (/proc/self/exe) to start a oneDNN server");
  return std::string(path, static_cast<size_t>(size));
}

/// This process's server for `cap`, started on first use and again after it died.
ServerProcess &server_for(const std::string &cap) {
  static std::map<std::string, std::unique_ptr<ServerProcess>> servers;
  // A process started as a server that asks for another is an executable whose main() does not serve: never
  // start servers from servers.
  if (std::getenv(server_variable) != nullptr)
    throw std::runtime_error("this executable does not serve oneDNN caps (its main() does not call "
                             "serve_onednn_isa_if_asked)");
  std::unique_ptr<ServerProcess> &server = servers[cap];
  if (!server) server = std::make_unique<ServerProcess>();
  if (!server->running())
    server->start(fmt::format("{}={} ONEDNN_MAX_CPU_ISA={} exec '{}'", server_variable, cap,
                              find_isa_cap(cap)->onednn_value, this_executable()));
  return *server;
}

/// The reply to `request` from the server for `cap`, or why there is none ("" and the reason in `why`).
bool ask(const std::string &cap, const WireWriter &request, std::string &reply, std::string &why) {
  ServerProcess *started = nullptr;
  try {
    started = &server_for(cap);
  } catch (const std::runtime_error &error) {
    why = fmt::format("the oneDNN server for cap {} cannot start: {}", cap, error.what());
    return false;
  }
  ServerProcess &server = *started;
  server.clear_output();
  const Frame frame{"", request.bytes()};
  const Exchange exchange = server.exchange(&frame, request_timeout_s);
  if (exchange.kind == Exchange::Kind::answered) {
    reply = exchange.frame.payload;
    return true;
  }
  const std::string output = exchange.output.empty() ? "" : "; output: " + exchange.output;
  why = fmt::format("the oneDNN server for cap {} {}{}", cap,
                    exchange.kind == Exchange::Kind::malformed ? "broke the protocol: it " + exchange.problem
                                                               : "failed: " + exchange.termination.describe(),
                    output);
  return false;
}

WireWriter request_header(Request kind, OnednnPath path, OnednnAlgorithm algorithm, const Problem &problem) {
  WireWriter request;
  request.put(kind);
  request.put(run_held_back());
  request.put(path);
  request.put(algorithm);
  request.put(problem);
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

RunResults onednn_results_under(const std::string &cap, const Case &conv_case, OnednnPath path,
                                OnednnAlgorithm algorithm) {
  if (cap.empty() || cap == onednn_process_isa()) return onednn_results(conv_case, path, algorithm);
  WireWriter request = request_header(Request::run, path, algorithm, conv_case.problem);
  request.put(conv_case.seed);
  request.put(conv_case.case_index);
  for (Role role : input_roles) put_tensor(request, conv_case[role]);
  std::string reply, why;
  if (!ask(cap, request, reply, why)) return every_direction_failed(conv_case.problem.op, why);
  RunResults runs;
  try {
    WireReader in(reply);
    for (auto count = in.get<uint64_t>(); count > 0; --count) {
      RunResult &run = runs[in.get<Direction>()];
      run.skipped = in.get_string();
      run.error = in.get_string();
      if (const std::string algorithm_class = in.get_string(); !algorithm_class.empty())
        run.algorithm = parse_algorithm(algorithm_class, "algorithm from the oneDNN server");
      if (in.get<bool>()) run.result = get_tensor(in);
    }
  } catch (const std::runtime_error &error) {
    return every_direction_failed(conv_case.problem.op,
                                  fmt::format("the oneDNN server for cap {} broke the protocol: {}", cap, error.what()));
  }
  return runs;
}

RunResults onednn_results_capped(const Case &conv_case, OnednnPath path, OnednnAlgorithm algorithm) {
  const std::string cap = isa_cap_of(conv_case);
  if (std::string lacks = cap.empty() ? "" : host_lacks(cap); !lacks.empty())
    return every_direction_skipped(conv_case.problem.op, lacks);
  return onednn_results_under(cap, conv_case, path, algorithm);
}

std::string onednn_implementation_under(const std::string &cap, const Problem &config, Direction direction,
                                        OnednnPath path, OnednnAlgorithm algorithm) {
  if (cap.empty() || cap == onednn_process_isa()) return onednn_implementation(config, direction, path, algorithm);
  WireWriter request = request_header(Request::implementation, path, algorithm, config);
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
  if (cap.empty() || cap == onednn_process_isa()) return onednn_process_isa();
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
