#include "core/run/neighbour_table.hpp"

#include "core/numerics/carried_inputs.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/neighbours.hpp"
#include "core/run/case_workers.hpp"
#include "core/numerics/dispatch_setting.hpp"

namespace convcheck {

namespace {

/// Draws of inputs a neighbour must pass on to read "passed": its own (made as the case's were) and these more. A
/// value-dependent bug (an accumulation that rounds one sum wrong, a subnormal at one position) fails on some
/// inputs only; one pass on one draw is weak evidence that the field's step, not the inputs, cured it.
constexpr uint64_t input_draws = 3;

} // namespace

std::vector<NeighbourRow> neighbour_table(const Case &original, const Strategy &strategy, Direction direction,
                                          double run_timeout_s) {
  const std::vector<Neighbour> neighbours = neighbours_of(original.problem);
  // Every neighbour on every draw, in one batch (one worker, one server start): draw 0 is the case's own inputs,
  // carried over where the shapes allow (core/numerics/carried_inputs.hpp: a shrunk case's inputs may be carried
  // ones, which its seed and index do not remake).
  std::vector<Case> cases;
  for (uint64_t draw = 0; draw < input_draws; ++draw)
    for (const Neighbour &neighbour : neighbours) {
      Case made = make_case(neighbour.problem, original.fill, original.seed, input_draw(original.case_index, draw),
                            original.special);
      made.settings = settings_of(original);
      if (draw == 0 && neighbour.problem.ndims == original.problem.ndims)
        made = carried_inputs(original, std::move(made), Anchor::start);
      cases.push_back(std::move(made));
    }
  std::vector<const Case *> pointers;
  for (const Case &made : cases) pointers.push_back(&made);
  const auto outcomes = verify_cases_isolated(pointers, {strategy}, run_timeout_s);
  std::vector<NeighbourRow> rows;
  for (size_t i = 0; i < neighbours.size(); ++i) {
    // Its verdict on its own inputs, unless another draw fails it.
    Verdict verdict = find_outcome(outcomes[i], strategy.name, direction).verdict;
    for (uint64_t draw = 1; draw < input_draws; ++draw)
      if (find_outcome(outcomes[draw * neighbours.size() + i], strategy.name, direction).verdict == Verdict::failed)
        verdict = Verdict::failed;
    rows.push_back({verdict == Verdict::failed ? "fails" : to_string(verdict), neighbours[i].change,
                    format_descriptor(neighbours[i].problem)});
  }
  return rows;
}

} // namespace convcheck
