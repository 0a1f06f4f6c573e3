#include "core/run/neighbour_table.hpp"

#include "core/problem/descriptor.hpp"
#include "core/problem/neighbours.hpp"
#include "core/run/case_workers.hpp"
#include "core/numerics/dispatch_setting.hpp"

namespace convcheck {

std::vector<NeighbourRow> neighbour_table(const Case &original, const Strategy &strategy, Direction direction,
                                          double run_timeout_s) {
  const std::vector<Neighbour> neighbours = neighbours_of(original.problem);
  std::vector<Case> cases;
  for (const Neighbour &neighbour : neighbours) {
    Case made = make_case(neighbour.problem, original.fill, original.seed, original.case_index);
    made.settings = settings_of(original);
    cases.push_back(std::move(made));
  }
  std::vector<const Case *> pointers;
  for (const Case &made : cases) pointers.push_back(&made);
  const auto outcomes = verify_cases_isolated(pointers, {strategy}, run_timeout_s);
  std::vector<NeighbourRow> rows;
  for (size_t i = 0; i < neighbours.size(); ++i) {
    const Verdict verdict = find_outcome(outcomes[i], strategy.name, direction).verdict;
    rows.push_back({verdict == Verdict::failed ? "fails" : to_string(verdict), neighbours[i].change,
                    format_descriptor(neighbours[i].problem)});
  }
  return rows;
}

} // namespace convcheck
