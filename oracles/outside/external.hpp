#pragma once
// Any implementation outside convcheck, through a small process protocol (docs/external.md): for each case
// convcheck writes the case (format v1) to IN and runs `/bin/sh -c 'COMMAND "$@"' convcheck IN OUT`. The
// command writes OUT with root datasets output, grad_data, grad_weight (any subset, canonical layouts, float32
// or float64). Exit 0: judged like any strategy; exit 77: config unsupported (skipped); anything else, a
// signal, a timeout, a missing or unreadable OUT: a finding naming the reason and the command's output tail.

#include <string>

#include "core/run/strategy.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {

struct ExternalSpec {
  std::string name;
  std::string command;
  double timeout_s = 60;
  int64_t max_elements = default_max_elements; // cap on what is read back from OUT
  /// The newest case-file format the command reads (--external-case-format): with 1 it is offered only problems
  /// that fit format v1 (2-D conv, padding >= 0, one float format); with 2, every problem.
  int case_format = 1;
  /// The ops the command computes (--external-ops): it is offered no other (a case file says its op in `op`).
  std::vector<Op> ops = {Op::conv};
};

/// Parses `--external NAME=COMMAND` (`option` names the flag in messages, `value` what follows the '='); throws
/// InputError for a missing '=', an empty command, or a name that is not [A-Za-z0-9_.-]+ or is already a
/// registered strategy's.
ExternalSpec parse_external(const std::string &text, const std::string &option = "external",
                            const std::string &value = "command");

/// The case file a command is given for case `c`: its problem and inputs, nothing else (written as v1 where v1 holds
/// it). `repro --emit external` carries the same file in its script.
CaseFile command_case_file(const Case &c);

/// The strategy that runs the command once per case, computing all three directions from one call.
Strategy external_strategy(const ExternalSpec &spec);

} // namespace convcheck
