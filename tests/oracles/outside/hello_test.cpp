// A server's hello (oracles/outside/protocol.hpp): what it declares it computes.

#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "oracles/outside/protocol.hpp"

namespace convcheck {
namespace {

ServerHello hello_with(const std::string &supports) {
  return read_hello(Frame{R"({"type": "hello", "protocol": 1, "name": "t", "supports": )" + supports + "}", ""});
}

// "directions" names the directions a server computes; absent, all of them; a name convcheck does not know is left
// out, as every other name of "supports"; a list that is not one is an error naming the key.
TEST(Hello, DeclaresTheDirectionsItComputes) {
  EXPECT_FALSE(hello_with("{}").directions.has_value());
  const ServerHello forward = hello_with(R"({"directions": ["output", "grad_input"]})");
  ASSERT_TRUE(forward.directions.has_value());
  EXPECT_EQ(*forward.directions, std::vector<Direction>{Direction::output});
  EXPECT_EQ(hello_with(R"({"directions": []})").directions, std::vector<Direction>{});
  EXPECT_THROW(hello_with(R"({"directions": "output"})"), InputError);
  EXPECT_EQ(forward.warnings, std::vector<std::string>{"\"directions\" names \"grad_input\", which convcheck does not "
                                                       "know (nearest: \"grad_data\"): left out"});
}

// Support lists that speak (issue 38): every name left out is a warning naming the nearest known one (a descriptor
// word, "bf16", its format's name), and a storage format declared without what its rows sum in, which no row can
// reach, says so; a declaration convcheck takes whole warns of nothing.
TEST(Hello, SaysWhatOfItsSupportConvcheckCannotUse) {
  EXPECT_EQ(hello_with(R"({"dtypes": ["float32", "bfloat16"], "ranks": [2], "ops": ["conv", "deconv"]})").warnings,
            std::vector<std::string>{});
  const ServerHello typos = hello_with(
      R"({"dtypes": ["float32", "bf16", "flaot64"], "ops": ["deconvolution"], "data_layouts": ["nhwc"], "ranks": [4]})");
  EXPECT_EQ(typos.warnings,
            (std::vector<std::string>{
                "\"ops\" names \"deconvolution\", which convcheck does not know (nearest: \"deconv\"): left out",
                "\"dtypes\" names \"bf16\", which convcheck does not know (nearest: \"bfloat16\"): left out",
                "\"dtypes\" names \"flaot64\", which convcheck does not know (nearest: \"float64\"): left out",
                "\"data_layouts\" names \"nhwc\", which convcheck does not know (nearest: \"nxc\"): left out",
                "\"ranks\" has 4, which convcheck does not draw (1, 2, 3): left out"}));
  const ServerHello alone = hello_with(R"({"dtypes": ["bfloat16"]})");
  ASSERT_EQ(alone.warnings.size(), 1u);
  EXPECT_NE(alone.warnings[0].find("\"dtypes\" has \"bfloat16\" but not \"float32\", which its rows ("), std::string::npos)
      << alone.warnings[0];
  EXPECT_NE(alone.warnings[0].find("no bfloat16 problem can be sent; declare \"float32\" too"), std::string::npos)
      << alone.warnings[0];
}

} // namespace
} // namespace convcheck
