// `repro --emit external`: a reproducer of a finding of the user's own implementation, a per-case command
// (--external) or a server (--external-server), named on the repro command line as the campaign named it. A Python
// script that runs the command as convcheck ran it, on the case's inputs (the case file a command reads, or the
// request a server is sent, carried in the script), and judges the results against a float64 NumPy reference under
// convcheck's bound of the case. The driver is oracles/outside/python/external_reproducer.py; the parts it shares
// with a room's reproducer come from cmd/emit_python.hpp.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "cmd/emit.hpp"
#include "cmd/emit_python.hpp"
#include "core/input_error.hpp"
#include "core/problem/descriptor.hpp"
#include "oracles/outside/external.hpp"
#include "oracles/outside/external_server.hpp"
#include "oracles/outside/protocol.hpp"

namespace convcheck {

namespace {

/// One implementation named on the command line: a per-case command or a server.
struct Named {
  std::string name, command;
  bool server = false;
};

/// The bytes of the case file convcheck writes a per-case command for the case (command_case_file).
std::string command_case_bytes(const Case &c) {
  std::string path = (std::filesystem::temp_directory_path() / "convcheck-emit-XXXXXX").string();
  const int descriptor = mkstemp(path.data());
  if (descriptor < 0) throw InputError("repro --emit external: cannot create a temporary file");
  close(descriptor);
  std::stringstream bytes;
  try {
    write_case_file(path, command_case_file(c));
    bytes << std::ifstream(path, std::ios::binary).rdbuf();
  } catch (...) {
    std::filesystem::remove(path);
    throw;
  }
  std::filesystem::remove(path);
  return bytes.str();
}

/// The implementation the script runs: the finding's, or the first named for a case without one (or, `anyway`,
/// for a finding of another).
const Named &reproducing(const std::vector<Named> &named, const CaseFile &case_file, const std::string &case_path,
                         bool anyway) {
  if (named.empty())
    throw InputError(fmt::format("repro --emit external needs the implementation to run: repeat the campaign's "
                                 "--external NAME=COMMAND or --external-server NAME=COMMAND{}",
                                 case_file.finding ? " naming " + case_file.finding->strategy : ""));
  if (!case_file.finding) return named.front();
  for (const Named &each : named)
    if (each.name == case_file.finding->strategy) return each;
  if (anyway) return named.front();
  std::string names;
  for (const Named &each : named) names += (names.empty() ? "" : ", ") + each.name;
  throw InputError(fmt::format("repro --emit external: {} is a finding of {}, and no --external or --external-server "
                               "names it (named: {}): its script would run another implementation (--emit-anyway "
                               "writes it, saying so)",
                               case_path, case_file.finding->strategy, names));
}

} // namespace

std::string emit_external(const CaseFile &case_file, const std::string &case_path,
                          const std::vector<std::string> &externals, const std::vector<std::string> &servers,
                          bool anyway) {
  std::vector<Named> named;
  for (const std::string &text : externals) {
    const ExternalSpec spec = parse_external(text);
    named.push_back({spec.name, spec.command, false});
  }
  for (const std::string &text : servers) {
    const ServerSpec spec = parse_external_server(text);
    named.push_back({spec.name, spec.command, true});
  }
  const Named &runs = reproducing(named, case_file, case_path, anyway);
  const bool finders = !case_file.finding || case_file.finding->strategy == runs.name;
  const Case &c = case_file.conv_case;
  const std::vector<Direction> asked = every_direction(c);
  const Frame request = case_frame(c, 1, asked);
  const std::string title = format_descriptor(c.problem) +
                            (case_file.finding ? fmt::format(": {} {}", case_file.finding->strategy,
                                                             to_string(case_file.finding->direction))
                                               : fmt::format(": {} (no finding)", runs.name));
  const std::string how = runs.server ? "a server, started with `/bin/sh -c COMMAND`, sent convcheck's hello and the "
                                        "case's\n# request"
                                      : "a per-case command, run as `/bin/sh -c 'COMMAND \"$@\"' convcheck IN OUT` on "
                                        "the\n# case file convcheck wrote it";
  return fmt::format(
      "#!/usr/bin/env python3\n"
      "{anyway}# {title}\n"
      "# Written by `convcheck repro {path} --emit external`. Runs {name}, {how}, from the directory\n"
      "# the script is run in, and judges its answer against a float64 NumPy reference under convcheck's bound of the\n"
      "# case. Needs NumPy{h5py}, nothing of convcheck:\n"
      "#   python3 THIS_FILE [--timeout SECONDS] [--command 'ANOTHER COMMAND']\n"
      "# Exit 0: within the bound; 1: the bug shows (a value over the bound, an error, a crash, a hang); 2: it declined\n"
      "# the problem or computed none of it.\n"
      "STRATEGY = {strategy}\n"
      "KIND = \"{kind}\"\n"
      "COMMAND = {command}\n"
      "# The request convcheck sends a server for this case (docs/external.md, \"The server protocol\"): its header,\n"
      "# then its payload, the inputs in canonical layouts, little-endian, base64. The reference is computed from it.\n"
      "REQUEST = {request}\n"
      "PAYLOAD = \"{payload}\"\n"
      "# The case file a per-case command is given (docs/case-format.md), base64; empty for a server.\n"
      "CASE_FILE = \"{case_file}\"\n"
      "# convcheck's bound of each asked direction (core/numerics/algorithm_bound.hpp, docs/bounds.md): per element, or\n"
      "# per signal of signal_size consecutive elements on its error's 2-norm; float64, little-endian, base64.\n"
      "BOUNDS = {{\n{bounds}}}\n"
      "# convcheck's server helper, NumPy reference and judge (oracles/outside/python/), as they were when it was written.\n"
      "SOURCES = {{\n{sources}}}\n"
      "{driver}",
      fmt::arg("anyway", finders ? "" : not_the_finder_line(case_file.finding->strategy, runs.name)),
      fmt::arg("title", title), fmt::arg("path", case_path), fmt::arg("name", runs.name), fmt::arg("how", how),
      fmt::arg("h5py", runs.server ? "" : " and h5py (the command's output is an HDF5 file)"),
      fmt::arg("strategy", python_string(runs.name)), fmt::arg("kind", runs.server ? "server" : "command"),
      fmt::arg("command", python_string(runs.command)), fmt::arg("request", python_string(request.header)),
      fmt::arg("payload", base64(request.payload)),
      fmt::arg("case_file", runs.server ? "" : base64(command_case_bytes(c))),
      fmt::arg("bounds", bounds_entries(case_file, runs.name, asked)),
      fmt::arg("sources", helper_sources({"convcheck_server", "numpy_server", "numpy_reference", "reproducer_judge"})),
      fmt::arg("driver", driver_text("external_reproducer.py")));
}

} // namespace convcheck
