#include "core/run/shrink_case.hpp"

#include <algorithm>
#include <vector>

#include "core/numerics/carried_inputs.hpp"

namespace convcheck {

namespace {

// Fresh draws a candidate is tried on when its inputs matter: the last failing case's index and two of the
// failure's. Three, with the two carried windows five runs a passing candidate: the descent's cost grows fivefold
// at its local minimum, where most candidates pass (docs/usage.md, "Shrinking", has the figures).
constexpr size_t fresh_draws = 3;

// `problem`'s case drawn from `case_index`, as `like` was made.
Case drawn(const Problem &problem, const Case &like, uint64_t case_index) {
  Case made = make_case(problem, like.fill, like.seed, case_index, like.special);
  made.settings = like.settings;
  return made;
}

Case copy_of(const Case &c) {
  Case copy{c.problem, {}, c.seed, c.case_index, c.fill, c.settings};
  copy.special = c.special;
  for (Role role : input_roles) copy[role] = c[role].clone();
  return copy;
}

} // namespace

CaseShrink shrink_case(const Case &failing, const std::function<bool(const Case &)> &fails, bool inputs_matter) {
  CaseShrink result{copy_of(failing), {}, 0};
  auto kept = [&](Case candidate) {
    ++result.runs;
    if (!fails(candidate)) return false;
    result.shrunk = std::move(candidate); // the descent keeps exactly the problems this returns true for
    return true;
  };
  result.descent = shrink(failing.problem, [&](const Problem &problem) {
    const Case &last = result.shrunk;
    if (!inputs_matter) return kept(drawn(problem, last, last.case_index));
    if (problem.ndims == last.problem.ndims)
      for (Anchor anchor : {Anchor::start, Anchor::end})
        if (kept(carried_inputs(last, drawn(problem, last, last.case_index), anchor))) return true;
    std::vector<uint64_t> draws{last.case_index};
    for (uint64_t draw = 0; draws.size() < fresh_draws; ++draw)
      if (const uint64_t index = input_draw(failing.case_index, draw);
          std::find(draws.begin(), draws.end(), index) == draws.end())
        draws.push_back(index);
    for (uint64_t index : draws)
      if (kept(drawn(problem, last, index))) return true;
    return false;
  });
  return result;
}

} // namespace convcheck
