#include "oracles/outside/declared_support.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "core/input_error.hpp"
#include "core/problem/precision_table.hpp"

namespace convcheck {

namespace {

constexpr std::array<std::pair<DataLayout, const char *>, 2> data_families{{{DataLayout::ncx, "ncx"},
                                                                             {DataLayout::nxc, "nxc"}}};
constexpr std::array<std::pair<WeightLayout, const char *>, 3> weight_families{
    {{WeightLayout::oix, "oix"}, {WeightLayout::xio, "xio"}, {WeightLayout::oxi, "oxi"}}};

// The values of `names` that `parse` knows, in order, without repeats.
template <class T, class Parse>
std::vector<T> known(const std::optional<std::vector<std::string>> &names, std::vector<T> all, Parse parse) {
  if (!names) return all;
  std::vector<T> values;
  for (const std::string &name : *names) {
    const std::optional<T> value = parse(name);
    if (value && std::find(values.begin(), values.end(), *value) == values.end()) values.push_back(*value);
  }
  return values;
}

template <class T, size_t N>
std::optional<T> family_named(const std::array<std::pair<T, const char *>, N> &families, const std::string &name) {
  for (const auto &[value, family] : families)
    if (name == family) return value;
  return std::nullopt;
}

} // namespace

std::string family_name(DataLayout layout) {
  for (const auto &[value, name] : data_families)
    if (value == layout) return name;
  return "?";
}

std::string family_name(WeightLayout layout) {
  for (const auto &[value, name] : weight_families)
    if (value == layout) return name;
  return "?";
}

// What a server or plugin that declares no format list is offered: float32 and float64 problems. A format added to
// convcheck later is offered only to those that name it.
Support full_support() {
  // No format list: float32 and float64, alone or mixed; bfloat16 and float16 must be declared.
  Support support{.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {}, .mixed_formats = true,
                  .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true};
  for (const PrecisionRow &row : classic_precisions())
    if (const auto single = row.precision.single()) support.dtypes.push_back(*single);
  return support;
}

namespace {

// The low-precision combinations of the precision table whose four formats are all among `formats` (a server
// declaring float32 and bfloat16 computes bfloat16 storage with float32 sums). float32 storage with float64 sums is
// not offered: an implementation that declared float32 and float64 before this table existed may well sum float32
// tensors in float32, which that row's bound rightly fails.
std::vector<Precision> combinations_of(const std::vector<DType> &formats) {
  std::vector<Precision> combinations;
  const auto declared = [&](DType dtype) { return std::find(formats.begin(), formats.end(), dtype) != formats.end(); };
  for (const PrecisionRow &row : precision_table()) {
    const Precision &p = row.precision;
    if (row.low_precision && declared(p.src) && declared(p.weight) && declared(p.dst) && declared(p.acc))
      combinations.push_back(p);
  }
  return combinations;
}

} // namespace

Support declared_support(const DeclaredSupport &declared) {
  const Support all = full_support();
  Support support = all;
  support.ops = known(declared.ops, all.ops, [](const std::string &name) -> std::optional<Op> {
    try {
      return parse_op(name);
    } catch (const InputError &) {
      return std::nullopt;
    }
  });
  if (declared.dtypes) {
    std::vector<DType> formats = known(declared.dtypes, std::vector<DType>{}, [](const std::string &name) -> std::optional<DType> {
      for (const DTypeInfo &row : dtype_table())
        if (name == row.name) return row.dtype;
      return std::nullopt;
    });
    support.precisions = combinations_of(formats);
    std::erase_if(formats, [](DType dtype) { return !info(dtype).accumulates; }); // no problem is all bf16
    support.dtypes = std::move(formats);
  }
  support.data_layouts = known(declared.data_layouts, all.data_layouts,
                               [](const std::string &name) { return family_named(data_families, name); });
  support.weight_layouts = known(declared.weight_layouts, all.weight_layouts,
                                 [](const std::string &name) { return family_named(weight_families, name); });
  if (declared.ranks) {
    support.ranks.clear();
    for (int64_t rank : *declared.ranks)
      if (std::find(all.ranks.begin(), all.ranks.end(), rank) != all.ranks.end() &&
          std::find(support.ranks.begin(), support.ranks.end(), rank) == support.ranks.end())
        support.ranks.push_back(rank);
  }
  support.crops = declared.crops.value_or(true);
  return support;
}

} // namespace convcheck
