#include "core/run/declaration.hpp"

#include <map>
#include <sstream>

#include <fmt/format.h>

#include "core/problem/precision_table.hpp"
#include "core/problem/spelling.hpp"

namespace convcheck {

namespace {

template <class T, class Spell> std::string listed(const std::vector<T> &items, Spell spell, const char *none) {
  return joined(items, ",", spell, none);
}

std::string number(int64_t value) { return std::to_string(value); }

/// NAME -> VALUE of a declaration, in order of appearance.
std::vector<std::pair<std::string, std::string>> fields(const std::string &text) {
  std::vector<std::pair<std::string, std::string>> parsed;
  std::istringstream in(text);
  for (std::string field; std::getline(in, field, ';');) {
    const size_t start = field.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    field = field.substr(start);
    const size_t space = field.find(' ');
    parsed.emplace_back(field.substr(0, space), space == std::string::npos ? "" : field.substr(space + 1));
  }
  return parsed;
}

} // namespace

std::string declaration(const Strategy &strategy) {
  const Support &s = strategy.supports;
  const auto row_name = [](const Precision &p) {
    const PrecisionRow *row = find_precision_row(p);
    return row != nullptr ? std::string(row->name) : precision_words(p);
  };
  return fmt::format(
      "ops {}; ranks {}; formats {}{}; rows {}; data {}; weights {}; crops {}; kernels {}; strides {}; dilations {}; "
      "class {}",
      listed(s.ops, [](Op op) { return to_string(op); }, "none"), listed(s.ranks, number, "none"),
      listed(s.dtypes, [](DType d) { return to_string(d); }, "none"), s.mixed_formats ? " (mixed)" : "",
      listed(s.precisions, row_name, "none"),
      listed(s.data_layouts, [](DataLayout l) { return family_name(l); }, "none"),
      listed(s.weight_layouts, [](WeightLayout l) { return family_name(l); }, "none"), s.crops ? "yes" : "no",
      listed(s.kernels, number, "any"), listed(s.strides, number, "any"), listed(s.dilations, number, "any"),
      to_string(strategy.algorithm));
}

std::string declaration_change(const std::string &then, const std::string &now) {
  std::map<std::string, std::string> found;
  for (auto &[name, value] : fields(then)) found[name] = value;
  std::string change;
  for (const auto &[name, value] : fields(now))
    if (auto was = found.find(name); was != found.end() && was->second != value)
      change += fmt::format("{}{} {} (when found: {})", change.empty() ? "" : "; ", name, value, was->second);
  return change;
}

std::string declaration_note(const FindingRecord &finding, const std::vector<Strategy> &strategies) {
  if (finding.declaration.empty()) return "";
  for (const Strategy &strategy : strategies) {
    if (strategy.name != finding.strategy) continue;
    const std::string change = declaration_change(finding.declaration, declaration(strategy));
    if (change.empty()) return "";
    return fmt::format("{} is declared otherwise than when it found this case: {}: it is offered other problems "
                       "now (repeat what declared it then: its --external-* options, its hello or description)",
                       strategy.name, change);
  }
  return "";
}

} // namespace convcheck
