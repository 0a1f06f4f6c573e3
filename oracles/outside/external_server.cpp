#include "oracles/outside/external_server.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <fmt/ranges.h>

#include "core/input_error.hpp"
#include "core/process/server_process.hpp"
#include "oracles/outside/external.hpp"
#include "oracles/outside/protocol.hpp"

namespace convcheck {

namespace {

// What a failed exchange says about the server: "failed: killed by signal 11 (Segmentation fault); output: ...";
// `when` ("before its hello") goes after the verb.
std::string failure(const Exchange &exchange, const std::string &when = "") {
  const std::string output = exchange.output.empty() ? "" : "; output: " + exchange.output;
  if (exchange.kind == Exchange::Kind::malformed) return "broke the protocol" + when + ": it " + exchange.problem + output;
  return "failed" + when + ": " + exchange.termination.describe() + output;
}

// The server of one process. A forked copy finds it not running and starts its own (server_process.hpp).
class ServerConnection {
public:
  explicit ServerConnection(ServerSpec spec) : spec_(std::move(spec)) {}

  /// Starts the server and reads its hello; "" or why that failed.
  std::string start() {
    process_.start(spec_.command);
    served_ = 0;
    const Frame hello = hello_frame();
    const Exchange exchange = process_.exchange(&hello, spec_.start_timeout_s);
    if (exchange.kind != Exchange::Kind::answered) return failure(exchange, " before its hello");
    try {
      hello_ = read_hello(exchange.frame);
    } catch (const InputError &error) {
      const std::string output = process_.output_tail();
      process_.stop(0);
      return fmt::format("broke the protocol in its hello: it {}{}", error.what(),
                         output.empty() ? "" : "; output: " + output);
    }
    return {};
  }

  void stop() { process_.stop(1); }

  RunResults run(const Case &c, const std::vector<Direction> &asked) {
    if (!process_.running())
      if (const std::string why = start(); !why.empty())
        return every_direction_failed(c.problem.op, "the server " + why);
    process_.clear_output();
    const uint64_t id = ++requests_;
    const Frame request = case_frame(c, id, asked);
    const Exchange exchange = process_.exchange(&request, spec_.timeout_s);
    if (exchange.kind != Exchange::Kind::answered)
      return every_direction_failed(c.problem.op, "the server " + failure(exchange));
    RunResults runs;
    try {
      runs = read_reply(exchange.frame, c, id, spec_.max_elements);
    } catch (const InputError &error) {
      process_.stop(0); // what it sends next cannot be trusted to belong to the next request
      return every_direction_failed(c.problem.op, fmt::format("the server broke the protocol: it {}", error.what()));
    }
    if (spec_.max_cases > 0 && ++served_ >= spec_.max_cases) stop();
    return runs;
  }

  const ServerHello &hello() const { return hello_; }

private:
  ServerSpec spec_;
  ServerProcess process_;
  ServerHello hello_;
  uint64_t requests_ = 0;
  int64_t served_ = 0;
};

} // namespace

ServerSpec parse_external_server(const std::string &text) {
  const ExternalSpec external = parse_external(text, "external-server");
  return ServerSpec{external.name, external.command};
}

Strategy server_strategy(const ServerSpec &spec) {
  auto connection = std::make_shared<ServerConnection>(spec);
  if (const std::string why = connection->start(); !why.empty())
    throw InputError(fmt::format("external-server '{}' {}", spec.name, why));
  connection->stop(); // each worker starts its own
  Strategy strategy;
  strategy.outside = true;
  strategy.name = spec.name;
  strategy.description = fmt::format("external server{}: {}",
                                     connection->hello().name.empty() ? "" : " (" + connection->hello().name + ")",
                                     spec.command);
  strategy.supports = connection->hello().supports;
  for (const std::string &warning : connection->hello().warnings) {
    strategy.declaration_warnings.push_back(fmt::format("{}: its hello's {}", spec.name, warning));
    spdlog::warn("{}", strategy.declaration_warnings.back());
  }
  strategy.algorithm = connection->hello().algorithm;
  if (const auto &declared = connection->hello().directions) {
    std::vector<std::string> names;
    for (Direction direction : *declared) names.push_back(to_string(direction));
    strategy.unsupported = [declared = *declared, names = fmt::format("{}", fmt::join(names, ", "))](
                               const Problem &, Direction direction) {
      return std::find(declared.begin(), declared.end(), direction) != declared.end()
                 ? std::string()
                 : fmt::format("direction {} is not supported (directions: {})", to_string(direction),
                               names.empty() ? "none" : names);
    };
  }
  strategy.run_case = [connection](const Case &c, const Asked &asked) {
    return connection->run(c, asked.directions);
  };
  strategy.implementation = [connection](const Case &, Direction) { return connection->hello().name; };
  strategy.identity = [hello = connection->hello()] { return ImplementationIdentity{hello.name, hello.version}; };
  return strategy;
}

} // namespace convcheck
