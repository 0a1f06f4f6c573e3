#include "oracles/onednn/memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <oneapi/tbb/global_control.h>

namespace convcheck {

namespace {

std::atomic<pid_t> engine_made_by{0}; // the process that made the engine; 0 before

} // namespace

bool cpu_engine_usable_here() {
  const pid_t maker = engine_made_by.load();
  return maker == 0 || maker == getpid();
}

const dnnl::engine &cpu_engine() {
  static const dnnl::engine engine = [] {
    engine_made_by = getpid();
    // oneDNN's CPU runtime is SYCL (scripts/requirements/onednn.txt): its CPU device is Intel's OpenCL CPU runtime,
    // which the OpenCL loader finds only when named (the wheel's .icd file names a path of its build machine).
    setenv("OCL_ICD_FILENAMES", CONVCHECK_ONEDNN_OPENCL, 0);
    // One thread: cases run one at a time per worker process, one worker per core, so TBB's own threads would only
    // oversubscribe the cores (a 3-D deconv of benchdnn's lists took past the 60 s case timeout with two workers
    // of two threads each; measured). Held for the life of the process, as the engine is; the primitives are
    // also planned for one thread (one_thread_arena).
    static const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
    if (std::getenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY") == nullptr &&
        std::getenv("DNNL_PRIMITIVE_CACHE_CAPACITY") == nullptr)
      dnnl::set_primitive_cache_capacity(0);
    return dnnl::engine(dnnl::engine::kind::cpu, 0);
  }();
  return engine;
}

tbb::task_arena &one_thread_arena() {
  static tbb::task_arena arena(1);
  return arena;
}

dnnl::memory ThreadScratch::scratchpad(const dnnl::memory::desc &desc) {
  constexpr size_t largest_kept = size_t{64} << 20;
  size_ = desc.get_size();
  if (size_ > largest_kept) {
    oversize_ = onednn_memory::allocate<std::byte>(size_ + guard_bytes);
    guarded_ = oversize_.get();
  } else {
    oversize_.reset();
    if (!buffer_ || size_ > capacity_) {
      buffer_ = onednn_memory::allocate<std::byte>(size_ + guard_bytes);
      capacity_ = size_;
    }
    guarded_ = buffer_.get();
  }
  std::memset(guarded_ + size_, guard_value, guard_bytes);
  return dnnl::memory(desc, cpu_engine(), guarded_);
}

void ThreadScratch::check_guard() const {
  // Intact, as nearly always, when the first guard byte is right and each equals the next: one libc memcmp
  // (vectorized), rather than a byte-by-byte search from the end, after a kernel of a few microseconds.
  const std::byte *guard = guarded_ + size_;
  if (guard[0] == std::byte{guard_value} && std::memcmp(guard, guard + 1, guard_bytes - 1) == 0) return;
  size_t written = guard_bytes;
  while (written > 0 && guarded_[size_ + written - 1] == std::byte{guard_value}) --written;
  if (written > 0)
    throw OutOfBoundsWrite(fmt::format("onednn: the primitive wrote past the {}-byte scratchpad it asked for "
                                       "(guard bytes changed up to {} bytes past its end)",
                                       size_, written));
}

/// One guard element of `type`, little-endian: a quiet NaN after an input, a finite value nothing computes after a
/// result (float32 0xdf5eadbe, -0x1.5eadbep+61; bfloat16 0xdf5e; float16 0xdead, -0x1.ab4p+8).
GuardedMemory::Pattern GuardedMemory::pattern_of(dnnl::memory::data_type type, Guard guard) {
  const bool input = guard == Guard::input;
  uint32_t bits = 0;
  size_t size = 4;
  switch (type) {
  case dnnl::memory::data_type::bf16: size = 2, bits = input ? 0x7fc0 : 0xdf5e; break;
  case dnnl::memory::data_type::f16: size = 2, bits = input ? 0x7e00 : 0xdead; break;
  default: size = 4, bits = input ? 0x7fc00000 : 0xdf5eadbe; break;
  }
  Pattern pattern{{}, size};
  for (size_t i = 0; i < size; ++i) pattern.bytes[i] = std::byte((bits >> (8 * i)) & 0xff);
  return pattern;
}

GuardedMemory::GuardedMemory(const dnnl::memory::desc &desc, Guard guard)
    : size_(desc.get_size()), pattern_(pattern_of(desc.get_data_type(), guard)),
      buffer_(onednn_memory::allocate<std::byte>(size_ + guard_bytes)), memory_(desc, cpu_engine(), buffer_.get()) {
  // The first element, then doubling copies: a 2-byte memcpy per element is a libc call each, 2,048 per buffer, which
  // measured 7% of a oneDNN-only fuzz.
  std::byte *guards = buffer_.get() + size_;
  std::memcpy(guards, pattern_.bytes.data(), pattern_.size);
  for (size_t filled = pattern_.size; filled < guard_bytes; filled *= 2)
    std::memcpy(guards + filled, guards, std::min(filled, guard_bytes - filled));
}

void GuardedMemory::check(const char *what) const {
  const std::byte *guards = buffer_.get() + size_;
  if (std::memcmp(guards, pattern_.bytes.data(), pattern_.size) == 0 &&
      std::memcmp(guards, guards + pattern_.size, guard_bytes - pattern_.size) == 0)
    return; // as in check_guard
  for (size_t at = guard_bytes; at > 0; at -= pattern_.size)
    if (std::memcmp(guards + at - pattern_.size, pattern_.bytes.data(), pattern_.size) != 0)
      throw OutOfBoundsWrite(fmt::format("onednn: the primitive wrote past its {} ({} bytes; guard changed up to {} "
                                         "bytes past its end)",
                                         what, size_, at));
}

} // namespace convcheck
