#include "core/problem/fields.hpp"

#include <array>

#include <fmt/format.h>

namespace convcheck {

namespace {

// Distributions, per tier (small, medium, large). Small keeps every size small enough that a case costs
// microseconds; medium and large reach the block seams of real kernels: channels per group at 2^k - 1, 2^k and
// 2^k + 1 (blocks of 8, 16, 32, 64), output widths around register blocks (8, 14, 16, 28, 32), kernels up to 7
// and 11, stride up to 5, dilation up to 4, batch past blocks of 2 and 8, groups up to 32 and depthwise channels
// past 64. The generator trims a medium or large problem to its tier's work budget (generators.cpp).
Distribution one_to(int64_t max) { return {{1, 1, max}}; }
Distribution mostly_one(int64_t max) { return {{3, 1, 1}, {1, 2, max}}; }
Distribution often_one(int64_t max) { return {{1, 1, 1}, {3, 1, max}}; }
Distribution padding(int64_t max, int64_t crop) { return {{12, 0, 0}, {8, 1, max}, {1, -crop, -1}}; }
Distribution channels_at_seams(int64_t max, std::vector<int64_t> blocks) {
  return {{1, 1, 1}, {1, 1, max}, {3, 1, max, std::move(blocks)}};
}

// clang-format off
const std::array<IntField, 11> int_rows{{
  // name           scalar                   axial                     keys                      axis names (v1 attributes for H, W)                 neutral printed negative per_group pair
  {"groups",       &Problem::groups,       nullptr,                  {"g"},                    {"groups"},                                             1, false, false, false, 0,
   {{{{1, 2, 6}}, {{2, 2, 8}, {1, 2, 33, {8, 16, 32}}}, {{1, 2, 32}, {1, 2, 65, {16, 32, 64}}}}}, {}},
  {"batch",        &Problem::batch,        nullptr,                  {"mb"},                   {"batch"},                                              1, true,  false, false, 0,
   {{{{1, 1, 1}, {1, 2, 3}}, {{2, 1, 1}, {2, 2, 9}, {1, 2, 17, {8, 16}}}, {{1, 1, 1}, {1, 2, 17, {2, 8, 16}}}}}, {}},
  {"in_channels",  &Problem::in_channels,  nullptr,                  {"ic"},                   {"in_channels"},                                        1, true,  false, true,  0,
   {{often_one(8), channels_at_seams(65, {8, 16, 32, 64}), channels_at_seams(129, {16, 32, 64, 128})}}, {}},
  {"in_size",      nullptr, &SpatialAxis::in,                        {"id", "ih", "iw"},       {"in_depth", "in_height", "in_width"},                          1, true,  false, false, 0,
   {{one_to(12), {{1, 1, 24}, {2, 1, 33, {8, 14, 16, 32}, true}}, {{1, 8, 64}, {3, 1, 57, {14, 16, 28, 32, 56}, true}}}},
   {7, 12, 16}},
  {"out_channels", &Problem::out_channels, nullptr,                  {"oc"},                   {"out_channels"},                                       1, true,  false, true,  0,
   {{often_one(8), channels_at_seams(65, {8, 16, 32, 64}), channels_at_seams(129, {16, 32, 64, 128})}}, {}},
  {"kernel_size",  nullptr, &SpatialAxis::kernel,                    {"kd", "kh", "kw"},       {"kernel_depth", "kernel_height", "kernel_width"},                  1, true,  false, false, 0,
   {{often_one(5), {{1, 1, 1}, {2, 1, 5}, {2, 6, 7}}, {{1, 1, 1}, {2, 1, 7}, {2, 8, 11}}}}, {3, 5, 5}},
  {"stride",       nullptr, &SpatialAxis::stride,                    {"sd", "sh", "sw"},       {"stride_depth", "stride_height", "stride_width"},                  1, false, false, false, 0,
   {{mostly_one(3), mostly_one(4), mostly_one(5)}}, {}},
  {"dilation",     nullptr, &SpatialAxis::dilation,                  {"dld", "dlh", "dlw"},    {"dilation_depth", "dilation_height", "dilation_width"},              1, false, false, false, 0,
   {{mostly_one(3), mostly_one(4), mostly_one(4)}}, {}},
  {"pad_begin",    nullptr, &SpatialAxis::pad_begin,                 {"pfr", "pt", "pl"},      {"pad_front", "pad_top", "pad_left"},                            0, false, true,  false, 1,
   {{padding(3, 2), padding(3, 2), padding(5, 3)}}, {1, 1, 1}},
  {"pad_end",      nullptr, &SpatialAxis::pad_end,                   {"pbk", "pb", "pr"},      {"pad_back", "pad_bottom", "pad_right"},                        0, false, true,  false, 1,
   {{padding(3, 2), padding(3, 2), padding(5, 3)}}, {1, 1, 1}},
  // A deconv's only (0 <= it < max(stride, dilation): validate). "negative" only so that 0 passes the >= 1 rule;
  // the generator sets it when it transposes a conv (generators.cpp), so it draws nothing here.
  {"output_padding", nullptr, &SpatialAxis::output_padding,      {"opd", "oph", "opw"},    {"output_padding_depth", "output_padding_height", "output_padding_width"}, 0, false, true, false, 0,
   {}, {}, true},
}};
// clang-format on

void set_data_layout(Problem &p, const std::string &text, const std::string &what) {
  p.data_layout = parse_data_layout(text, p.ndims, what);
}
void set_weight_layout(Problem &p, const std::string &text, const std::string &what) {
  p.weight_layout = parse_weight_layout(text, p.ndims, what);
}

template <DType Precision::*member> WordField dtype_field(const char *name) {
  return {name, [](const Problem &p) { return to_string(p.precision.*member); },
          [](Problem &p, const std::string &text, const std::string &what) { p.precision.*member = parse_dtype(text, what); },
          false, nullptr};
}

std::vector<std::string> data_layouts(int64_t ndims) {
  return {to_string(DataLayout::ncx, ndims), to_string(DataLayout::nxc, ndims)};
}
std::vector<std::string> weight_layouts(int64_t ndims) {
  return {to_string(WeightLayout::oix, ndims), to_string(WeightLayout::xio, ndims), to_string(WeightLayout::oxi, ndims)};
}

const std::array<WordField, 7> word_rows{{
    {"op", [](const Problem &p) { return to_string(p.op); },
     [](Problem &p, const std::string &text, const std::string &what) { p.op = parse_op(text, what); }, false,
     [](int64_t) { return std::vector<std::string>{to_string(Op::conv)}; }},
    {"data_layout", [](const Problem &p) { return to_string(p.data_layout, p.ndims); }, set_data_layout, true,
     data_layouts},
    {"weight_layout", [](const Problem &p) { return to_string(p.weight_layout, p.ndims); }, set_weight_layout, true,
     weight_layouts},
    dtype_field<&Precision::src>("src_dtype"),
    dtype_field<&Precision::weight>("weight_dtype"),
    dtype_field<&Precision::dst>("dst_dtype"),
    dtype_field<&Precision::acc>("acc_dtype"),
}};

} // namespace

std::string to_string(Tier tier) {
  static const std::array<const char *, tier_count> names{"small", "medium", "large"};
  return names[static_cast<size_t>(tier)];
}

std::string IntField::label(int64_t axis) const {
  return per_axis() ? axis_names[static_cast<size_t>(axis)] : name;
}

std::span<const IntField> int_fields() { return int_rows; }

std::span<const WordField> word_fields() { return word_rows; }

const IntField *find_int_field(const std::string &name) {
  for (const IntField &field : int_rows)
    if (name == field.name) return &field;
  return nullptr;
}

} // namespace convcheck
