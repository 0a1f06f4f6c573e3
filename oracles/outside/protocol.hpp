#pragma once
// The frames of the server protocol, version 1 (docs/external.md, "The server protocol"): what convcheck sends a
// persistent server and how it reads the answers. Every header is a JSON object with a "type"; payloads are
// tensors back to back, each little-endian, C order, canonical layout (channels first, OI... weights).
//
//   convcheck -> server   {"type": "hello", "protocol": 1, "convcheck": VERSION}
//   server -> convcheck   {"type": "hello", "protocol": 1, "name": ..., "version": ..., "supports": {...},
//                          "algorithm": ...}   (name, version, supports and algorithm optional; algorithm "direct",
//                          "winograd:4", "fft", ...)
//   convcheck -> server   {"type": "case", "id": N, "problem": {...}, "directions": [...], "tensors": [...]} + bytes
//   server -> convcheck   {"type": "results", "id": N, "results": [...], "skipped": {...}} + bytes
//                         (a result may say its own "algorithm", overriding the hello's: an autotuner's pick)
//                       | {"type": "unsupported", "id": N, "reason": ...}
//                       | {"type": "error", "id": N, "message": ...}
//
// "problem" holds the fields of a v2 case file's /config under the same names (docs/case-format.md); "tensors"
// lists {"role", "dtype", "shape"} of the payload's tensors in order, "results" {"direction", "dtype", "shape"}.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/numerics/case.hpp"
#include "core/process/server_process.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

inline constexpr int64_t server_protocol_version = 1;

/// convcheck's hello.
Frame hello_frame();

/// What a server said of itself in its hello.
struct ServerHello {
  std::string name;    // "torch 2.1.0"; may be empty
  std::string version; // "version", where it gives one apart from its name; may be empty
  Support supports;
  Algorithm algorithm; // "algorithm": the class its results are judged under (core/numerics/algorithm.hpp)
  /// "directions" of "supports": the directions it computes (an inference runtime: output only); absent, every one.
  /// A direction it does not declare is skipped saying so, and a case none of whose directions it computes (or
  /// whose others are held back) is not sent.
  std::optional<std::vector<Direction>> directions;
  /// What of "supports" convcheck could not use: names it does not know, formats no row can reach (declared_support.hpp).
  std::vector<std::string> warnings = {};
};

/// Reads a server's hello; throws InputError naming what is wrong (not a hello, another protocol version, a
/// malformed declaration).
ServerHello read_hello(const Frame &frame);

/// The request for case `c`, numbered `id`, asking for the directions `asked` (the others are held back, unsupported
/// or not wanted by this caller).
Frame case_frame(const Case &c, uint64_t id, const std::vector<Direction> &asked);

/// Reads the answer to request `id` for `c`: results (converted to the problem's result formats; a direction
/// neither returned nor skipped is skipped as not returned), unsupported (every direction skipped with the reason)
/// or error (every direction failed with the message). Throws InputError naming what breaks the protocol,
/// including an answer to another request and tensors over `max_elements`.
RunResults read_reply(const Frame &frame, const Case &c, uint64_t id, int64_t max_elements);

} // namespace convcheck
