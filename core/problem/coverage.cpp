#include "core/problem/coverage.hpp"

#include <algorithm>

namespace convcheck {

namespace {

// True when `holds` is true of any of the problem's own spatial axes.
template <class F> bool any_axis(const Problem &p, F holds) {
  return std::any_of(p.axes.begin() + p.first_axis(), p.axes.end(), holds);
}

std::vector<Corner> make_corners() {
  std::vector<Corner> list = {
      {"1-D", [](const Problem &p) { return p.ndims == 1; }},
      {"2-D", [](const Problem &p) { return p.ndims == 2; }},
      {"3-D", [](const Problem &p) { return p.ndims == 3; }},
      {"one input channel", [](const Problem &p) { return p.in_channels == 1; }},
      {"depthwise (G = C = K > 1)",
       [](const Problem &p) { return p.groups > 1 && p.groups == p.in_channels && p.groups == p.out_channels; }},
      {"groups with C/G != K/G",
       [](const Problem &p) { return p.groups > 1 && p.in_channels_per_group() != p.out_channels_per_group(); }},
      {"unit kernel", [](const Problem &p) { return p.kernel_volume() == 1; }},
      {"kernel larger than input",
       [](const Problem &p) { return any_axis(p, [](const SpatialAxis &a) { return a.kernel > a.in; }); }},
      {"stride larger than kernel",
       [](const Problem &p) { return any_axis(p, [](const SpatialAxis &a) { return a.stride > a.kernel; }); }},
      {"dilation with stride",
       [](const Problem &p) {
         return any_axis(p, [](const SpatialAxis &a) { return a.dilation > 1 && a.stride > 1; });
       }},
      {"padding on one side only",
       [](const Problem &p) {
         return any_axis(p, [](const SpatialAxis &a) { return (a.pad_begin == 0) != (a.pad_end == 0); });
       }},
      {"negative padding (crop)",
       [](const Problem &p) {
         return any_axis(p, [](const SpatialAxis &a) { return a.pad_begin < 0 || a.pad_end < 0; });
       }},
      {"unequal spatial sizes",
       [](const Problem &p) {
         return any_axis(p, [&](const SpatialAxis &a) { return a.in != p.width().in; });
       }},
      {"batch 1", [](const Problem &p) { return p.batch == 1; }},
      {"batch > 1", [](const Problem &p) { return p.batch > 1; }},
  };
  for (const DTypeInfo &row : dtype_table())
    list.push_back({row.name, [dtype = row.dtype](const Problem &p) { return p.precision.src == dtype; }});
  for (DataLayout data : {DataLayout::ncx, DataLayout::nxc})
    for (WeightLayout weight : {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi})
      list.push_back({to_string(data, 2) + " + " + to_string(weight, 2), [data, weight](const Problem &p) {
                        return p.data_layout == data && p.weight_layout == weight;
                      }});
  return list;
}

} // namespace

const std::vector<Corner> &corners() {
  static const std::vector<Corner> list = make_corners();
  return list;
}

} // namespace convcheck
