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
  for (size_t i = guard_floats; i > 0; --i)
    if (std::memcmp(buffer_.get() + floats_ + i - 1, &guard_, sizeof guard_) != 0)
      throw OutOfBoundsWrite(fmt::format("onednn: the primitive wrote past its {} ({} bytes; guard changed up to {} "
                                         "bytes past its end)",
                                         what, floats_ * sizeof(float), i * sizeof(float)));
}

} // namespace convcheck
