#include "core/numerics/case.hpp"

namespace convcheck {

Case make_case(const Problem &problem, FillMode fill, uint64_t seed, uint64_t case_index) {
  Case c{problem, {}, seed, case_index, resolve_fill_mode(fill, seed, case_index)};
  for (Role role : input_roles) c[role] = fill_tensor(problem, role, c.fill, seed, case_index);
  return c;
}

} // namespace convcheck
