#pragma once
// A smaller problem's inputs taken from a failing case's where the shapes allow (issue 39). A failure that rides on
// one input value (a float16 subnormal that normal fill draws in about 5 elements of 100,000, at a fixed position)
// is on no other draw of a smaller problem's inputs; carried over, it stays while the smaller tensor's window still
// holds it. Each tensor keeps a window of the source's: the element at multi-index i is the source's at i + offset,
// the offset per dimension 0 (the window at the start) or the extent lost (at the end), so halving an extent keeps
// either half, and a shrink that halves each dimension in turn can close in on any one element. Elements past the
// source's extent (an extent that grew) keep their own draw.

#include "core/numerics/case.hpp"

namespace convcheck {

/// Where the window of a smaller tensor sits in its source: at the start of each dimension, or at its end.
enum class Anchor { start, end };

/// `own` (a tensor of the smaller problem, freshly drawn) with each element whose shifted multi-index lies inside
/// `source` taken from it; `own` unchanged when the ranks or formats differ.
Tensor carried(const Tensor &source, Tensor own, Anchor anchor);

/// `own` (a case of a smaller problem) with every input carried from `source`'s.
Case carried_inputs(const Case &source, Case own, Anchor anchor);

} // namespace convcheck
