#include "core/problem/neighbours.hpp"

#include "core/problem/fields.hpp"

namespace convcheck {

std::vector<Neighbour> neighbours_of(const Problem &problem, int64_t max_elements) {
  std::vector<Neighbour> found;
  const auto add = [&](std::string change, const Problem &neighbour) {
    if (neighbour != problem && is_valid(neighbour, max_elements)) found.push_back({std::move(change), neighbour});
  };
  for (const IntField &field : int_fields()) {
    const int64_t step = field.per_group ? problem.groups : 1;
    for (int64_t axis = field.per_axis() ? problem.first_axis() : 0; axis < (field.per_axis() ? max_ndims : 1); ++axis)
      for (int64_t direction : {-1, 1}) {
        Problem neighbour = problem;
        const int64_t value = field.get(problem, axis) + direction * step;
        field.set(neighbour, axis, value);
        add(field.label(axis) + " " + std::to_string(value), neighbour);
      }
  }
  Problem layout = problem;
  layout.data_layout = problem.data_layout == DataLayout::ncx ? DataLayout::nxc : DataLayout::ncx;
  add("data_layout " + to_string(layout.data_layout, problem.ndims), layout);
  for (WeightLayout weight : {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi}) {
    Problem neighbour = problem;
    neighbour.weight_layout = weight;
    add("weight_layout " + to_string(weight, problem.ndims), neighbour);
  }
  for (DType dtype : {DType::float32, DType::float64}) {
    Problem neighbour = problem;
    neighbour.precision = Precision::uniform(dtype);
    add(std::string("dtype ") + (dtype == DType::float32 ? "f32" : "f64"), neighbour);
  }
  return found;
}

} // namespace convcheck
