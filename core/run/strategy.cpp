#include "core/problem/spelling.hpp"
#include "core/run/strategy.hpp"

#include "core/problem/precision_table.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/op.hpp"

namespace convcheck {

namespace {

// Function-local so registrations from other translation units never see it uninitialised.
std::vector<std::unique_ptr<Strategy>> &registry() {
  static std::vector<std::unique_ptr<Strategy>> strategies;
  return strategies;
}

std::vector<UnbuiltStrategy> &unbuilt_registry() {
  static std::vector<UnbuiltStrategy> unbuilt;
  return unbuilt;
}

std::string known_names(bool injected) {
  std::string names;
  for (const Strategy *strategy : registered_strategies())
    if (strategy->injected == injected) names += (names.empty() ? "" : ", ") + strategy->name;
  return names;
}

// "1, 2" from a list, each item spelled by `spell`.
template <class T, class Spell> std::string listing(const std::vector<T> &items, Spell spell) {
  return joined(items, ", ", spell, "none");
}

template <class T> bool contains(const std::vector<T> &items, const T &item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

} // namespace

std::string Support::format_refusal(const Precision &precision) const {
  if (contains(precisions, precision)) return ""; // a row of the precision table it declares
  const std::optional<DType> single = precision.single();
  auto dtype_names = [&] { return listing(dtypes, [](DType dtype) { return to_string(dtype); }); };
  const auto mixed = [&] {
    return fmt::format("mixed formats {}:{}:{}:{}", to_string(precision.src), to_string(precision.weight),
                       to_string(precision.dst), to_string(precision.acc));
  };
  if (!single && !mixed_formats)
    return fmt::format("{} are not supported (one of: {}{})", mixed(), dtype_names(),
                       precisions.empty() ? "" : ", " + listing(precisions, precision_words));
  if (!single)
    for (DType dtype : {precision.src, precision.weight, precision.dst, precision.acc})
      if (!contains(dtypes, dtype))
        return fmt::format("{}: {} is not supported (formats: {})", mixed(), to_string(dtype), dtype_names());
  if (single && !contains(dtypes, *single))
    return fmt::format("{} is not supported (formats: {})", to_string(*single), dtype_names());
  return "";
}

std::string Support::refusal(const Problem &p) const {
  if (!contains(ops, p.op))
    return fmt::format("op {} is not supported (ops: {})", to_string(p.op),
                       listing(ops, [](Op op) { return to_string(op); }));
  if (!contains(ranks, p.ndims))
    return fmt::format("{}-D problems are not supported (ranks: {})", p.ndims,
                       listing(ranks, [](int64_t rank) { return std::to_string(rank); }));
  if (std::string refused = format_refusal(p.precision); !refused.empty()) return refused;
  if (!contains(data_layouts, p.data_layout))
    return fmt::format("data layout {} is not supported", to_string(p.data_layout, p.ndims));
  if (!contains(weight_layouts, p.weight_layout))
    return fmt::format("weight layout {} is not supported", to_string(p.weight_layout, p.ndims));
  // Crops of what is computed: a deconv's output padding is a crop of its equivalent conv (core/problem/op.hpp).
  const Problem computed = p.op == Op::conv ? p : equivalent_conv(p);
  const bool crop = std::any_of(computed.axes.begin(), computed.axes.end(),
                                [](const SpatialAxis &a) { return a.pad_begin < 0 || a.pad_end < 0; });
  if (crop && !crops) return "negative padding (a crop) is not supported";
  const auto number = [](int64_t value) { return std::to_string(value); };
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
    const SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
    for (const auto &[taken, value, what] : {std::tuple{&kernels, axis.kernel, "kernel"},
                                             std::tuple{&strides, axis.stride, "stride"},
                                             std::tuple{&dilations, axis.dilation, "dilation"}})
      if (!taken->empty() && !contains(*taken, value))
        return fmt::format("{} {} is not supported ({}s: {})", what, value, what, listing(*taken, number));
  }
  return "";
}

RunResults every_direction_skipped(Op op, const std::string &skipped) {
  RunResults runs;
  for (const DirectionInfo &each : directions(op)) runs[each.direction].skipped = skipped;
  return runs;
}

RunResults every_direction_failed(Op op, const std::string &error) {
  RunResults runs;
  for (const DirectionInfo &each : directions(op)) runs[each.direction].error = error;
  return runs;
}

RunResults every_direction_held_back(Op op, const std::string &detail) {
  RunResults runs;
  for (const DirectionInfo &each : directions(op)) runs[each.direction].held_back = detail;
  return runs;
}

Registration::Registration(Strategy strategy) {
  // Checked in every build (an assert is gone from release ones): a second registration would shadow the first.
  if (find_strategy(strategy.name) != nullptr) {
    std::fprintf(stderr, "convcheck: two strategies are called %s: each name is registered once\n", strategy.name.c_str());
    std::abort();
  }
  registry().push_back(std::make_unique<Strategy>(std::move(strategy)));
}

UnbuiltRegistration::UnbuiltRegistration(UnbuiltStrategy unbuilt) {
  unbuilt_registry().push_back(std::move(unbuilt));
}

std::vector<UnbuiltStrategy> unbuilt_strategies() {
  std::vector<UnbuiltStrategy> result = unbuilt_registry();
  std::sort(result.begin(), result.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
  return result;
}

std::vector<const Strategy *> registered_strategies() {
  std::vector<const Strategy *> result;
  for (const auto &strategy : registry()) result.push_back(strategy.get());
  std::sort(result.begin(), result.end(), [](const Strategy *a, const Strategy *b) {
    return std::tie(a->injected, a->name) < std::tie(b->injected, b->name);
  });
  return result;
}

const Strategy *find_strategy(const std::string &name) {
  for (const auto &strategy : registry())
    if (strategy->name == name) return strategy.get();
  return nullptr;
}

std::vector<Strategy> select_strategies(const std::string &names, const std::vector<std::string> &inject) {
  std::vector<Strategy> selected;
  auto add = [&](const Strategy &strategy) {
    const bool present = std::any_of(selected.begin(), selected.end(),
                                     [&](const Strategy &s) { return s.name == strategy.name; });
    if (!present) selected.push_back(strategy);
  };
  const auto add_real = [&](bool every) {
    for (const Strategy *strategy : registered_strategies())
      if (!strategy->injected && (every || strategy->in_default_set)) add(*strategy);
  };
  if (names.empty()) add_real(/*every=*/false);
  std::stringstream list(names);
  for (std::string name; std::getline(list, name, ',');) {
    if (name.empty()) continue;
    if (name == "all") {
      add_real(/*every=*/true);
      continue;
    }
    for (const UnbuiltStrategy &unbuilt : unbuilt_strategies())
      if (unbuilt.name == name) throw InputError(fmt::format("strategy '{}' is not built: {}", name, unbuilt.reason));
    const Strategy *strategy = find_strategy(name);
    if (strategy == nullptr || strategy->injected)
      throw InputError(fmt::format("unknown strategy '{}' (known: {}, or all)", name, known_names(false)));
    add(*strategy);
  }
  for (const std::string &name : inject) {
    const Strategy *strategy = find_strategy(name);
    if (strategy == nullptr || !strategy->injected)
      throw InputError(fmt::format("unknown injected bug '{}' (known: {})", name, known_names(true)));
    add(*strategy);
  }
  return selected;
}

} // namespace convcheck
