#pragma once
// Memory the onednn strategy hands oneDNN (oracles/onednn/onednn.cpp): the process's CPU engine, each thread's stream and
// scratchpad, and buffers of ours with guards after them, so that a kernel reading or writing past a buffer is a
// finding of its direction whatever the heap holds there (docs/findings.md has the two oneDNN 2.6 kernels that do).

#include <array>
#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>

#include <oneapi/dnnl/dnnl.hpp>
#include <oneapi/tbb/task_arena.h>

namespace convcheck {

/// One CPU engine for the process; creating it is costly and engines are safe to share between threads.
/// Creating it also turns oneDNN's primitive cache off (unless ONEDNN_PRIMITIVE_CACHE_CAPACITY says otherwise):
/// a fuzz case almost never repeats a shape, so the cache never hits, yet oneDNN 2.6 pays for it on every
/// primitive: hashing and a global lock on lookup, and once full (1024 entries) a scan of the whole cache for
/// the least recently used entry on every insertion. Off, oneDNN takes about half the time on the plain path and
/// two thirds on the blocked path (docs/performance.md, "Machine figures behind the code").
const dnnl::engine &cpu_engine();

/// False in a process forked after its parent made the engine: oneDNN 3.x's SYCL runtime keeps threads (its host-task
/// pool), which a fork does not copy, so the child's first primitive would wait forever. Such a process runs oneDNN
/// through a server (oracles/onednn/isa_server.hpp), a fresh process.
bool cpu_engine_usable_here();

/// A TBB arena of one thread, the one every oneDNN primitive is planned and run in: oneDNN 3.x sizes a kernel's work
/// split and scratchpad by tbb::this_task_arena::max_concurrency(), which a global_control limit does not lower, so
/// outside it a kernel was planned for the host's cores and run on one (measured: 2 planned on this 2-core host).
/// One worker per core runs one case at a time, so one thread, planned and run, is what every host sees alike.
tbb::task_arena &one_thread_arena();

/// A primitive wrote into the guard after one of its buffers: a finding for that direction alone.
struct OutOfBoundsWrite : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace onednn_memory {
inline constexpr std::align_val_t alignment{64}; // a cache line, as oneDNN aligns the memory it allocates
struct AlignedDelete {
  void operator()(void *pointer) const { ::operator delete(pointer, alignment); }
};
template <class T> using Buffer = std::unique_ptr<T, AlignedDelete>;
template <class T> Buffer<T> allocate(size_t count) {
  return Buffer<T>(static_cast<T *>(::operator new(count * sizeof(T), alignment)));
}
} // namespace onednn_memory

/// What a thread's cases share: the stream, and one scratchpad buffer grown to the largest a primitive asked for,
/// which saves an allocation and a free per direction. No kernel reads scratchpad it did not write: with the
/// buffer filled with NaNs before every execution, 34k results (4,300 configs, every path) stayed bit-identical.
/// The part a primitive asked for is followed by guard bytes, checked after it ran: a kernel that writes past its
/// scratchpad (oneDNN 2.6's jit_1x1 weight gradient does, docs/findings.md) would otherwise land in the slack of
/// a buffer sized for a larger primitive, where nobody sees it.
class ThreadScratch {
public:
  static ThreadScratch &current() {
    thread_local ThreadScratch state;
    return state;
  }

  dnnl::stream &stream() { return stream_; }

  /// Scratch memory for `desc`, valid until the next call on this thread, with fresh guard bytes after it. A rare
  /// huge one (im2col of a large config) gets memory of its own rather than being kept for the life of the worker.
  dnnl::memory scratchpad(const dnnl::memory::desc &desc);

  /// Throws OutOfBoundsWrite when the primitive that last ran on this thread wrote past the scratchpad it asked for.
  void check_guard() const;

private:
  static constexpr size_t guard_bytes = 4096;
  static constexpr unsigned char guard_value = 0xa5;

  ThreadScratch() : stream_(cpu_engine()) {}

  dnnl::stream stream_;
  onednn_memory::Buffer<std::byte> buffer_;
  size_t capacity_ = 0;
  onednn_memory::Buffer<std::byte> oversize_;
  std::byte *guarded_ = nullptr;
  size_t size_ = 0;
};

/// oneDNN memory on a buffer of ours followed by guard elements of the memory's data type (f32, bf16 or f16).
/// After an input they are quiet NaNs of that type: a kernel that reads past its end computes NaN into its result, a
/// finding whatever lies beyond (the heap there can hold zeros, which would hide it: oneDNN 2.6's jit weight gradient
/// of a crop reads a row past diff_dst, docs/findings.md). After a result they hold a finite pattern that no NaN or
/// computed value is likely to equal, and a kernel that writes past the end changes them (check). The guard starts
/// right after the last element, whatever its width, so a bf16 kernel reading one element too far reads a NaN.
/// Movable: the memory keeps pointing at the same buffer.
class GuardedMemory {
public:
  enum class Guard { input, result };

  GuardedMemory(const dnnl::memory::desc &desc, Guard guard);

  dnnl::memory get() const { return memory_; } // a handle to the same memory
  std::byte *data() { return buffer_.get(); }
  size_t size() const { return size_; } // the bytes oneDNN's descriptor covers

  /// Throws OutOfBoundsWrite, naming the buffer as `what`, when a guard byte is no longer what it was.
  void check(const char *what) const;

private:
  static constexpr size_t guard_bytes = 4096;

  /// One guard element (2 or 4 bytes), repeated after the buffer.
  struct Pattern {
    std::array<std::byte, 4> bytes;
    size_t size;
  };
  static Pattern pattern_of(dnnl::memory::data_type type, Guard guard);

  size_t size_;
  Pattern pattern_;
  onednn_memory::Buffer<std::byte> buffer_;
  dnnl::memory memory_;
};

} // namespace convcheck
