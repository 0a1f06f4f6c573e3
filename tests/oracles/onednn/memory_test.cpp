// The guards after oneDNN's buffers (oracles/onednn/memory.hpp): untouched, they pass; a write anywhere in
// them, at the first guard element or the last, is an OutOfBoundsWrite naming the buffer and how far it reached.

#include "oracles/onednn/memory.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

dnnl::memory::desc elements(int64_t count, dnnl::memory::data_type type = dnnl::memory::data_type::f32) {
  return {{count}, type, dnnl::memory::format_tag::a};
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
  using Type = dnnl::memory::data_type;
  struct Format {
    Type type;
    size_t width;
  };
  for (const Format format : {Format{Type::f32, 4}, Format{Type::bf16, 2}, Format{Type::f16, 2}})
    for (GuardedMemory::Guard guard : {GuardedMemory::Guard::input, GuardedMemory::Guard::result})
      for (size_t past : {size_t{0}, 4096 / format.width - 1}) {
        GuardedMemory memory(elements(11, format.type), guard); // 11: an odd count of 2-byte elements
        const size_t size = 11 * format.width;
        std::memset(memory.data(), 0x3c, size); // the buffer itself is the primitive's to write
        EXPECT_EQ(error_of([&] { memory.check("dst"); }), "");
        std::byte &first = memory.data()[size + past * format.width]; // the first byte of guard element `past`
        first = ~first;
        EXPECT_EQ(error_of([&] { memory.check("dst"); }),
                  "onednn: the primitive wrote past its dst (" + std::to_string(size) +
                      " bytes; guard changed up to " + std::to_string(format.width * (past + 1)) +
                      " bytes past its end)");
      }
}

// An input's guard is a NaN of the buffer's own type from the very next element on: a bf16 or f16 kernel reading one
// element too far reads a NaN, not half of a float32 NaN (whose low half is 0).
TEST(OnednnMemory, InputGuardIsANanOfTheElementType) {
  using Type = dnnl::memory::data_type;
  const struct {
    Type type;
    uint32_t nan;
    size_t width;
  } formats[] = {{Type::f32, 0x7fc00000, 4}, {Type::bf16, 0x7fc0, 2}, {Type::f16, 0x7e00, 2}};
  for (const auto &format : formats) {
    GuardedMemory memory(elements(11, format.type), GuardedMemory::Guard::input);
    uint32_t next = 0;
    std::memcpy(&next, memory.data() + 11 * format.width, format.width);
    EXPECT_EQ(next, format.nan);
  }
}

TEST(OnednnMemory, ScratchpadGuardNamesAWritePastWhatWasAskedFor) {
  for (size_t past : {size_t{0}, size_t{4095}}) {
    ThreadScratch &scratch = ThreadScratch::current();
    const dnnl::memory memory = scratch.scratchpad(elements(25)); // 100 bytes
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
