#include "oracles/dispatch/cap_server.hpp"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <unistd.h>

#include "core/process/server_process.hpp"

namespace convcheck {

namespace {

constexpr double request_timeout_s = 600; // the worker's own --case-timeout ends a hang well before this

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

std::string this_executable() {
  char path[PATH_MAX] = {};
  const ssize_t size = readlink("/proc/self/exe", path, sizeof path - 1);
  if (size <= 0) throw std::runtime_error("cannot find this executable (/proc/self/exe) to start a cap server");
  return std::string(path, static_cast<size_t>(size));
}

} // namespace

void put_tensor(WireWriter &out, const Tensor &tensor) {
  out.put(tensor.dtype());
  out.put(static_cast<uint64_t>(tensor.shape().size()));
  for (int64_t extent : tensor.shape()) out.put(extent);
  out.put(std::string(static_cast<const char *>(tensor.bytes()), tensor.byte_size()));
}

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

void put_runs(WireWriter &out, const RunResults &runs) {
  out.put(static_cast<uint64_t>(runs.size()));
  for (const auto &[direction, run] : runs) {
    out.put(direction);
    out.put(run.skipped);
    out.put(run.held_back);
    out.put(run.error);
    out.put(run.algorithm ? to_string(*run.algorithm) : std::string());
    out.put(!run.result.empty());
    if (!run.result.empty()) put_tensor(out, run.result);
  }
}

RunResults get_runs(WireReader &in) {
  RunResults runs;
  for (auto count = in.get<uint64_t>(); count > 0; --count) {
    RunResult &run = runs[in.get<Direction>()];
    run.skipped = in.get_string();
    run.held_back = in.get_string();
    run.error = in.get_string();
    if (const std::string algorithm_class = in.get_string(); !algorithm_class.empty())
      run.algorithm = parse_algorithm(algorithm_class, "algorithm from a cap server");
    if (in.get<bool>()) run.result = get_tensor(in);
  }
  return runs;
}

int serve_frames(const std::function<std::string(const std::string &)> &answer) {
  const int replies = dup(STDOUT_FILENO);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  std::string request;
  while (read_request(request))
    if (!write_reply(replies, answer(request))) return 0;
  return 0;
}

bool ask_cap_server(const std::string &key, const std::string &environment, const char *server_variable,
                    const std::string &what, const WireWriter &request, std::string &reply, std::string &why) {
  static std::map<std::string, std::unique_ptr<ServerProcess>> servers;
  // A process started as a server that asks for another is an executable whose main() does not serve: never
  // start servers from servers.
  if (std::getenv(server_variable) != nullptr) {
    why = fmt::format("{} cannot start: this executable does not serve it (its main() does not call the server's "
                      "serve function)", what);
    return false;
  }
  std::unique_ptr<ServerProcess> &server = servers[key];
  if (!server) server = std::make_unique<ServerProcess>();
  if (!server->running()) {
    try {
      server->start(fmt::format("{} exec '{}'", environment, this_executable()));
    } catch (const std::runtime_error &error) {
      why = fmt::format("{} cannot start: {}", what, error.what());
      return false;
    }
  }
  server->clear_output();
  const Frame frame{"", request.bytes()};
  const Exchange exchange = server->exchange(&frame, request_timeout_s);
  if (exchange.kind == Exchange::Kind::answered) {
    reply = exchange.frame.payload;
    return true;
  }
  const std::string output = exchange.output.empty() ? "" : "; output: " + exchange.output;
  why = fmt::format("{} {}{}", what,
                    exchange.kind == Exchange::Kind::malformed ? "broke the protocol: it " + exchange.problem
                                                               : "failed: " + exchange.termination.describe(),
                    output);
  return false;
}

} // namespace convcheck
