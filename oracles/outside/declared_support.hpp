#pragma once
// What an implementation outside convcheck (a server's hello, a plugin's description) says it supports, by name,
// made into a Support (core/run/strategy.hpp). The names are those of case files and frames: ops ("conv"), ranks
// (1, 2, 3), formats ("float32"), and layout families of any rank: data "ncx" (NCW, NCHW, NCDHW) and "nxc" (NWC,
// NHWC, NDHWC), weights "oix" (OIHW...), "xio" (HWIO...) and "oxi" (OHWI...). A name convcheck does not know is
// left out, not an error: a newer implementation may declare a format or an op convcheck has not heard of, and
// convcheck never sends it problems of that kind anyway. But it is said, in a warning naming the nearest known name
// ("bf16": "bfloat16"), as is a declaration that leaves one of its own formats unreachable (bfloat16 without
// float32, which bfloat16 rows sum in): a typo must not narrow a campaign in silence. A list that is not declared at
// all supports everything convcheck can send.

#include <optional>
#include <string>
#include <vector>

#include "core/run/strategy.hpp"

namespace convcheck {

/// The declared lists, each absent when not declared.
struct DeclaredSupport {
  std::optional<std::vector<std::string>> ops, dtypes, data_layouts, weight_layouts;
  std::optional<std::vector<int64_t>> ranks;
  std::optional<bool> crops;
};

/// The Support those names declare; each name left out, and each declared format no row can reach, adds a line to
/// `warnings` ("\"dtypes\" names \"bf16\", which convcheck does not know (nearest: \"bfloat16\"): left out").
Support declared_support(const DeclaredSupport &declared, std::vector<std::string> *warnings = nullptr);

/// The one of `known` nearest to `name` by edit distance (ties: the first), for "did you mean" lines.
std::string nearest_name(const std::string &name, const std::vector<std::string> &known);

/// Every op, rank, format and layout convcheck has, crops included.
Support full_support();

} // namespace convcheck
