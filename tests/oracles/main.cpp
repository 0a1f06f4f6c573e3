// The oracle tests' main: gtest's, except that a process started as a cap server (oneDNN's ISA caps,
// oracles/onednn/isa_server.hpp; ATen's capabilities, oracles/torch/capability_server.hpp) serves
// instead, so tests can run oneDNN and ATen under any cap this host has.
#include <gtest/gtest.h>

#include "oracles/onednn/isa_server.hpp"
#include "oracles/torch/capability_server.hpp"

int main(int argc, char **argv) {
  if (const int served = convcheck::serve_onednn_isa_if_asked(); served >= 0) return served;
  if (const int served = convcheck::serve_torch_capability_if_asked(); served >= 0) return served;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
