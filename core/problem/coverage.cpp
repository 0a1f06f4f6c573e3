#include "core/problem/coverage.hpp"

#include "core/problem/op.hpp"
#include "core/problem/precision_table.hpp"
#include "core/problem/witness_reach.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace convcheck {

namespace {

// True when `holds` is true of any of the problem's own spatial axes.
template <class F> bool any_axis(const Problem &p, F holds) {
  return std::any_of(p.axes.begin() + p.first_axis(), p.axes.end(), holds);
}

// A tail after at least one full block: more than `block`, not a multiple of it.
bool tail_after(int64_t value, int64_t block) { return value > block && value % block != 0; }

bool depthwise(const Problem &p) { return p.groups > 1 && p.groups == p.in_channels && p.groups == p.out_channels; }

std::vector<Corner> make_corners() {
  std::vector<Corner> list = {
      {"1-D", [](const Problem &p) { return p.ndims == 1; }},
      {"2-D", [](const Problem &p) { return p.ndims == 2; }},
      {"3-D", [](const Problem &p) { return p.ndims == 3; }},
      {"one input channel", [](const Problem &p) { return p.in_channels == 1; }},
      {"depthwise (G = C = K > 1)", depthwise},
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
  for (const DirectionInfo &each : directions(Op::conv))
    list.push_back({fmt::format("{} reduction past the narrow range", each.name), [&each](const Problem &p) {
                      return witness_terms(p) > 0 && reduction_terms(p, each.direction) >= witness_terms(p);
                    }});
  // The rows the default draw makes (the training rows weigh 0: named with --rows, or read from benchdnn's lists).
  for (const PrecisionRow &row : precision_table())
    if (row.fuzz_weight > 0)
      list.push_back({fmt::format("precision {}", row.name),
                      [precision = row.precision](const Problem &p) { return p.precision == precision; }});
  for (DataLayout data : {DataLayout::ncx, DataLayout::nxc})
    for (WeightLayout weight : {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi})
      list.push_back({to_string(data, 2) + " + " + to_string(weight, 2), [data, weight](const Problem &p) {
                        return p.data_layout == data && p.weight_layout == weight;
                      }});
  return list;
}

std::vector<Corner> make_seams() {
  std::vector<Corner> list;
  for (int64_t block : {8, 16, 32, 64}) {
    list.push_back({fmt::format("in channels/group: tail after {}", block),
                    [block](const Problem &p) { return tail_after(p.in_channels_per_group(), block); }});
    list.push_back({fmt::format("out channels/group: tail after {}", block),
                    [block](const Problem &p) { return tail_after(p.out_channels_per_group(), block); }});
  }
  list.push_back({"depthwise channels: tail after 16",
                  [](const Problem &p) { return depthwise(p) && tail_after(p.groups, 16); }});
  list.push_back({"depthwise channels past 64", [](const Problem &p) { return depthwise(p) && p.groups > 64; }});
  list.push_back({"groups past 16", [](const Problem &p) { return p.groups > 16; }});
  for (int64_t block : {8, 14, 16, 28})
    list.push_back({fmt::format("output width: tail after {}", block),
                    [block](const Problem &p) { return tail_after(info(p.op).out_size(p.width()), block); }});
  list.push_back({"kernel width past 5", [](const Problem &p) { return p.width().kernel > 5; }});
  list.push_back({"kernel past 7",
                  [](const Problem &p) { return any_axis(p, [](const SpatialAxis &a) { return a.kernel > 7; }); }});
  list.push_back({"stride 4 or more",
                  [](const Problem &p) { return any_axis(p, [](const SpatialAxis &a) { return a.stride >= 4; }); }});
  list.push_back({"dilation 4 or more",
                  [](const Problem &p) { return any_axis(p, [](const SpatialAxis &a) { return a.dilation >= 4; }); }});
  list.push_back({"stride past a padded kernel", [](const Problem &p) {
                    return any_axis(p, [](const SpatialAxis &a) {
                      return a.stride > a.kernel && (a.pad_begin > 0 || a.pad_end > 0);
                    });
                  }});
  list.push_back({"batch: tail after 2", [](const Problem &p) { return tail_after(p.batch, 2); }});
  list.push_back({"batch past 8", [](const Problem &p) { return p.batch > 8; }});
  return list;
}

std::vector<Corner> make_deconv_corners() {
  const auto deconv = [](auto holds) {
    return [holds](const Problem &p) { return p.op == Op::deconv && holds(p); };
  };
  const auto axis = [&](auto holds) { return deconv([holds](const Problem &p) { return any_axis(p, holds); }); };
  return {
      {"deconv", deconv([](const Problem &) { return true; })},
      {"deconv: output_padding > 0", axis([](const SpatialAxis &a) { return a.output_padding > 0; })},
      {"deconv: output_padding with padding at the end",
       axis([](const SpatialAxis &a) { return a.output_padding > 0 && a.pad_end > 0; })},
      {"deconv: stride larger than kernel", axis([](const SpatialAxis &a) { return a.stride > a.kernel; })},
      {"deconv: dilation with stride", axis([](const SpatialAxis &a) { return a.dilation > 1 && a.stride > 1; })},
      {"deconv: groups with C/G, K/G > 1", deconv([](const Problem &p) {
         return p.groups > 1 && p.in_channels_per_group() > 1 && p.out_channels_per_group() > 1;
       })},
      {"deconv: depthwise", deconv(depthwise)},
      {"deconv: asymmetric padding", axis([](const SpatialAxis &a) { return a.pad_begin != a.pad_end; })},
      {"deconv: negative padding (extended output)",
       axis([](const SpatialAxis &a) { return a.pad_begin < 0 || a.pad_end < 0; })},
      {"deconv: 1-D", deconv([](const Problem &p) { return p.ndims == 1; })},
      {"deconv: 2-D", deconv([](const Problem &p) { return p.ndims == 2; })},
      {"deconv: 3-D", deconv([](const Problem &p) { return p.ndims == 3; })},
      // The block seams of the conv's list, where a deconv's kernels block: its output channels and output width.
      {"deconv: out channels/group: tail after 8", deconv([](const Problem &p) {
         return tail_after(p.out_channels_per_group(), 8);
       })},
      {"deconv: in channels/group: tail after 8", deconv([](const Problem &p) {
         return tail_after(p.in_channels_per_group(), 8);
       })},
      {"deconv: depthwise channels: tail after 16", deconv([](const Problem &p) {
         return depthwise(p) && tail_after(p.groups, 16);
       })},
      {"deconv: output width: tail after 8", deconv([](const Problem &p) {
         return tail_after(p.width().transposed_out(), 8);
       })},
      {"deconv: output width: tail after 16", deconv([](const Problem &p) {
         return tail_after(p.width().transposed_out(), 16);
       })},
  };
}

std::vector<std::string> make_value_bins() {
  std::vector<std::string> bins{"<0", "0", "1"};
  for (int64_t low = 2; low < 128; low *= 2) bins.push_back(fmt::format("{}-{}", low, 2 * low - 1));
  bins.push_back("128+");
  return bins;
}

} // namespace

const std::vector<Corner> &corners() {
  static const std::vector<Corner> list = make_corners();
  return list;
}

const std::vector<Corner> &seams() {
  static const std::vector<Corner> list = make_seams();
  return list;
}

const std::vector<Corner> &deconv_corners() {
  static const std::vector<Corner> list = make_deconv_corners();
  return list;
}

const std::vector<std::string> &value_bins() {
  static const std::vector<std::string> bins = make_value_bins();
  return bins;
}

size_t value_bin(int64_t value) {
  if (value <= 1) return static_cast<size_t>(std::max<int64_t>(value, -1) + 1);
  size_t bin = 2;
  for (int64_t low = 2; low <= value && bin + 1 < value_bins().size(); low *= 2) ++bin;
  return bin;
}

} // namespace convcheck
