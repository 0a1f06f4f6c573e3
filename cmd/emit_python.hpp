#pragma once
// The parts every Python reproducer `repro --emit` writes shares (cmd/emit_server.cpp for a room's server,
// cmd/emit_external.cpp for the user's own implementation): literals, the request convcheck sends for the case, the
// bound of each direction, and convcheck's Python files inlined by name (oracles/outside/python/, loaded by the
// script's import hook).

#include <string>
#include <vector>

#include "core/storage/case_file.hpp"

namespace convcheck {

/// Standard base64 of `bytes`.
std::string base64(const std::string &bytes);

/// A Python string literal of `text`.
std::string python_string(const std::string &text);

/// The text of `path`, to be inlined as a raw ''' string: throws InputError when unreadable or holding '''.
std::string read_source(const std::string &path);

/// The BOUNDS literal's entries, one per direction of `asked`: convcheck's bound of each under the class `finder`'s
/// result was judged under when the case file recorded one (direct otherwise), or why it cannot be judged.
std::string bounds_entries(const CaseFile &case_file, const std::string &finder, const std::vector<Direction> &asked);

/// SOURCES entries, `"module": r'''text'''`, for each module of oracles/outside/python/ named.
std::string helper_sources(const std::vector<std::string> &modules);

/// The text that ends a script: oracles/outside/python/inlined_import.py (the import hook that loads SOURCES), then
/// `driver`, a file of oracles/outside/python/.
std::string driver_text(const std::string &driver);

/// Every direction of the case's op, in the order a campaign asks them in one request.
std::vector<Direction> every_direction(const Case &c);

} // namespace convcheck
