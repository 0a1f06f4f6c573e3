// The servers convcheck ships as named strategies (oracles/outside/adapter.hpp): named in --strategies they run as an
// external server would, `convcheck strategies` lists each with its environment's version, and the README's table
// lists them.

#include <string>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace convcheck::testing {
namespace {

TEST(Adapters, NamedServerRunsLikeABuiltInAndIsJudged) {
  const std::string report = ::testing::TempDir() + "/adapter_report.json";
  const Invocation run =
      run_convcheck("fuzz --strategies naive,numpy_server --cases 60 --threads 2 --no-shrink --report " + report);
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json json = read_json(report);
  const nlohmann::json &numpy = json["strategies"]["numpy_server"];
  EXPECT_EQ(numpy["failed"], 0);
  EXPECT_GT(numpy["passed"].get<int>() + numpy["weak"].get<int>(), 60) << run.output;
  EXPECT_EQ(numpy["implementation"]["name"].get<std::string>().rfind("numpy", 0), 0u) << numpy.dump();
}

TEST(Adapters, OnlyAdaptersNamedSelectNoBuiltIn) {
  const std::string report = ::testing::TempDir() + "/adapter_only_report.json";
  const Invocation run = run_convcheck("fuzz --strategies numpy_server --cases 10 --no-shrink --report " + report);
  ASSERT_EQ(run.status, 0) << run.output;
  const nlohmann::json json = read_json(report);
  EXPECT_EQ(json["strategies"].size(), 1u) << json["strategies"].dump();
}

TEST(Adapters, StrategiesListsEachWithItsEnvironmentsVersion) {
  const Invocation run = run_convcheck("strategies");
  ASSERT_EQ(run.status, 0) << run.output;
  for (const char *line : {"pytorch_server             server    torch ", "numpy_server               server    numpy ",
                           "winograd_server            server    numpy ", "fft_server                 server    torch "})
    EXPECT_NE(run.output.find(line), std::string::npos) << line << "\n" << run.output;
}

TEST(Adapters, AnUnknownNameIsStillAnError) {
  const Invocation run = run_convcheck("fuzz --strategies numpy_servr --cases 1");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.output.find("unknown strategy 'numpy_servr'"), std::string::npos) << run.output;
}

} // namespace
} // namespace convcheck::testing
