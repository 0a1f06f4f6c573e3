// The oracle tests' main: gtest's, except that a process started as a oneDNN cap server
// (oracles/support/onednn_isa_server.hpp) serves instead, so tests can run oneDNN under any cap this host has.
#include <gtest/gtest.h>

#include "oracles/support/onednn_isa_server.hpp"

int main(int argc, char **argv) {
  if (const int served = convcheck::serve_onednn_isa_if_asked(); served >= 0) return served;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
