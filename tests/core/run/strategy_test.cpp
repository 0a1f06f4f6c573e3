// Which strategies a --strategies list selects: the default set, `all`, named ones, and the errors for a name that
// is unknown or whose strategy this build left out.

#include "core/run/strategy.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/input_error.hpp"

namespace convcheck {
namespace {

// core_tests links no oracles, so these are the only registrations its process has.
const Registration in_default{{.name = "selection_default", .supports = {}}};
const Registration optional{{.name = "selection_optional", .in_default_set = false, .supports = {}}};
const UnbuiltRegistration unbuilt{{"selection_unbuilt", "its library was not found when convcheck was configured"}};

std::vector<std::string> names(const std::string &list) {
  std::vector<std::string> selected;
  for (const Strategy &strategy : select_strategies(list, {})) selected.push_back(strategy.name);
  std::sort(selected.begin(), selected.end());
  return selected;
}

std::string error_of(const std::string &list) {
  try {
    select_strategies(list, {});
  } catch (const InputError &error) {
    return error.what();
  }
  return "";
}

TEST(SelectStrategies, TheDefaultSetLeavesOutOptionalStrategies) {
  EXPECT_EQ(names(""), std::vector<std::string>{"selection_default"});
}

TEST(SelectStrategies, AllAddsOptionalStrategiesAndNamingOneSelectsIt) {
  EXPECT_EQ(names("all"), (std::vector<std::string>{"selection_default", "selection_optional"}));
  EXPECT_EQ(names("selection_optional"), std::vector<std::string>{"selection_optional"});
  EXPECT_EQ(names("selection_optional,all"), (std::vector<std::string>{"selection_default", "selection_optional"}));
}

TEST(SelectStrategies, NamingAStrategyLeftOutOfTheBuildSaysWhy) {
  EXPECT_EQ(error_of("selection_default,selection_unbuilt"),
            "strategy 'selection_unbuilt' is not built: its library was not found when convcheck was configured");
  EXPECT_EQ(error_of("nope"), "unknown strategy 'nope' (known: selection_default, selection_optional, or all)");
  ASSERT_EQ(unbuilt_strategies().size(), 1u);
  EXPECT_EQ(unbuilt_strategies()[0].name, "selection_unbuilt");
}

} // namespace
} // namespace convcheck
