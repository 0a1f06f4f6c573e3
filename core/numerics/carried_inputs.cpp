#include "core/numerics/carried_inputs.hpp"

#include <algorithm>

namespace convcheck {

Tensor carried(const Tensor &source, Tensor own, Anchor anchor) {
  const Shape &from = source.shape(), &to = own.shape();
  if (from.size() != to.size() || source.dtype() != own.dtype()) return own;
  const size_t rank = to.size();
  Shape offset(rank, 0);
  if (anchor == Anchor::end)
    for (size_t d = 0; d < rank; ++d) offset[d] = std::max<int64_t>(0, from[d] - to[d]);
  // Walk `own` in row-major order with its multi-index; the source's flat index follows from the shifted one.
  Shape index(rank, 0);
  for (int64_t i = 0; i < own.size(); ++i) {
    int64_t at = 0;
    bool inside = true;
    for (size_t d = 0; d < rank && inside; ++d) {
      inside = index[d] + offset[d] < from[d];
      at = at * from[d] + index[d] + offset[d];
    }
    if (inside) own.set(i, source.get(at));
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < to[d]) break;
      index[d] = 0;
    }
  }
  return own;
}

Case carried_inputs(const Case &source, Case own, Anchor anchor) {
  for (Role role : input_roles) own[role] = carried(source[role], std::move(own[role]), anchor);
  return own;
}

} // namespace convcheck
