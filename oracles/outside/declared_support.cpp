#include "oracles/outside/declared_support.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/input_error.hpp"
#include "core/problem/op.hpp"
#include "core/problem/precision_table.hpp"

namespace convcheck {

namespace {

constexpr std::array<std::pair<DataLayout, const char *>, 2> data_families{{{DataLayout::ncx, "ncx"},
                                                                             {DataLayout::nxc, "nxc"}}};
constexpr std::array<std::pair<WeightLayout, const char *>, 3> weight_families{
    {{WeightLayout::oix, "oix"}, {WeightLayout::xio, "xio"}, {WeightLayout::oxi, "oxi"}}};

// What a declaration said that convcheck could not use, for `warnings` (nullptr: nobody asked).
struct Unknown {
  std::vector<std::string> *warnings;
  void add(const char *list, const std::string &name, const std::vector<std::string> &known_names) const {
    if (warnings != nullptr)
      warnings->push_back(fmt::format("\"{}\" names \"{}\", which convcheck does not know (nearest: \"{}\"): left out",
                                      list, name, nearest_name(name, known_names)));
  }
};

// The values of `names` that `parse` knows, in order, without repeats; each other name said to `unknown` as one of
// list `list`, whose known names are `known_names`.
template <class T, class Parse>
std::vector<T> known(const std::optional<std::vector<std::string>> &names, std::vector<T> all, Parse parse,
                     const Unknown &unknown, const char *list, const std::vector<std::string> &known_names) {
  if (!names) return all;
  std::vector<T> values;
  for (const std::string &name : *names) {
    const std::optional<T> value = parse(name);
    if (!value) unknown.add(list, name, known_names);
    if (value && std::find(values.begin(), values.end(), *value) == values.end()) values.push_back(*value);
  }
  return values;
}

template <class T, size_t N> std::vector<std::string> names_of(const std::array<std::pair<T, const char *>, N> &rows) {
  std::vector<std::string> names;
  for (const auto &[value, name] : rows) names.push_back(name);
  return names;
}

template <class T, size_t N>
std::optional<T> family_named(const std::array<std::pair<T, const char *>, N> &families, const std::string &name) {
  for (const auto &[value, family] : families)
    if (name == family) return value;
  return std::nullopt;
}

} // namespace

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
// tensors in float32, which that row's bound rightly fails. Nor are the training rows with data and weight in two
// formats (bf16_f32data, ...): a declaration names formats, not pairs, and most frameworks refuse such a pair.
std::vector<Precision> combinations_of(const std::vector<DType> &formats) {
  std::vector<Precision> combinations;
  const auto declared = [&](DType dtype) { return std::find(formats.begin(), formats.end(), dtype) != formats.end(); };
  for (const PrecisionRow &row : precision_table()) {
    const Precision &p = row.precision;
    if (row.low_precision && !mixes_input_formats(p) && declared(p.src) && declared(p.weight) && declared(p.dst) &&
        declared(p.acc))
      combinations.push_back(p);
  }
  return combinations;
}

} // namespace

std::string nearest_name(const std::string &name, const std::vector<std::string> &known) {
  std::string nearest;
  size_t best = std::string::npos;
  for (const std::string &candidate : known) {
    // Levenshtein distance, one row at a time
    std::vector<size_t> row(candidate.size() + 1);
    for (size_t j = 0; j < row.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= name.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= candidate.size(); ++j) {
        const size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (name[i - 1] == candidate[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    if (row.back() < best) best = row.back(), nearest = candidate;
  }
  return nearest;
}

Support declared_support(const DeclaredSupport &declared, std::vector<std::string> *warnings) {
  const Unknown unknown{warnings};
  const Support all = full_support();
  Support support = all;
  std::vector<std::string> op_names;
  for (const OpInfo &row : op_table()) op_names.push_back(row.name);
  support.ops = known(
      declared.ops, all.ops,
      [](const std::string &name) -> std::optional<Op> {
        try {
          return parse_op(name);
        } catch (const InputError &) {
          return std::nullopt;
        }
      },
      unknown, "ops", op_names);
  if (declared.dtypes) {
    std::vector<std::string> dtype_names;
    for (const DTypeInfo &row : dtype_table()) dtype_names.push_back(row.name);
    // A descriptor word ("bf16") is nearest its format's name whatever the edit distance says.
    const auto nearest_dtype = [&](const std::string &name) {
      for (const DTypeInfo &row : dtype_table())
        if (name == row.word) return std::vector<std::string>{row.name};
      return dtype_names;
    };
    std::vector<DType> formats;
    for (const std::string &name : *declared.dtypes) {
      const auto row = std::find_if(dtype_table().begin(), dtype_table().end(),
                                    [&](const DTypeInfo &each) { return name == each.name; });
      if (row == dtype_table().end()) unknown.add("dtypes", name, nearest_dtype(name));
      else if (std::find(formats.begin(), formats.end(), row->dtype) == formats.end()) formats.push_back(row->dtype);
    }
    support.precisions = combinations_of(formats);
    // A storage-only format declared without what its rows sum in reaches no row: say so.
    for (DType format : formats)
      if (!info(format).accumulates && warnings != nullptr &&
          std::none_of(support.precisions.begin(), support.precisions.end(), [&](const Precision &p) {
            return p.src == format || p.weight == format || p.dst == format;
          })) {
        std::vector<std::string> rows, sums;
        for (const PrecisionRow &row : precision_table())
          if (row.low_precision && !mixes_input_formats(row.precision) &&
              (row.precision.src == format || row.precision.dst == format)) {
            rows.push_back(precision_words(row.precision));
            if (std::find(sums.begin(), sums.end(), info(row.precision.acc).name) == sums.end())
              sums.push_back(info(row.precision.acc).name);
          }
        warnings->push_back(fmt::format(
            "\"dtypes\" has \"{}\" but not \"{}\", which its rows ({}) sum in: no {} problem can be sent; declare \"{}\" "
            "too",
            info(format).name, fmt::join(sums, "\" or \""), fmt::join(rows, ", "), info(format).name, sums.front()));
      }
    std::erase_if(formats, [](DType dtype) { return !info(dtype).accumulates; }); // no problem is all bf16
    support.dtypes = std::move(formats);
  }
  support.data_layouts = known(
      declared.data_layouts, all.data_layouts,
      [](const std::string &name) { return family_named(data_families, name); }, unknown, "data_layouts",
      names_of(data_families));
  support.weight_layouts = known(
      declared.weight_layouts, all.weight_layouts,
      [](const std::string &name) { return family_named(weight_families, name); }, unknown, "weight_layouts",
      names_of(weight_families));
  if (declared.ranks) {
    support.ranks.clear();
    for (int64_t rank : *declared.ranks) {
      const bool known_rank = std::find(all.ranks.begin(), all.ranks.end(), rank) != all.ranks.end();
      if (!known_rank && warnings != nullptr)
        warnings->push_back(fmt::format("\"ranks\" has {}, which convcheck does not draw (1, 2, 3): left out", rank));
      if (known_rank && std::find(support.ranks.begin(), support.ranks.end(), rank) == support.ranks.end())
        support.ranks.push_back(rank);
    }
  }
  support.crops = declared.crops.value_or(true);
  return support;
}

} // namespace convcheck
