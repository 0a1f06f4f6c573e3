#include "core/problem/fields.hpp"

#include <array>

#include <fmt/format.h>

namespace convcheck {

namespace {

// clang-format off
const std::array<IntField, 10> int_rows{{
  // name           scalar                   axial                     keys                      axis names (v1 attributes for H, W)                 neutral printed negative per_group pair
  {"groups",       &Problem::groups,       nullptr,                  {"g"},                    {"groups"},                                             1, false, false, false, 0},
  {"batch",        &Problem::batch,        nullptr,                  {"mb"},                   {"batch"},                                              1, true,  false, false, 0},
  {"in_channels",  &Problem::in_channels,  nullptr,                  {"ic"},                   {"in_channels"},                                        1, true,  false, true,  0},
  {"in_size",      nullptr, &SpatialAxis::in,                        {"id", "ih", "iw"},       {"in_depth", "in_height", "in_width"},                          1, true,  false, false, 0},
  {"out_channels", &Problem::out_channels, nullptr,                  {"oc"},                   {"out_channels"},                                       1, true,  false, true,  0},
  {"kernel_size",  nullptr, &SpatialAxis::kernel,                    {"kd", "kh", "kw"},       {"kernel_depth", "kernel_height", "kernel_width"},                  1, true,  false, false, 0},
  {"stride",       nullptr, &SpatialAxis::stride,                    {"sd", "sh", "sw"},       {"stride_depth", "stride_height", "stride_width"},                  1, false, false, false, 0},
  {"dilation",     nullptr, &SpatialAxis::dilation,                  {"dld", "dlh", "dlw"},    {"dilation_depth", "dilation_height", "dilation_width"},              1, false, false, false, 0},
  {"pad_begin",    nullptr, &SpatialAxis::pad_begin,                 {"pfr", "pt", "pl"},      {"pad_front", "pad_top", "pad_left"},                            0, false, true,  false, 1},
  {"pad_end",      nullptr, &SpatialAxis::pad_end,                   {"pbk", "pb", "pr"},      {"pad_back", "pad_bottom", "pad_right"},                        0, false, true,  false, 1},
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
          false};
}

const std::array<WordField, 7> word_rows{{
    {"op", [](const Problem &p) { return to_string(p.op); },
     [](Problem &p, const std::string &text, const std::string &what) { p.op = parse_op(text, what); }, false},
    {"data_layout", [](const Problem &p) { return to_string(p.data_layout, p.ndims); }, set_data_layout, true},
    {"weight_layout", [](const Problem &p) { return to_string(p.weight_layout, p.ndims); }, set_weight_layout, true},
    dtype_field<&Precision::src>("src_dtype"),
    dtype_field<&Precision::weight>("weight_dtype"),
    dtype_field<&Precision::dst>("dst_dtype"),
    dtype_field<&Precision::acc>("acc_dtype"),
}};

} // namespace

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
