#pragma once
// The seam tier's rows: cheap ways to reach one block seam of real kernels at a time. A seam-tier problem is a
// small-tier problem in which one row's fields are drawn large (per-axis fields on the width axis only, where
// kernels block and unroll) while every other field keeps its small distribution, and trimming to the tier's
// budget never halves the row's own fields. Large values on a few axes at once, the rest small: a seam is crossed
// in a few percent of cases at about the cost of a small case (docs/distribution.md has the shares and the rate).

#include <span>

#include "core/problem/fields.hpp"

namespace convcheck {

/// How a problem's channels are grouped: dense (G = 1), grouped (G > 1 drawn from the groups row), depthwise
/// (G = C = K, the channel count drawn from the in_channels row); `any` leaves it to the small tier's draw.
enum class GroupKind { any, dense, grouped, depthwise };

/// One field drawn from `distribution` instead of its small-tier row (per group for channels; the width axis only
/// for a per-axis field).
struct SeamField {
  const char *field; ///< an IntField name: "stride", "in_channels"
  Distribution distribution;
};

/// One seam the tier reaches: its fields, how often (weight among the rows), and the grouping it needs.
struct SeamDraw {
  const char *name; ///< what it reaches: "stride 4 or more"
  int weight;
  std::vector<SeamField> fields;
  GroupKind group_kind = GroupKind::any;

  /// The row's distribution for `field`, or nullptr when the row leaves it to the small tier.
  const Distribution *find(const char *field) const;
};

/// The rows: stride and dilation of 4 or more, kernels past 7, channel tails past 16 and 32 per group, depthwise
/// channels past 16 and 64, groups past 16, batch past 8, output widths around register blocks of 14 to 32.
std::span<const SeamDraw> seam_draws();

} // namespace convcheck
