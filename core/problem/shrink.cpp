#include "core/problem/shrink.hpp"

#include <algorithm>
#include <chrono>

#include "core/problem/fields.hpp"
#include "core/problem/shrink_held.hpp"

namespace convcheck {

namespace {

// The problem with spatial axis `dropped` removed: one rank lower, the other axes keeping their order.
Problem drop_axis(const Problem &p, int64_t dropped) {
  Problem lower = p;
  lower.ndims = p.ndims - 1;
  lower.axes = {};
  int64_t to = max_ndims - 1;
  for (int64_t from = max_ndims - 1; from >= p.first_axis(); --from)
    if (from != dropped) lower.axes[static_cast<size_t>(to--)] = p.axes[static_cast<size_t>(from)];
  return lower;
}

// Every way to lose one spatial dimension, the outermost axis first.
rc::Seq<Problem> lower_rank(const Problem &p) {
  if (p.ndims <= 1) return {};
  std::vector<Problem> candidates;
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) candidates.push_back(drop_axis(p, a));
  return rc::seq::fromContainer(std::move(candidates));
}

// Candidates for one integer field on one axis, from its neutral value on (rc::shrink::towards order). Channel
// counts shrink per group, and the group count keeps the per-group counts, so C and K stay multiples of G.
rc::Seq<Problem> field_candidates(const Problem &p, const IntField &field, int64_t axis) {
  const int64_t groups = p.groups;
  const int64_t value = field.per_group ? field.get(p, axis) / groups : field.get(p, axis);
  const bool is_groups = field.scalar == &Problem::groups;
  // towards() from 15 to 1 tries 1, 8, 12, 14: every one even, so a bug on odd values only (a tail after blocks of
  // 2) would stop at 15; a step of two, which keeps the parity, lets it go on down to 3.
  const int64_t distance = value - field.neutral;
  rc::Seq<int64_t> values = rc::shrink::towards<int64_t>(value, field.neutral);
  if (distance > 2 || distance < -2)
    values = rc::seq::concat(std::move(values), rc::seq::just(value - (distance > 0 ? 2 : -2)));
  return rc::seq::map(std::move(values), [p, &field, axis, groups, is_groups](int64_t v) {
    Problem smaller = p;
    if (is_groups) {
      smaller.in_channels = p.in_channels_per_group() * v;
      smaller.out_channels = p.out_channels_per_group() * v;
    }
    field.set(smaller, axis, field.per_group ? v * groups : v);
    return smaller;
  });
}

template <class Enum> rc::Seq<Problem> reset(const Problem &p, Enum Problem::*member, Enum canonical) {
  if (p.*member == canonical) return {};
  Problem smaller = p;
  smaller.*member = canonical;
  return rc::seq::just(smaller);
}

// Fields that cut the most work go first: the greedy descent then reaches a small problem in few tries. Fields
// not named here follow in table order.
std::vector<const IntField *> shrink_order() {
  std::vector<const IntField *> order;
  for (const char *name : {"groups", "in_channels", "out_channels", "batch", "kernel_size", "in_size"})
    order.push_back(find_int_field(name));
  for (const IntField &field : int_fields())
    if (std::find(order.begin(), order.end(), &field) == order.end()) order.push_back(&field);
  return order;
}

} // namespace

rc::Seq<Problem> shrink_problem(const Problem &p) {
  static const std::vector<const IntField *> order = shrink_order();
  std::vector<rc::Seq<Problem>> steps;
  steps.push_back(lower_rank(p));
  // Several fields of one axis at once, its output size held (core/problem/shrink_held.hpp), before the fields one
  // by one: such a step loses kernel, dilation and input together, the most one step of an axis can.
  for (int64_t a = p.first_axis(); a < max_ndims; ++a)
    steps.push_back(rc::seq::fromContainer(output_held_steps(p, a)));
  for (const IntField *field_pointer : order) {
    const IntField &field = *field_pointer;
    if (!field.per_axis()) {
      steps.push_back(field_candidates(p, field, 0));
      continue;
    }
    for (int64_t a = p.first_axis(); a < max_ndims; ++a) steps.push_back(field_candidates(p, field, a));
  }
  steps.push_back(reset(p, &Problem::data_layout, DataLayout::ncx));
  steps.push_back(reset(p, &Problem::weight_layout, WeightLayout::oix));
  return rc::seq::filter(rc::seq::join(rc::seq::fromContainer(std::move(steps))),
                         [](const Problem &candidate) { return is_valid(candidate); });
}

ShrinkResult shrink(const Problem &problem, const std::function<bool(const Problem &)> &still_fails,
                    size_t max_tries, double max_seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
  ShrinkResult result{problem, 0, 0};
  rc::Shrinkable<Problem> current = rc::shrinkable::shrinkRecur(problem, &shrink_problem);
  for (bool progressed = true; progressed && result.tries < max_tries;) {
    progressed = false;
    auto children = current.shrinks();
    while (auto child = children.next()) {
      if (++result.tries > max_tries || std::chrono::steady_clock::now() > deadline) break;
      if (still_fails(child->value())) {
        current = *child;
        result.problem = current.value();
        ++result.steps;
        progressed = true;
        break;
      }
    }
  }
  return result;
}

} // namespace convcheck
