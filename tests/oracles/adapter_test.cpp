// A named outside implementation's environment (oracles/outside/adapter.hpp): installed, it gives its version; not,
// it says which install set provides it and what failed.

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

TEST(Adapter, StatusGivesTheVersionOrHowToInstall) {
  Adapter adapter{.name = "probe_test", .interpreter = "/usr/bin/python3", .script = "oracles/outside/python/x.py",
                  .install_set = "test", .version_probe = "print('thing 1.2.3')"};
  EXPECT_EQ(adapter_status(adapter).version, "thing 1.2.3");
  EXPECT_EQ(adapter_status(adapter).missing, "");
  EXPECT_EQ(adapter_command(adapter), "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/oracles/outside/python/x.py");

  adapter.version_probe = "import no_such_module_here";
  const AdapterStatus missing = adapter_status(adapter);
  EXPECT_EQ(missing.version, "");
  EXPECT_EQ(missing.missing.rfind("not installed: scripts/install-deps.sh test (exit 1; output: ", 0), 0u) << missing.missing;
  EXPECT_NE(missing.missing.find("No module named 'no_such_module_here'"), std::string::npos) << missing.missing;

  adapter.interpreter = ".venv/nothing/bin/python";
  EXPECT_EQ(adapter_status(adapter).missing, "not installed: scripts/install-deps.sh test (no interpreter " CONVCHECK_SOURCE_DIR
                                             "/.venv/nothing/bin/python)");
}

TEST(Adapter, EveryShippedScriptExists) {
  ASSERT_GE(adapters().size(), 4u);
  for (const Adapter *adapter : adapters())
    EXPECT_TRUE(std::filesystem::exists(std::string(CONVCHECK_SOURCE_DIR "/") + adapter->script)) << adapter->name;
}

} // namespace
} // namespace convcheck
