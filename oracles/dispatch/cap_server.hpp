#pragma once
// What every cap server shares (oracles/onednn/isa_server.hpp for oneDNN's ISA caps,
// oracles/torch/capability_server.hpp for ATen's CPU capabilities): a library that fixes its kernel family
// once per process runs a case of another family in a server process, this same executable exec'd with that
// family's environment, one per family and per process that asks, answering frames (core/process/server_process.hpp)
// on stdin and stdout until stdin closes. Both ends are the same binary, so requests and replies are plain wire
// bytes (core/process/wire.hpp). A server that crashes or hangs fails that case's directions with the reason and is
// started again for the next; its heap is its own, so a kernel writing past its memory costs the server, not the
// worker.

#include <functional>
#include <string>

#include "core/process/wire.hpp"
#include "core/run/strategy.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

/// Appends a tensor of any format (its dtype, shape and bytes as they are).
void put_tensor(WireWriter &out, const Tensor &tensor);
/// Reads what put_tensor wrote; throws std::runtime_error on a malformed one.
Tensor get_tensor(WireReader &in);

/// Appends a strategy's results (per direction: skipped, error, algorithm class, result).
void put_runs(WireWriter &out, const RunResults &runs);
/// Reads what put_runs wrote; throws std::runtime_error (or InputError for an unknown algorithm class).
RunResults get_runs(WireReader &in);

/// Answers frames on stdin with `answer(payload)` until stdin closes, replies on a private copy of stdout (whatever
/// a library prints goes to stderr, never into a frame); returns the server's exit status (0).
int serve_frames(const std::function<std::string(const std::string &)> &answer);

/// The reply of this process's server `key`, started on first use and again after it died as
/// "`environment` exec THIS_EXECUTABLE" (`environment`: "NAME=value ..." assignments, among them the variable that
/// makes main() serve). False with the reason, naming `what` ("the oneDNN server for cap avx2"), in `why`.
/// Refuses in a process that was started as a server (`server_variable` set): servers never start servers.
bool ask_cap_server(const std::string &key, const std::string &environment, const char *server_variable,
                    const std::string &what, const WireWriter &request, std::string &reply, std::string &why);

} // namespace convcheck
