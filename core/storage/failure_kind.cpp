#include "core/storage/failure_kind.hpp"

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

std::string to_string(FailureKind kind) {
  switch (kind) {
  case FailureKind::mismatch: return "mismatch";
  case FailureKind::crash: return "crash";
  case FailureKind::timeout: return "timeout";
  }
  return "?";
}

FailureKind parse_failure_kind(const std::string &name) {
  for (FailureKind kind : {FailureKind::mismatch, FailureKind::crash, FailureKind::timeout})
    if (name == to_string(kind)) return kind;
  if (name.empty()) return FailureKind::mismatch;
  throw InputError(fmt::format("unknown failure kind '{}' (mismatch, crash or timeout)", name));
}

} // namespace convcheck
