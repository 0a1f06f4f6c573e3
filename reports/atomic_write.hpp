#pragma once
// Reports are written under a temporary name beside the target and renamed, so a reader (or a killed run) never
// sees half a report.

#include <string>

namespace convcheck {

/// Writes `text` to `path` atomically; throws InputError naming the path when it cannot.
void write_text_atomically(const std::string &path, const std::string &text);

} // namespace convcheck
