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
}

} // namespace
} // namespace convcheck
