#pragma once
// Any implementation outside convcheck as a persistent server (docs/external.md, "The server protocol"): started
// once per process that runs cases (each worker; a shrinking child), it is sent one case after another over its
// stdin and answers each over its stdout, in the frames of oracles/outside/protocol.hpp. Every way it can fail costs
// the case in flight, never the run: a crash, an exit, a reply past --external-timeout (its process group is
// killed), garbage, a malformed frame or an answer to another request fail every direction of that case with the
// reason, and the next case starts a fresh server. --external-server-max-cases N restarts it every N cases, for a
// server that leaks.

#include <cstdint>
#include <string>

#include "core/run/strategy.hpp"

namespace convcheck {

struct ServerSpec {
  std::string name;
  std::string command;
  double timeout_s = 60;                       // per case
  double start_timeout_s = 60;                 // from starting it to its hello
  int64_t max_elements = default_max_elements; // cap on what is read back
  int64_t max_cases = 0;                       // cases per server before it is restarted; 0: never
};

/// Parses `--external-server NAME=COMMAND` (the rules of --external); throws InputError.
ServerSpec parse_external_server(const std::string &text);

/// The strategy that sends each case to the server. Starts the server once here, to read its hello (what it
/// supports becomes the strategy's Support, so unsupported problems are never sent), then stops it. Throws
/// InputError naming the server when it cannot start, exits or hangs before its hello, or breaks the hello.
Strategy server_strategy(const ServerSpec &spec);

} // namespace convcheck
