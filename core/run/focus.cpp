#include "core/run/focus.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/numerics/fill.hpp"
#include "core/problem/generators.hpp"

namespace convcheck {

namespace {

template <class T> bool listed(const std::vector<T> &items, const T &item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// One of `items` (not empty) by `hash`.
template <class T> T pick(const std::vector<T> &items, uint64_t hash) { return items[hash % items.size()]; }

// Whether the formats of `precision` are inside `support`: one listed format, or a mix of listed ones.
bool formats_fit(const Precision &precision, const Support &support) {
  if (listed(support.precisions, precision)) return true; // a row of the precision table it declares
  if (const std::optional<DType> single = precision.single()) return listed(support.dtypes, *single);
  if (!support.mixed_formats) return false;
  for (DType dtype : {precision.src, precision.weight, precision.dst, precision.acc})
    if (!listed(support.dtypes, dtype)) return false;
  return true;
}

// The draw made to fit what can be fitted after it: formats, layouts and crops.
Problem fitted(Problem p, const Support &support, uint64_t hash) {
  if (!formats_fit(p.precision, support) && !support.dtypes.empty())
    p.precision = Precision::uniform(pick(support.dtypes, hash));
  if (!listed(support.data_layouts, p.data_layout) && !support.data_layouts.empty())
    p.data_layout = pick(support.data_layouts, mix64(hash));
  if (!listed(support.weight_layouts, p.weight_layout) && !support.weight_layouts.empty())
    p.weight_layout = pick(support.weight_layouts, mix64(hash ^ 1));
  if (!support.crops) // zero padding only widens the output, so the problem stays valid
    for (SpatialAxis &axis : p.axes) {
      axis.pad_begin = std::max<int64_t>(axis.pad_begin, 0);
      axis.pad_end = std::max<int64_t>(axis.pad_end, 0);
    }
  return p;
}

} // namespace

FocusedDraw focused_problem(uint64_t seed, uint64_t case_index, const Support &support, const std::string &name) {
  const uint64_t hash = mix64(mix64(seed) ^ case_index);
  std::string refusal;
  for (int64_t attempt = 0; attempt < max_focus_attempts; ++attempt) {
    // Attempt 0 is the unfocused campaign's own draw, so a support that takes it changes nothing.
    const uint64_t attempt_seed = attempt == 0 ? seed : mix64(seed ^ (0x666f637573ULL + static_cast<uint64_t>(attempt)));
    Problem p = fitted(generate_problem(attempt_seed, case_index), support, hash);
    refusal = support.refusal(p);
    if (refusal.empty() && is_valid(p)) return {p, attempt};
  }
  throw InputError(fmt::format("focus {}: none of {} draws of case {} fits what it supports (the last: {})", name,
                               max_focus_attempts, case_index, refusal.empty() ? "invalid after fitting" : refusal));
}

double focus_rejection_rate(uint64_t seed, const Support &support, const std::string &name, int64_t sample) {
  int64_t rejected = 0;
  for (int64_t i = 0; i < sample; ++i) rejected += focused_problem(seed, static_cast<uint64_t>(i), support, name).rejected;
  return static_cast<double>(rejected) / static_cast<double>(rejected + sample);
}

std::string rejection_warning(const std::string &name, double rejection_rate) {
  if (rejection_rate <= 0.5) return "";
  return fmt::format("focus {}: {:.0f}% of draws are rejected (a rank or op it does not support) and drawn again; "
                     "each case costs that much more to draw",
                     name, 100 * rejection_rate);
}

} // namespace convcheck
