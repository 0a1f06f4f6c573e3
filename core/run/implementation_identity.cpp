#include "core/run/implementation_identity.hpp"

#include <fmt/format.h>

namespace convcheck {

std::string ImplementationIdentity::describe() const {
  std::string text = name;
  const auto add = [&](const std::string &part, const char *separator) {
    if (!part.empty()) text += (text.empty() ? "" : separator) + part;
  };
  add(version, " ");
  add(isa.empty() ? "" : "on " + isa, " ");
  add(threads > 0 ? fmt::format("{} thread{}", threads, threads == 1 ? "" : "s") : "", ", ");
  return text;
}

} // namespace convcheck
