// `repro --emit ROOM` for a room whose rows are servers (oracles/ROOM/, oracles/outside/adapter.hpp): a Python
// script that runs the room's own server code, on the request convcheck sends it for the case, in the stack's
// environment, and judges the answer against a float64 NumPy reference under convcheck's bound of the case. The
// script carries everything it needs: the request (the problem and the inputs, base64), the bound of each direction
// (computed here, under the algorithm class the finding was judged under), and the text of the room's Python files
// and of oracles/outside/python/ convcheck_server.py, numpy_server.py, numpy_reference.py, reproducer_judge.py,
// then the driver oracles/outside/python/reproducer.py (cmd/emit_python.hpp writes the shared parts). A maintainer
// needs the stack, NumPy and the one file.

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "cmd/emit.hpp"
#include "cmd/emit_python.hpp"
#include "core/input_error.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/direction.hpp"
#include "oracles/outside/adapter.hpp"
#include "oracles/outside/protocol.hpp"

namespace convcheck {
namespace {

/// The room's rows: the adapters whose script lives in oracles/ROOM/.
std::vector<const Adapter *> room_rows(const std::string &room) {
  std::vector<const Adapter *> rows;
  for (const Adapter *adapter : adapters())
    if (adapter->script.starts_with("oracles/" + room + "/")) rows.push_back(adapter);
  return rows;
}

std::string row_names(const std::vector<const Adapter *> &rows) {
  std::string names;
  for (const Adapter *row : rows) names += (names.empty() ? "" : ", ") + row->name;
  return names;
}

/// The row that reproduces the case: its finding's strategy, or the room's first row for a case without a finding
/// (or, `anyway`, for a finding of another strategy).
const Adapter &reproducing_row(const std::string &room, const std::vector<const Adapter *> &rows,
                               const CaseFile &case_file, const std::string &case_path, bool anyway) {
  if (!case_file.finding) return *rows.front();
  for (const Adapter *row : rows)
    if (row->name == case_file.finding->strategy) return *row;
  if (anyway) return *rows.front();
  throw InputError(fmt::format("repro --emit {}: {} is a finding of {}, not of a {} row ({}): its script would run "
                               "another implementation than the one that failed (--emit-anyway writes it, saying so)",
                               room, case_path, case_file.finding->strategy, room, row_names(rows)));
}

std::vector<std::string> split_words(const std::string &text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

} // namespace

std::vector<std::string> server_rooms() {
  std::vector<std::string> rooms;
  for (const Adapter *adapter : adapters()) {
    const std::filesystem::path script(adapter->script);
    auto part = script.begin();
    if (part == script.end() || *part != "oracles" || ++part == script.end()) continue;
    const std::string room = part->string();
    if (room != "outside" && std::find(rooms.begin(), rooms.end(), room) == rooms.end()) rooms.push_back(room);
  }
  std::sort(rooms.begin(), rooms.end());
  return rooms;
}

std::string emit_server(const std::string &room, const CaseFile &case_file, const std::string &case_path,
                        bool anyway) {
  const std::vector<const Adapter *> rows = room_rows(room);
  if (rows.empty()) throw InputError(fmt::format("repro --emit {}: no server row lives in oracles/{}/", room, room));
  const Adapter &row = reproducing_row(room, rows, case_file, case_path, anyway);
  const bool finders = !case_file.finding || case_file.finding->strategy == row.name;
  const Case &c = case_file.conv_case;
  // Every direction, as a campaign asks them in one request: a server may build them together (a compiled module
  // of the forward pass and its gradients), and a finding of one direction can be an error of the whole request.
  const std::vector<Direction> asked = every_direction(c);

  // The bound of each direction, under the class the finding's result was judged under (direct without one).
  const std::string bounds = bounds_entries(case_file, row.name, asked);

  const std::filesystem::path source = in_source_tree("oracles");
  std::string sources =
      helper_sources({"convcheck_server", "numpy_server", "numpy_reference", "reproducer_judge"});
  std::vector<std::filesystem::path> room_files;
  for (const auto &entry : std::filesystem::directory_iterator(source / room))
    if (entry.path().extension() == ".py") room_files.push_back(entry.path());
  std::sort(room_files.begin(), room_files.end());
  for (const auto &file : room_files)
    sources += fmt::format("    \"{}\": r'''{}''',\n", file.stem().string(), read_source(file.string()));

  const Frame request = case_frame(c, 1, asked);
  std::string arguments;
  for (const std::string &word : split_words(row.arguments))
    arguments += (arguments.empty() ? "" : ", ") + python_string(word);
  const std::string title = format_descriptor(c.problem) +
                            (case_file.finding ? fmt::format(": {} {}", case_file.finding->strategy,
                                                             to_string(case_file.finding->direction))
                                               : fmt::format(": {} (no finding)", row.name));
  return fmt::format(
      "#!/usr/bin/env python3\n"
      "{anyway}# {title}\n"
      "# Written by `convcheck repro {path} --emit {room}`. Runs the room's own server code, inlined\n"
      "# below ({script} {arguments_text}), on the case's inputs and judges its answer against a float64 NumPy\n"
      "# reference under convcheck's bound of the case. Needs NumPy and what the server imports (scripts/install-deps.sh\n"
      "# {set} makes {interpreter}), nothing of convcheck:\n"
      "#   {interpreter} THIS_FILE [--timeout SECONDS]\n"
      "# Exit 0: within the bound; 1: the bug shows (a value over the bound, an error, a crash, a hang); 2: the stack\n"
      "# declined the problem.\n"
      "STRATEGY = {strategy}\n"
      "SERVER_SCRIPT, SERVER_ARGUMENTS = {script_literal}, [{arguments}]\n"
      "# The request convcheck sends the server for this case (docs/external.md, \"The server protocol\"): its header,\n"
      "# then its payload, the inputs in canonical layouts, little-endian, base64.\n"
      "REQUEST = {request}\n"
      "PAYLOAD = \"{payload}\"\n"
      "# convcheck's bound of each asked direction (core/numerics/algorithm_bound.hpp, docs/bounds.md): per element, or\n"
      "# per signal of signal_size consecutive elements on its error's 2-norm; float64, little-endian, base64.\n"
      "BOUNDS = {{\n{bounds}}}\n"
      "# The Python files the script runs, as they were when it was written: convcheck's server helper and NumPy\n"
      "# reference (oracles/outside/python/), then the room's (oracles/{room}/).\n"
      "SOURCES = {{\n{sources}}}\n"
      "{driver}",
      fmt::arg("anyway", finders ? "" : not_the_finder_line(case_file.finding->strategy, row.name + "'s server")),
      fmt::arg("title", title), fmt::arg("path", case_path), fmt::arg("room", room), fmt::arg("script", row.script),
      fmt::arg("arguments_text", row.arguments), fmt::arg("set", row.install_set),
      fmt::arg("interpreter", row.interpreter), fmt::arg("strategy", python_string(row.name)),
      fmt::arg("script_literal", python_string(row.script)), fmt::arg("arguments", arguments),
      fmt::arg("request", python_string(request.header)), fmt::arg("payload", base64(request.payload)),
      fmt::arg("bounds", bounds), fmt::arg("sources", sources),
      fmt::arg("driver", driver_text("reproducer.py")));
}

} // namespace convcheck
