// docs/external.md's "A case" is what convcheck sends and expects (issue 26: the example once showed an output of
// height 2 for a problem whose output height is 1): the case frame convcheck builds for the documented descriptor
// has the documented problem, directions and tensor shapes, and the documented results have the shapes convcheck
// checks a server's results against.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/direction.hpp"
#include "oracles/outside/protocol.hpp"

namespace {

using convcheck::Direction;

// The JSON objects of the first ```json block after `heading` in docs/external.md, one per line starting "{".
std::vector<nlohmann::json> documented(const std::string &heading, int block = 0) {
  std::ifstream in(CONVCHECK_SOURCE_DIR "/docs/external.md");
  std::string line, text;
  bool under = false, inside = false;
  int seen = 0;
  std::vector<std::string> objects;
  while (std::getline(in, line)) {
    if (line.starts_with("#")) under = line == heading;
    if (!under) continue;
    if (line == "```json") {
      inside = seen++ == block;
      continue;
    }
    if (line == "```") inside = false;
    if (!inside) continue;
    if (line.starts_with("{")) objects.emplace_back();
    objects.back() += line + "\n";
  }
  std::vector<nlohmann::json> parsed;
  for (const std::string &object : objects) parsed.push_back(nlohmann::json::parse(object));
  return parsed;
}

TEST(DocumentedCase, TheCaseFrameIsWhatConvcheckSends) {
  const std::vector<nlohmann::json> doc = documented("### A case");
  ASSERT_EQ(doc.size(), 1u);
  const nlohmann::json &shown = doc[0];
  const convcheck::Problem problem = convcheck::parse_descriptor(shown.at("descriptor").get<std::string>());
  const convcheck::Case conv_case =
      convcheck::make_case(problem, convcheck::FillMode::mixed, 1, shown.at("case_index").get<uint64_t>());
  const nlohmann::json sent = nlohmann::json::parse(
      convcheck::case_frame(conv_case, shown.at("id"), convcheck::direction_list(conv_case.problem.op)).header);
  EXPECT_EQ(sent.at("problem"), shown.at("problem"));
  EXPECT_EQ(sent.at("tensors"), shown.at("tensors"));
  EXPECT_EQ(sent.at("directions"), shown.at("directions"));
  EXPECT_EQ(sent.at("descriptor"), shown.at("descriptor"));
}

TEST(DocumentedCase, TheResultsHaveTheShapesConvcheckExpects) {
  const convcheck::Problem problem =
      convcheck::parse_descriptor(documented("### A case")[0].at("descriptor").get<std::string>());
  const std::vector<nlohmann::json> answers = documented("### A case", 1);
  ASSERT_EQ(answers.size(), 3u);
  for (const nlohmann::json &result : answers[0].at("results")) {
    const Direction direction = convcheck::parse_direction(result.at("direction").get<std::string>(), "direction");
    EXPECT_EQ(result.at("shape").get<convcheck::Shape>(), convcheck::result_shape(problem, direction))
        << result.dump();
  }
}

} // namespace
