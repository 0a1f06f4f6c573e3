#include "core/problem/seam_draws.hpp"

#include <array>
#include <cstring>

namespace convcheck {

namespace {

// Weights are per mille of all fuzz cases (generators.cpp gives the tier their sum). A row's seam holds in every
// case it draws except where noted, so a row of weight 25 reaches its seam in 2.5% of cases; the channel row
// reaches a tail past 32 in about two of its cases in five (in and out channels each), so it weighs 64.
// Output sizes are drawn (`output`: the input follows from them) so that a large stride, dilation or kernel still
// leaves an output of several points, not one.
const Distribution small_output = {{1, 2, 9, {}, true}};
const Distribution channel_tails = {{1, 17, 47}, {1, 1, 65, {16, 32, 64}}}; // 15-17, 31-33, 63-65, 17-47

const std::array<SeamDraw, 8> rows{{
    {"stride 4 or more", 25, {{"stride", {{1, 4, 6}}}, {"in_size", small_output}}},
    {"dilation 4 or more", 25, {{"dilation", {{1, 4, 6}}}, {"kernel_size", {{1, 2, 5}}}, {"in_size", small_output}}},
    {"kernel past 7", 25, {{"kernel_size", {{1, 8, 13}}}, {"in_size", small_output}}},
    {"channel tails past 16 and 32", 64, {{"in_channels", channel_tails}, {"out_channels", channel_tails}}},
    {"depthwise channels past 16 and 64", 8, {{"in_channels", {{1, 17, 70, {16, 32, 64}}}}}, GroupKind::depthwise},
    {"groups past 16", 8, {{"groups", {{1, 17, 40, {16, 32}}}}}, GroupKind::grouped},
    {"batch past 8", 25, {{"batch", {{1, 9, 17, {8, 16}}}}}},
    {"output width around register blocks", 16, {{"in_size", {{1, 13, 33, {14, 16, 28, 32}, true}}}}},
}};

} // namespace

const Distribution *SeamDraw::find(const char *field) const {
  for (const SeamField &entry : fields)
    if (std::strcmp(entry.field, field) == 0) return &entry.distribution;
  return nullptr;
}

std::span<const SeamDraw> seam_draws() { return rows; }

} // namespace convcheck
