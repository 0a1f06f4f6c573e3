#pragma once
// A focused distribution (`fuzz --focus NAME`): only problems inside what strategy NAME declares it supports, so
// an implementation of 2-D float32 problems is offered every case of a campaign instead of the half the default
// distribution has of them. What can be made to fit is made to fit by construction, keeping the rest of the draw:
// a format, a data layout or a weight layout it does not list is replaced by one it does (chosen by a hash of the
// seed and the case index), a crop by zero padding, and per axis a kernel size, stride or dilation it does not list
// (a server's or plugin's `kernels`, `strides`, `dilations`) by one it does, the input grown where the new kernel
// would not fit. A rank or an op it does not list cannot be fixed after the
// draw, so that draw is rejected and the case drawn again from a seed derived from the attempt: each case remains
// a pure function of (seed, case index, the focused support), whatever else runs, and shards add up. When most
// draws are rejected (a 1-D-only implementation rejects four in five), `rejection_warning` says so, FuzzTest
// style, and `configs --focus NAME --stats` shows the rate; when no draw can fit, the focus is an error.

#include <cstdint>
#include <string>
#include <vector>

#include "core/problem/problem.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

/// Draws of one case before the focus gives up (a support no draw can fit is found up front by `check_focus`).
inline constexpr int max_focus_attempts = 1000;

struct FocusedDraw {
  Problem problem;
  int64_t rejected = 0; ///< draws rejected before this one (rank or op outside the support)
};

/// Case `case_index` of the campaign seeded with `seed`, inside `support`. Throws InputError naming `name` when
/// `max_focus_attempts` draws all fall outside it.
FocusedDraw focused_problem(uint64_t seed, uint64_t case_index, const Support &support, const std::string &name);

/// The share of draws rejected over the first `sample` cases of `seed` (0 to 1). Throws InputError naming `name`
/// when no draw fits at all (a support list naming nothing convcheck draws).
double focus_rejection_rate(uint64_t seed, const Support &support, const std::string &name, int64_t sample = 200);

/// A one-line warning when more than half the draws are rejected, or "".
std::string rejection_warning(const std::string &name, double rejection_rate);

/// A campaign aimed (`--rows`, `--ops`) at some precision rows, by their names in core/problem/precision_table.hpp
/// ("bf16_f32acc"), and some ops: a bf16 kernel's campaign drawn in bf16 only, where its server must also list
/// float32 (what bf16 rows sum in) and would otherwise get mostly float32 problems. Drawn as a focus is: rows and ops
/// outside the aim are drawn again.
struct Aim {
  std::vector<Precision> rows; ///< empty: every row
  std::vector<Op> ops;         ///< empty: every op
  bool empty() const { return rows.empty() && ops.empty(); }
};

/// The aim of `rows` and `ops`, comma-separated names (either may be ""); throws InputError naming an unknown name
/// and the known ones.
Aim parse_aim(const std::string &rows, const std::string &ops);

/// `support` narrowed to `aim`: its ops among the aim's, its formats exactly the aim's rows it takes. Throws
/// InputError when it takes none of the rows or none of the ops (`name` says whose support).
Support aimed(Support support, const Aim &aim, const std::string &name);

/// A support that takes every problem the generator draws: what an aim narrows without --focus.
Support every_drawn_problem();

} // namespace convcheck
