#include "core/tensor/index_span.hpp"

#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace convcheck {
namespace {

// The span is exactly the set of j whose position lands inside, whatever the offset, step and sizes.
RC_GTEST_PROP(IndexSpan, IsExactlyThePositionsInside, ()) {
  const auto offset = *rc::gen::inRange<int64_t>(-12, 12), step = *rc::gen::inRange<int64_t>(1, 5);
  const auto count = *rc::gen::inRange<int64_t>(0, 10), size = *rc::gen::inRange<int64_t>(1, 10);
  const IndexSpan span = in_range(offset, step, count, size);
  for (int64_t j = 0; j < count; ++j) {
    const bool inside = offset + j * step >= 0 && offset + j * step < size;
    RC_ASSERT(inside == (j >= span.first && j < span.last));
  }
  RC_ASSERT(span.size() >= 0);
}

// tap_readers lists exactly the (tap, output position) pairs whose tap lands on each input position, in tap order.
RC_GTEST_PROP(IndexSpan, TapReadersAreExactlyTheTapsThatLandOnEachPosition, ()) {
  const auto in_size = *rc::gen::inRange<int64_t>(1, 10), taps = *rc::gen::inRange<int64_t>(1, 5);
  const auto out_size = *rc::gen::inRange<int64_t>(1, 10), stride = *rc::gen::inRange<int64_t>(1, 4);
  const auto pad = *rc::gen::inRange<int64_t>(0, 4), dilation = *rc::gen::inRange<int64_t>(1, 4);
  const TapReaders readers = tap_readers(in_size, taps, out_size, stride, pad, dilation);
  RC_ASSERT(readers.starts.size() == static_cast<size_t>(in_size + 1));
  for (int64_t in = 0; in < in_size; ++in) {
    std::vector<std::pair<int64_t, int64_t>> expected;
    for (int64_t tap = 0; tap < taps; ++tap)
      for (int64_t out = 0; out < out_size; ++out)
        if (out * stride - pad + tap * dilation == in) expected.emplace_back(tap, out);
    const std::vector<std::pair<int64_t, int64_t>> got(
        readers.pairs.begin() + readers.starts[static_cast<size_t>(in)],
        readers.pairs.begin() + readers.starts[static_cast<size_t>(in + 1)]);
    RC_ASSERT(got == expected);
  }
}

} // namespace
} // namespace convcheck
