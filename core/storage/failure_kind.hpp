#pragma once
// How a failed run failed, as a finding and its case file record it.

#include <string>

namespace convcheck {

/// A wrong answer (or none, or a throw), a crash of the process running it, or no answer within the per-case
/// timeout. Crashes and timeouts are only seen when strategies run in forked workers.
enum class FailureKind { mismatch, crash, timeout };
std::string to_string(FailureKind kind);
/// The kind named by to_string; "" (a file from before kinds were recorded) is a mismatch. Throws InputError.
FailureKind parse_failure_kind(const std::string &name);

} // namespace convcheck
