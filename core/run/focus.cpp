#include "core/run/focus.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/numerics/fill.hpp"
#include "core/problem/generators.hpp"
#include "core/problem/op.hpp"
#include "core/problem/precision_table.hpp"
#include "core/problem/witness_reach.hpp"
#include "core/run/offered_rows.hpp"

namespace convcheck {

namespace {

template <class T> bool listed(const std::vector<T> &items, const T &item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// One of `items` (not empty) by `hash`.
template <class T> T pick(const std::vector<T> &items, uint64_t hash) { return items[hash % items.size()]; }

// The kernel sizes, strides and dilations of the problem's own axes made ones `support` lists (a Winograd server's
// kernel 3, stride 1, dilation 1), each axis by its own hash; an input then too small for the new dilated kernel
// grows to the smallest that gives one output, so the draw stays valid (unit outer axes are left as they are).
void fit_shape(Problem &p, const Support &support, uint64_t hash) {
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
    SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
    const uint64_t axis_hash = mix64(hash ^ static_cast<uint64_t>(a));
    if (!support.kernels.empty() && !listed(support.kernels, axis.kernel))
      axis.kernel = pick(support.kernels, axis_hash);
    if (!support.strides.empty() && !listed(support.strides, axis.stride))
      axis.stride = pick(support.strides, mix64(axis_hash));
    if (!support.dilations.empty() && !listed(support.dilations, axis.dilation))
      axis.dilation = pick(support.dilations, mix64(axis_hash ^ 1));
    if (axis.out() < 1) axis.in = std::max<int64_t>(1, axis.dilated_kernel() - axis.pad_begin - axis.pad_end);
  }
}

// Under --focus convcheck checks one implementation, whose own cost per case (a server, a compiler) dwarfs
// convcheck's, so it draws what kernels switch paths at more often than the default draw affords (issue 39): one
// conv in 3 gets one direction's reduction stretched past 256 or 2,048 terms (core/problem/witness_reach.hpp: split-K
// blocks, chunked and narrow accumulators), past the row's witness length at least (2,048 for float16), and one in 6
// a large kernel (8 to 11), stride (4 to 6) or dilation (4 to 6) on one of its axes (unrolled kernel loops,
// stride-phase splits, dilated paths), the input grown to fit it. A deconv gets them from the conv it is the
// transpose of (fitted() below), so the conv's row is fitted first.
void aim_at_paths(Problem &p, uint64_t hash) {
  const uint64_t pick = mix64(hash ^ 0x70617468ULL) % 6;
  if (pick < 2) {
    const Direction direction = all_directions[mix64(hash ^ 0x6469ULL) % std::size(all_directions)];
    // Past 2,048 twice as often as past 256 only (a reduction past 2,048 is past 256 too), and never short of the
    // row's witness length.
    const bool shorter = mix64(hash ^ 0x6c656eULL) % 3 == 0 && long_reduction_lengths[0] >= witness_terms(p);
    const int64_t length = long_reduction_lengths[shorter ? 0 : 1];
    const auto extra = static_cast<int64_t>(mix64(hash ^ 0x657874ULL) % static_cast<uint64_t>(length / 4));
    reach_terms(p, direction, length + extra);
  } else if (pick == 2) {
    const uint64_t which = mix64(hash ^ 0x617869ULL) % static_cast<uint64_t>(p.ndims);
    SpatialAxis &axis = p.axes[static_cast<size_t>(p.first_axis()) + which];
    const auto step = static_cast<int64_t>(mix64(hash ^ 0x73746570ULL) % 4);
    switch (mix64(hash ^ 0x6b696e64ULL) % 3) {
    case 0: axis.kernel = 8 + step; break;
    case 1: axis.stride = 4 + step % 3; break;
    default: axis.dilation = 4 + step % 3; break;
    }
    if (axis.out() < 1) axis.in = std::max<int64_t>(1, axis.dilated_kernel() - axis.pad_begin - axis.pad_end);
  }
}

// The draw made to fit what can be fitted after it: the op (a support without conv but with deconv gets the drawn
// conv's transpose, valid by construction; one without the drawn deconv's op but with conv its equivalent conv), formats, layouts, crops, kernels, strides and dilations; what fitting
// leaves invalid (a deconv's output padding past a stride made 1) is drawn again by the caller.
Problem fitted(Problem p, const Support &support, const std::vector<const PrecisionRow *> &rows, uint64_t hash) {
  if (p.op == Op::conv && !listed(support.ops, Op::conv) && listed(support.ops, Op::deconv))
    p = transposed(p, mix64(hash ^ 2));
  if (p.op != Op::conv && !listed(support.ops, p.op) && listed(support.ops, Op::conv))
    p = equivalent_conv(p); // a drawn deconv's conv (the default draw's deconvs are transposed convs)
  // A row it takes (fitted before the aim too, focused_problem; a deconv made here exchanges its formats' roles).
  p = within(p, rows, hash);
  if (!listed(support.data_layouts, p.data_layout) && !support.data_layouts.empty())
    p.data_layout = pick(support.data_layouts, mix64(hash));
  if (!listed(support.weight_layouts, p.weight_layout) && !support.weight_layouts.empty())
    p.weight_layout = pick(support.weight_layouts, mix64(hash ^ 1));
  if (!support.crops) // zero padding only widens the output, so the problem stays valid
    for (SpatialAxis &axis : p.axes) {
      axis.pad_begin = std::max<int64_t>(axis.pad_begin, 0);
      axis.pad_end = std::max<int64_t>(axis.pad_end, 0);
    }
  fit_shape(p, support, mix64(hash ^ 2));
  return p;
}

} // namespace

FocusedDraw focused_problem(uint64_t seed, uint64_t case_index, const Support &support, const std::string &name) {
  const uint64_t hash = mix64(mix64(seed) ^ case_index);
  const std::vector<const PrecisionRow *> rows = rows_taken(support);
  std::string refusal;
  for (int64_t attempt = 0; attempt < max_focus_attempts; ++attempt) {
    // Attempt 0 is the unfocused campaign's own draw, so a support that takes it changes nothing.
    const uint64_t attempt_seed = attempt == 0 ? seed : mix64(seed ^ (0x666f637573ULL + static_cast<uint64_t>(attempt)));
    Problem drawn = generate_problem(attempt_seed, case_index);
    // A row it takes, drawn as a plain campaign draws it for an outside implementation (core/run/offered_rows.hpp).
    drawn = within(drawn, rows, hash);
    if (drawn.op == Op::conv) aim_at_paths(drawn, hash);
    Problem p = fitted(drawn, support, rows, hash);
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
  return fmt::format("focus {}: {:.0f}% of draws are rejected (a rank, op or aimed row it does not take) and drawn "
                     "again; each case costs that much more to draw",
                     name, 100 * rejection_rate);
}

namespace {

// The comma-separated words of `text`, each parsed by `parse` (nullopt: unknown, an InputError listing `known`).
template <class T, class Parse>
std::vector<T> parse_names(const std::string &text, const char *option, Parse parse, const std::string &known) {
  std::vector<T> values;
  for (size_t start = 0; start < text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    const std::optional<T> value = parse(name);
    if (!value) throw InputError(fmt::format("--{} '{}' is none of {}", option, name, known));
    if (!listed(values, *value)) values.push_back(*value);
    start = comma + 1;
  }
  return values;
}

} // namespace

Aim parse_aim(const std::string &rows, const std::string &ops) {
  std::string row_names, op_names;
  for (const PrecisionRow &row : precision_table()) row_names += (row_names.empty() ? "" : ", ") + std::string(row.name);
  for (const OpInfo &row : op_table()) op_names += (op_names.empty() ? "" : ", ") + std::string(row.name);
  return {parse_names<Precision>(
              rows, "rows",
              [](const std::string &name) -> std::optional<Precision> {
                for (const PrecisionRow &row : precision_table())
                  if (name == row.name) return row.precision;
                return std::nullopt;
              },
              row_names),
          parse_names<Op>(
              ops, "ops",
              [](const std::string &name) -> std::optional<Op> {
                for (const OpInfo &row : op_table())
                  if (name == row.name) return row.op;
                return std::nullopt;
              },
              op_names)};
}

Support aimed(Support support, const Aim &aim, const std::string &name) {
  if (!aim.ops.empty()) {
    std::erase_if(support.ops, [&](Op op) { return !listed(aim.ops, op); });
    if (support.ops.empty()) throw InputError(fmt::format("--ops: {} takes none of them", name));
  }
  if (!aim.rows.empty()) {
    std::vector<DType> dtypes;
    std::vector<Precision> precisions;
    for (const Precision &row : aim.rows) {
      if (!support.takes(row)) continue;
      const std::optional<DType> single = row.single();
      if (single) dtypes.push_back(*single);
      else precisions.push_back(row);
    }
    if (dtypes.empty() && precisions.empty()) throw InputError(fmt::format("--rows: {} takes none of them", name));
    support.dtypes = std::move(dtypes), support.precisions = std::move(precisions), support.mixed_formats = false;
  }
  return support;
}

Support every_drawn_problem() {
  Support support{.ranks = {1, 2, 3}, .mixed_formats = true, .data_layouts = {DataLayout::ncx, DataLayout::nxc},
                  .weight_layouts = {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi}, .crops = true};
  for (const OpInfo &row : op_table()) support.ops.push_back(row.op);
  for (const PrecisionRow &row : precision_table()) {
    if (const std::optional<DType> single = row.precision.single()) support.dtypes.push_back(*single);
    else support.precisions.push_back(row.precision);
  }
  return support;
}

} // namespace convcheck
