#pragma once
// How an implementation was declared when it found a case: what it takes (ops, ranks, formats and rows, layouts,
// crops, shapes: its Support, which an outside one's hello, plugin description or --external-* options make) and the
// algorithm class its results are judged under. A case file keeps it with the finding (/finding declaration), and
// `repro` and `corpus run` say in one line when today's declaration differs, since what it is offered, and so
// whether the finding's direction is judged at all, follows from it:
//
//   ops conv,deconv; ranks 1,2,3; formats float32,bfloat16; rows bf16_to_f32; data ncx,nxc; weights oix; crops yes;
//   kernels any; strides any; dilations any; class direct

#include <string>

#include "core/run/strategy.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {

/// The one-line declaration of `strategy`, fields separated by "; ", each "NAME VALUE".
std::string declaration(const Strategy &strategy);

/// The fields of `now` that differ from `then`, "ops conv (when found: conv,deconv); crops no (when found: yes)", or
/// "" when none does (a field either lacks, as in a file from before a field was kept, is not compared).
std::string declaration_change(const std::string &then, const std::string &now);

/// One line for `repro` and `corpus run` when the strategy that made `finding` is among `strategies` and declared
/// otherwise now ("mine is declared otherwise than when it found this case: ops conv (when found: conv,deconv); ...:
/// it is offered other problems"), else "".
std::string declaration_note(const FindingRecord &finding, const std::vector<Strategy> &strategies);

} // namespace convcheck
