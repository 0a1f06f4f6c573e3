#include "core/strategy.hpp"

#include <algorithm>
#include <cassert>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

// Function-local so registrations from other translation units never see it uninitialised.
std::vector<std::unique_ptr<Strategy>> &registry() {
  static std::vector<std::unique_ptr<Strategy>> strategies;
  return strategies;
}

std::string known_names(bool injected) {
  std::string names;
  for (const Strategy *strategy : registered_strategies())
    if (strategy->injected == injected) names += (names.empty() ? "" : ", ") + strategy->name;
  return names;
}

} // namespace

Registration::Registration(Strategy strategy) {
  assert(find_strategy(strategy.name) == nullptr && "two strategies share a name");
  registry().push_back(std::make_unique<Strategy>(std::move(strategy)));
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
  if (names.empty()) {
    for (const Strategy *strategy : registered_strategies())
      if (!strategy->injected) add(*strategy);
  }
  std::stringstream list(names);
  for (std::string name; std::getline(list, name, ',');) {
    if (name.empty()) continue;
    const Strategy *strategy = find_strategy(name);
    if (strategy == nullptr || strategy->injected)
      throw InputError(fmt::format("unknown strategy '{}' (known: {})", name, known_names(false)));
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
