#pragma once
// Keeps the pages oneDNN JIT-compiles its kernels into mapped and executable for the next kernel, instead of
// letting each kernel mmap, mprotect and munmap its own (oracles/onednn/code_pages.cpp says why and how).

#include <cstddef>

namespace convcheck {

/// What the pool has done in this process so far.
struct CodePageCounts {
  /// Code buffers oneDNN asked for that were served by an mmap: the pool's size.
  std::size_t mapped = 0;
  /// Code buffers oneDNN asked for that were served from the pool, with no system call.
  std::size_t reused = 0;
};

/// False when the pool is compiled out (under the sanitizers, which intercept mmap themselves) or libdnnl's code
/// was not found among the loaded libraries: oneDNN's own mmap, mprotect and munmap then run unchanged.
bool onednn_code_pages_enabled();

/// The counts so far, in this process (a forked worker inherits its parent's).
CodePageCounts onednn_code_page_counts();

} // namespace convcheck
