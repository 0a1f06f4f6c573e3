#pragma once
// Which positions along one axis a convolution tap reads inside the input: the loops that skip the padding
// work out that span once per row or column instead of testing every tap.

#include <cstdint>

namespace convcheck {

/// Indices j in [first, last).
struct IndexSpan {
  int64_t first = 0;
  int64_t last = 0;
  int64_t size() const { return last - first; }
};

/// The j in [0, count) with 0 <= offset + j*step < size, for step >= 1: a contiguous span, found by scanning
/// (count is a kernel or output extent, and this runs once per row, not per element).
inline IndexSpan in_range(int64_t offset, int64_t step, int64_t count, int64_t size) {
  IndexSpan span{count, count};
  for (int64_t j = 0; j < count; ++j) {
    const int64_t position = offset + j * step;
    if (position < 0) continue;
    if (position >= size) break;
    if (span.first == count) span.first = j;
    span.last = j + 1;
  }
  return span;
}

} // namespace convcheck
