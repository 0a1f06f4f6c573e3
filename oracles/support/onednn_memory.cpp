#include "oracles/support/onednn_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace convcheck {

const dnnl::engine &cpu_engine() {
  static const dnnl::engine engine = [] {
    if (std::getenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY") == nullptr &&
        std::getenv("DNNL_PRIMITIVE_CACHE_CAPACITY") == nullptr)
      dnnl::set_primitive_cache_capacity(0);
    return dnnl::engine(dnnl::engine::kind::cpu, 0);
  }();
  return engine;
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

GuardedMemory::GuardedMemory(const dnnl::memory::desc &desc, float guard)
    : floats_((desc.get_size() + sizeof(float) - 1) / sizeof(float)), guard_(guard),
      buffer_(onednn_memory::allocate<float>(floats_ + guard_floats)), memory_(desc, cpu_engine(), buffer_.get()) {
  std::fill_n(buffer_.get() + floats_, guard_floats, guard_);
}

void GuardedMemory::check(const char *what) const {
  const float *guards = buffer_.get() + floats_; // bits compared, not floats: a NaN guard equals nothing
  if (std::memcmp(guards, &guard_, sizeof guard_) == 0 &&
      std::memcmp(guards, guards + 1, (guard_floats - 1) * sizeof(float)) == 0)
    return; // as in check_guard
  for (size_t i = guard_floats; i > 0; --i)
    if (std::memcmp(buffer_.get() + floats_ + i - 1, &guard_, sizeof guard_) != 0)
      throw OutOfBoundsWrite(fmt::format("onednn: the primitive wrote past its {} ({} bytes; guard changed up to {} "
                                         "bytes past its end)",
                                         what, floats_ * sizeof(float), i * sizeof(float)));
}

} // namespace convcheck
