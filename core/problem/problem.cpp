#include "core/problem/problem.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/spelling.hpp"
#include "core/problem/fields.hpp"
#include "core/problem/op.hpp"

namespace convcheck {

namespace {

// The letters of the spatial axes of a rank, outermost first: "W", "HW", "DHW".
std::string spatial_letters(int64_t ndims) { return std::string("DHW").substr(static_cast<size_t>(max_ndims - ndims)); }

// Every spelling of a layout, by rank. `make` spells it for given spatial letters.
template <class Layout, class Make>
std::optional<std::pair<Layout, int64_t>> find_layout(const std::string &text, std::initializer_list<Layout> all,
                                                      Make make) {
  const std::string key = uppercase(text);
  for (int64_t ndims = 1; ndims <= max_ndims; ++ndims)
    for (Layout layout : all)
      if (key == make(layout, spatial_letters(ndims))) return std::pair{layout, ndims};
  return std::nullopt;
}

std::string data_spelling(DataLayout layout, const std::string &x) {
  return layout == DataLayout::ncx ? "NC" + x : "N" + x + "C";
}

std::string weight_spelling(WeightLayout layout, const std::string &x) {
  switch (layout) {
  case WeightLayout::oix: return "OI" + x;
  case WeightLayout::xio: return x + "IO";
  case WeightLayout::oxi: return "O" + x + "I";
  }
  return "?";
}

std::optional<std::pair<DataLayout, int64_t>> find_data_layout(const std::string &text) {
  return find_layout(text, {DataLayout::ncx, DataLayout::nxc}, data_spelling);
}
std::optional<std::pair<WeightLayout, int64_t>> find_weight_layout(const std::string &text) {
  return find_layout(text, {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi}, weight_spelling);
}

// Multiplies shape entries, saturating instead of overflowing so absurd sizes are caught, not wrapped.
int64_t saturating_count(const Shape &shape) {
  int64_t count = 1;
  for (int64_t extent : shape) {
    if (extent != 0 && count > std::numeric_limits<int64_t>::max() / extent)
      return std::numeric_limits<int64_t>::max();
    count *= extent;
  }
  return count;
}

template <class F> int64_t volume(const Problem &p, F extent) {
  int64_t product = 1;
  for (const SpatialAxis &axis : p.axes) product *= extent(axis);
  return product;
}

Shape shape_of(const Problem &p, int64_t outer, int64_t inner, int64_t (*extent)(const SpatialAxis &)) {
  Shape shape{outer, inner};
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) shape.push_back(extent(p.axes[static_cast<size_t>(a)]));
  return shape;
}

const char *const axis_words[max_ndims] = {"depth", "height", "width"};

// PyTorch's rule (torch.nn.ConvTranspose: "output_padding must be smaller than either stride or dilation"): a
// larger one would add rows that no input can reach. A conv has none.
void validate_output_padding(const Problem &p) {
  const IntField &output_padding = *find_int_field("output_padding");
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
    if (axis.output_padding == 0) continue;
    if (!info(p.op).has_output_padding)
      throw InputError(fmt::format("{} {} must be 0 in a {}", output_padding.label(a), axis.output_padding,
                                   to_string(p.op)));
    if (axis.output_padding < 0)
      throw InputError(fmt::format("{} {} must be >= 0", output_padding.label(a), axis.output_padding));
    if (axis.output_padding >= std::max(axis.stride, axis.dilation))
      throw InputError(fmt::format("{} {} must be less than max(stride {}, dilation {})", output_padding.label(a),
                                   axis.output_padding, axis.stride, axis.dilation));
  }
}

} // namespace

std::string to_string(Op op) { return info(op).name; }

Op parse_op(const std::string &text, const std::string &what) {
  for (const OpInfo &row : op_table())
    if (text == row.name) return row.op;
  throw InputError(fmt::format("{} '{}' is not conv or deconv", what, text));
}

std::string to_string(DataLayout layout, int64_t ndims) { return data_spelling(layout, spatial_letters(ndims)); }
std::string to_string(WeightLayout layout, int64_t ndims) { return weight_spelling(layout, spatial_letters(ndims)); }
std::string family_name(DataLayout layout) { return lowercase(data_spelling(layout, "X")); }
std::string family_name(WeightLayout layout) { return lowercase(weight_spelling(layout, "X")); }

DataLayout parse_data_layout(const std::string &text, int64_t ndims, const std::string &what) {
  const auto found = find_data_layout(text);
  if (!found || found->second != ndims)
    throw InputError(fmt::format("{} '{}' is not {} or {}", what, text, to_string(DataLayout::ncx, ndims),
                                 to_string(DataLayout::nxc, ndims)));
  return found->first;
}

WeightLayout parse_weight_layout(const std::string &text, int64_t ndims, const std::string &what) {
  const auto found = find_weight_layout(text);
  if (!found || found->second != ndims)
    throw InputError(fmt::format("{} '{}' is not {}, {} or {}", what, text, to_string(WeightLayout::oix, ndims),
                                 to_string(WeightLayout::xio, ndims), to_string(WeightLayout::oxi, ndims)));
  return found->first;
}

std::optional<int64_t> data_layout_rank(const std::string &text) {
  const auto found = find_data_layout(text);
  return found ? std::optional(found->second) : std::nullopt;
}

std::optional<int64_t> weight_layout_rank(const std::string &text) {
  const auto found = find_weight_layout(text);
  return found ? std::optional(found->second) : std::nullopt;
}

int64_t SpatialAxis::transposed_out() const {
  return (in - 1) * stride - pad_begin - pad_end + dilation * (kernel - 1) + output_padding + 1;
}

std::optional<DType> Precision::single() const {
  if (src == weight && src == dst && src == acc) return src;
  return std::nullopt;
}

int64_t Problem::in_volume() const { return volume(*this, [](const SpatialAxis &a) { return a.in; }); }
int64_t Problem::kernel_volume() const { return volume(*this, [](const SpatialAxis &a) { return a.kernel; }); }
int64_t Problem::out_size(int64_t axis) const { return info(op).out_size(axes[static_cast<size_t>(axis)]); }
int64_t Problem::out_volume() const { return volume(*this, info(op).out_size); }
int64_t Problem::multiply_adds() const {
  if (op != Op::conv) return equivalent_conv(*this).multiply_adds();
  return batch * out_channels * in_channels_per_group() * kernel_volume() * out_volume();
}

Shape Problem::data_shape() const {
  return shape_of(*this, batch, in_channels, [](const SpatialAxis &a) { return a.in; });
}
Shape Problem::weight_shape() const {
  const auto kernel = [](const SpatialAxis &a) { return a.kernel; };
  if (info(op).weight_in_channels_first) return shape_of(*this, in_channels, out_channels_per_group(), kernel);
  return shape_of(*this, out_channels, in_channels_per_group(), kernel);
}
Shape Problem::output_shape() const { return shape_of(*this, batch, out_channels, info(op).out_size); }

std::optional<Problem> with_ndims(const Problem &problem, int64_t ndims) {
  if (ndims < 1 || ndims > max_ndims) return std::nullopt;
  Problem result = problem;
  result.ndims = ndims;
  for (int64_t a = 0; a < result.first_axis(); ++a) {
    if (problem.axes[static_cast<size_t>(a)] != SpatialAxis{}) return std::nullopt;
  }
  return result;
}

void validate(const Problem &p, int64_t max_elements) {
  if (p.ndims < 1 || p.ndims > max_ndims)
    throw InputError(fmt::format("ndims {} must be 1, 2 or 3", p.ndims));
  // Every extent is capped too, so that products below cannot overflow before the element cap is checked.
  constexpr int64_t max_extent = int64_t{1} << 30;
  for (const IntField &field : int_fields())
    for (int64_t a = field.per_axis() ? 0 : max_ndims - 1; a < max_ndims; ++a) {
      const int64_t value = field.get(p, a);
      if (a < p.first_axis()) {
        if (value != field.neutral)
          throw InputError(fmt::format("{} {} must be {} in a {}-D problem", field.label(a), value, field.neutral,
                                       p.ndims));
        continue;
      }
      if (!field.may_be_negative && value < 1) throw InputError(fmt::format("{} {} must be >= 1", field.label(a), value));
      if (value > max_extent || value < -max_extent)
        throw InputError(fmt::format("{} {} exceeds the limit {}", field.label(a), value, max_extent));
    }
  if (!info(p.precision.acc).accumulates)
    throw InputError(fmt::format("acc_dtype {} is a storage format only: sums accumulate in float32 or float64",
                                 to_string(p.precision.acc)));
  if (p.in_channels % p.groups != 0)
    throw InputError(fmt::format("groups {} does not divide in_channels {}", p.groups, p.in_channels));
  if (p.out_channels % p.groups != 0)
    throw InputError(fmt::format("groups {} does not divide out_channels {}", p.groups, p.out_channels));
  validate_output_padding(p);
  const IntField &pad_begin = *find_int_field("pad_begin"), &pad_end = *find_int_field("pad_end");
  const IntField &in = *find_int_field("in_size");
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
    if (p.out_size(a) >= 1) continue;
    if (p.op != Op::conv)
      throw InputError(fmt::format("output {} is empty: ({} {} - 1) * stride {} - {} {} - {} {} + dilation {} * "
                                   "(kernel {} - 1) + output_padding {} + 1 < 1",
                                   axis_words[a], in.label(a), axis.in, axis.stride, pad_begin.label(a),
                                   axis.pad_begin, pad_end.label(a), axis.pad_end, axis.dilation, axis.kernel,
                                   axis.output_padding));
    throw InputError(fmt::format("output {} is empty: {} {} + {} {} + {} {} < dilated kernel {} {}",
                                 axis_words[a], in.label(a), axis.in, pad_begin.label(a), axis.pad_begin,
                                 pad_end.label(a), axis.pad_end, axis_words[a], axis.dilated_kernel()));
  }
  const std::pair<const char *, Shape> tensors[] = {
      {"data", p.data_shape()}, {"weight", p.weight_shape()}, {"output", p.output_shape()}};
  for (const auto &[name, shape] : tensors) {
    const int64_t count = saturating_count(shape);
    if (count > max_elements)
      throw InputError(fmt::format("{} tensor has {} elements, more than the limit {} (see --max-elements)", name,
                                   count, max_elements));
  }
}

bool is_valid(const Problem &problem, int64_t max_elements) {
  try {
    validate(problem, max_elements);
    return true;
  } catch (const InputError &) {
    return false;
  }
}

} // namespace convcheck
