// `repro`'s neighbour table: the failing strategy and direction of a saved finding run on every neighbour of the case
// (core/problem/neighbours.hpp), on inputs made the way the case's were (seed, case index, fill, ISA cap), each in a
// worker like every replay. What passes and what fails around a minimal case bounds the bug: the table a maintainer
// writes a guard from.

#include <algorithm>

#include <fmt/format.h>

#include "cmd/repro_neighbours.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/neighbours.hpp"
#include "core/process/case_workers.hpp"
#include "core/run/isa_cap.hpp"

namespace convcheck {

void print_neighbours(const CaseFile &case_file, const std::vector<Strategy> &strategies, double run_timeout_s) {
  if (!case_file.finding) return;
  const auto finder = std::find_if(strategies.begin(), strategies.end(),
                                   [&](const Strategy &s) { return s.name == case_file.finding->strategy; });
  if (finder == strategies.end()) return;
  const Direction direction = parse_direction(case_file.finding->direction, "/finding/direction");
  const Case &original = case_file.conv_case;
  const std::vector<Neighbour> neighbours = neighbours_of(original.problem);
  std::vector<Case> cases;
  for (const Neighbour &neighbour : neighbours) {
    Case made = make_case(neighbour.problem, original.fill, original.seed, original.case_index);
    made.isa_cap = isa_cap_of(original);
    cases.push_back(std::move(made));
  }
  std::vector<const Case *> pointers;
  for (const Case &made : cases) pointers.push_back(&made);
  const auto outcomes = verify_cases_isolated(pointers, {*finder}, run_timeout_s);
  fmt::print("  neighbours ({} {}, each one step from the case):\n", finder->name, to_string(direction));
  size_t failing = 0;
  for (size_t i = 0; i < neighbours.size(); ++i) {
    const Outcome &outcome = outcomes[i].at(static_cast<size_t>(direction));
    failing += outcome.verdict == Verdict::failed;
    fmt::print("    {:<8} {:<22} {}\n", outcome.verdict == Verdict::failed ? "fails" : to_string(outcome.verdict),
               neighbours[i].change, format_descriptor(neighbours[i].problem));
  }
  fmt::print("  failing region: {} of {} neighbours fail\n", failing, neighbours.size());
}

} // namespace convcheck
