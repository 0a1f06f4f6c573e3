#include "core/problem/neighbours.hpp"

#include <algorithm>
#include <cstring>

#include "core/problem/fields.hpp"
#include "core/problem/seam_draws.hpp"

namespace convcheck {

namespace {

/// The block seams the seam tier draws around for `field` (core/problem/seam_draws.cpp: 16, 32 and 64 channels per
/// group, 8 and 16 images, ...), ascending, and for a channel count also 8: oneDNN's float32 channel block on AVX2,
/// where the jit_1x1 weight gradient of issue #6035 stops writing past its scratchpad (ctest neighbour_table).
/// Output-size anchors (a draw marked `output`) are not input values.
std::vector<int64_t> seams_of(const IntField &field) {
  std::vector<int64_t> seams;
  if (field.per_group) seams.push_back(8);
  for (const SeamDraw &row : seam_draws())
    if (const Distribution *distribution = row.find(field.name))
      for (const Draw &draw : *distribution)
        if (!draw.output) seams.insert(seams.end(), draw.anchors.begin(), draw.anchors.end());
  std::sort(seams.begin(), seams.end());
  seams.erase(std::unique(seams.begin(), seams.end()), seams.end());
  return seams;
}

/// The values, per group for a channel count, that cross the seams nearest `value` without being one step from it:
/// the next seam above and the value just below it (a kernel's tail: "fails for ic 1-15, passes at 16"; for a
/// channel count the next two, since an AVX2 kernel's block is half an AVX-512 one's), and the nearest seam below
/// and the value just past it ("passes at 32, fails from 33").
std::vector<int64_t> seam_crossings(const std::vector<int64_t> &seams, int64_t value, int above_count) {
  std::vector<int64_t> crossings;
  auto above = std::find_if(seams.begin(), seams.end(), [&](int64_t seam) { return seam > value + 1; });
  for (int count = 0; count < above_count && above != seams.end(); ++count, ++above)
    crossings.insert(crossings.end(), {*above - 1, *above});
  const auto below = std::find_if(seams.rbegin(), seams.rend(), [&](int64_t seam) { return seam < value; });
  if (below != seams.rend() && *below < value - 1) crossings.insert(crossings.end(), {*below, *below + 1});
  std::erase_if(crossings, [&](int64_t crossing) { return crossing >= value - 1 && crossing <= value + 1; });
  return crossings;
}

} // namespace

std::vector<Neighbour> neighbours_of(const Problem &problem, int64_t max_elements) {
  std::vector<Neighbour> found;
  const auto add = [&](std::string change, const Problem &neighbour) {
    const bool seen = std::any_of(found.begin(), found.end(), [&](const Neighbour &n) { return n.problem == neighbour; });
    if (neighbour != problem && !seen && is_valid(neighbour, max_elements)) found.push_back({std::move(change), neighbour});
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
  // Each seam crossed: the seam tier's fields (on the width axis, where it draws them) at the seams nearest the case.
  for (const IntField &field : int_fields()) {
    const int64_t step = field.per_group ? problem.groups : 1, axis = field.per_axis() ? max_ndims - 1 : 0;
    for (int64_t per_group : seam_crossings(seams_of(field), field.get(problem, axis) / step, field.per_group ? 2 : 1)) {
      Problem neighbour = problem;
      field.set(neighbour, axis, per_group * step);
      add(field.label(axis) + " " + std::to_string(per_group * step), neighbour);
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
