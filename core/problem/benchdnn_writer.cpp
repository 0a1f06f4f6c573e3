#include "core/problem/benchdnn_writer.hpp"

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/benchdnn_descriptor.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/op.hpp"

namespace convcheck {

namespace {

constexpr char axis_letters[max_ndims] = {'d', 'h', 'w'};

/// oneDNN's letters for dimensions 0.. of a tensor of `count` dimensions ("abcd...").
std::string letters(const std::vector<int> &order) {
  std::string tag;
  for (int dimension : order) tag += static_cast<char>('a' + dimension);
  return tag;
}

/// 2, 3, 4: the spatial dimensions' indices of a tensor whose first spatial dimension is `first`.
std::vector<int> spatial(int first, int64_t ndims) {
  std::vector<int> dimensions;
  for (int i = 0; i < ndims; ++i) dimensions.push_back(first + i);
  return dimensions;
}

std::vector<int> concat(std::vector<int> a, const std::vector<int> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

} // namespace

std::string benchdnn_descriptor(const Problem &problem) {
  // benchdnn's own print order (prb_t::str): mb, then groups and channels, then one block per axis.
  std::string text = fmt::format("mb{}_{}ic{}oc{}", problem.batch,
                                 problem.groups > 1 ? fmt::format("g{}", problem.groups) : "", problem.in_channels,
                                 problem.out_channels);
  for (int64_t index = problem.first_axis(); index < max_ndims; ++index) {
    const SpatialAxis &axis = problem.axes[static_cast<size_t>(index)];
    const char x = axis_letters[index];
    if (axis.pad_begin < 0)
      throw InputError(fmt::format("benchdnn cannot spell a crop at the beginning of an axis (p{} {}) in {}", x,
                                   axis.pad_begin, format_descriptor(problem)));
    // A deconv's output size (its own formula, problem.out_size) carries its output_padding: benchdnn has none.
    text += fmt::format("_i{}{}o{}{}k{}{}s{}{}d{}{}p{}{}", x, axis.in, x, problem.out_size(index), x, axis.kernel, x,
                        axis.stride, x, axis.dilation - 1, x, axis.pad_begin);
  }
  return text;
}

std::string benchdnn_data_tag(DataLayout layout, int64_t ndims) {
  // N, C, spatial...: NCX is abc..., NXC puts C (b) last.
  const std::vector<int> space = spatial(2, ndims);
  return letters(layout == DataLayout::ncx ? concat({0, 1}, space) : concat(concat({0}, space), {1}));
}

std::string benchdnn_weight_tag(WeightLayout layout, bool grouped, int64_t ndims, Op op) {
  // oneDNN's dimensions are [G,] O, I, spatial... for both ops. convcheck's layouts order the canonical weight's
  // first channel axis (G folded in: O for a conv, I for a deconv), its second, and the kernel: XIO is x, second,
  // G, first (a grouped conv's hwigo); OXI is G, first, x, second (gohwi).
  const int g = 0, o = grouped ? 1 : 0, i = o + 1;
  const std::vector<int> space = spatial(i + 1, ndims);
  const int first = info(op).weight_in_channels_first ? i : o, second = first == i ? o : i;
  const std::vector<int> outer = grouped ? std::vector<int>{g, first} : std::vector<int>{first};
  switch (layout) {
  case WeightLayout::oix: return letters(concat(concat(outer, {second}), space));
  case WeightLayout::xio: return letters(concat(concat(space, {second}), outer));
  case WeightLayout::oxi: return letters(concat(concat(outer, space), {second}));
  }
  return "any";
}

std::string benchdnn_dir(Direction direction) {
  switch (direction) {
  case Direction::output: return "FWD_D";
  case Direction::grad_data: return "BWD_D";
  case Direction::grad_weight: return "BWD_W";
  }
  return "?";
}

Problem with_derived_pad_end(Problem problem) {
  for (int64_t index = problem.first_axis(); index < max_ndims; ++index) {
    SpatialAxis &axis = problem.axes[static_cast<size_t>(index)];
    if (problem.op == Op::deconv) {
      axis = benchdnn_deconv_end(axis); // the output size is spelled out: only the split can differ
      continue;
    }
    // desc_t::init_pad_r: (o - 1) * s - i + ((k - 1) * (d + 1) + 1) - p, with d counted from 0.
    axis.pad_end = (axis.out() - 1) * axis.stride - axis.in + axis.dilated_kernel() - axis.pad_begin;
  }
  return problem;
}

} // namespace convcheck
