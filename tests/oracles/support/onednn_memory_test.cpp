// The guards after oneDNN's buffers (oracles/support/onednn_memory.hpp): untouched, they pass; a write anywhere in
// them, at the first guard element or the last, is an OutOfBoundsWrite naming the buffer and how far it reached.

#include "oracles/support/onednn_memory.hpp"

#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

dnnl::memory::desc floats(int64_t count) {
  return {{count}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a};
}

std::string error_of(const auto &check) {
  try {
    check();
  } catch (const OutOfBoundsWrite &error) {
    return error.what();
  }
  return "";
}

TEST(OnednnMemory, GuardedMemoryNamesAWritePastItsEnd) {
  for (float guard : {GuardedMemory::input_guard, GuardedMemory::result_guard}) {
    for (size_t past : {size_t{0}, size_t{1023}}) {
      GuardedMemory memory(floats(10), guard);
      std::fill_n(memory.data(), 10, 1.0f); // the buffer itself is the primitive's to write
      EXPECT_EQ(error_of([&] { memory.check("dst"); }), "");
      memory.data()[10 + past] = 0.0f;
      EXPECT_EQ(error_of([&] { memory.check("dst"); }),
                "onednn: the primitive wrote past its dst (40 bytes; guard changed up to " +
                    std::to_string(4 * (past + 1)) + " bytes past its end)");
    }
  }
}

TEST(OnednnMemory, ScratchpadGuardNamesAWritePastWhatWasAskedFor) {
  for (size_t past : {size_t{0}, size_t{4095}}) {
    ThreadScratch &scratch = ThreadScratch::current();
    const dnnl::memory memory = scratch.scratchpad(floats(25)); // 100 bytes
    auto *bytes = static_cast<unsigned char *>(memory.get_data_handle());
    std::memset(bytes, 0, 100);
    EXPECT_EQ(error_of([&] { scratch.check_guard(); }), "");
    bytes[100 + past] = 0;
    EXPECT_EQ(error_of([&] { scratch.check_guard(); }),
              "onednn: the primitive wrote past the 100-byte scratchpad it asked for (guard bytes changed up to " +
                  std::to_string(past + 1) + " bytes past its end)");
  }
}

} // namespace
} // namespace convcheck
