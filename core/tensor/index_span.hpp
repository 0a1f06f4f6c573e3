#pragma once
// Which positions along one axis a convolution tap reads inside the input, and which taps read an input position:
// the loops that skip the padding work these out once per row or column instead of testing every tap.

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

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

/// For each input position along one axis, the (tap, output position) pairs that read it, in tap order: the
/// in = out*stride - pad + tap*dilation with an in-range out, for the loops that gather a data gradient. Flattened:
/// the pairs of position i are pairs[starts[i] .. starts[i + 1]).
struct TapReaders {
  std::vector<int64_t> starts;
  std::vector<std::pair<int64_t, int64_t>> pairs;
  /// The pairs that read input position `position`.
  [[gnu::always_inline]] std::span<const std::pair<int64_t, int64_t>> of(int64_t position) const {
    const auto first = static_cast<size_t>(starts[static_cast<size_t>(position)]);
    const auto last = static_cast<size_t>(starts[static_cast<size_t>(position + 1)]);
    return std::span(pairs).subspan(first, last - first);
  }
};

inline TapReaders tap_readers(int64_t in_size, int64_t taps, int64_t out_size, int64_t stride, int64_t pad,
                              int64_t dilation) {
  TapReaders result;
  result.starts.reserve(static_cast<size_t>(in_size + 1));
  for (int64_t in = 0; in < in_size; ++in) {
    result.starts.push_back(static_cast<int64_t>(result.pairs.size()));
    for (int64_t tap = 0; tap < taps; ++tap) {
      const int64_t scaled = in + pad - tap * dilation;
      if (scaled >= 0 && scaled % stride == 0 && scaled / stride < out_size)
        result.pairs.emplace_back(tap, scaled / stride);
    }
  }
  result.starts.push_back(static_cast<int64_t>(result.pairs.size()));
  return result;
}

} // namespace convcheck
