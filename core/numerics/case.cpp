#include "core/numerics/case.hpp"

namespace convcheck {

Case make_case(const Problem &problem, FillMode fill, uint64_t seed, uint64_t case_index, FillSpecial special) {
  Case c{problem, {}, seed, case_index, resolve_fill_mode(fill, seed, case_index, problem)};
  c.special = resolve_fill_special(special, c.fill, seed, case_index, problem);
  for (Role role : input_roles) c[role] = fill_tensor(problem, role, c.fill, seed, case_index, c.special);
  return c;
}

Case widened_to_accumulation(const Case &c) {
  const DType acc = c.problem.precision.acc;
  Case widened{c.problem, {}, c.seed, c.case_index, c.fill, c.settings};
  widened.special = c.special;
  widened.problem.precision = Precision::uniform(acc);
  for (Role role : input_roles) widened[role] = c[role].dtype() == acc ? c[role].clone() : c[role].cast(acc);
  return widened;
}

Case as_conv_case(const Case &c) {
  Case conv{equivalent_conv(c.problem), {}, c.seed, c.case_index, c.fill, c.settings};
  conv.special = c.special;
  for (const RoleInfo &role : role_table())
    conv[conv_role(c.problem.op, role.role)] = c[role.role].clone(); // one memcpy each, far below the compute
  return conv;
}

} // namespace convcheck
