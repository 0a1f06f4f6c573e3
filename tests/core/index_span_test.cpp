#include "core/index_span.hpp"

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

} // namespace
} // namespace convcheck
