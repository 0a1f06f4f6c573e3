#pragma once
// Compares a result against a reference, element by element under a per-element bound, or signal by signal
// under a bound on each signal's error norm (an FFT's error is spread over the signal). Knows nothing about
// convolution: callers hand it tensors and bounds. Like benchdnn, a pass on mostly-zero reference data is
// reported as weak (mistrusted), not as a plain pass.

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace convcheck {

/// A reference with more than this fraction of exact zeros cannot show most wrong answers.
inline constexpr double weak_zero_fraction = 0.5;

struct Diff {
  bool ok = false;
  std::string problem;            // one line when !ok: shape, NaN/Inf or the first element over its bound
  int64_t mismatches = 0;         // elements over their bound (or non-finite where the reference is finite)
  int64_t first_mismatch = -1;    // flat index, -1 if none
  double max_error = 0;           // max |got - expected|
  double max_ratio = 0;           // max |got - expected| / bound (inf where the bound is 0 and the error is not)
  double bound_at_max_ratio = 0;  // the bound of the element with the largest ratio
  double error_at_max_ratio = 0;  // and its error: what `repro` shows beside that bound
  double zero_fraction = 0;       // fraction of exact zeros in the reference
  bool weak() const { return ok && zero_fraction > weak_zero_fraction; }
};

/// Compares `got` with `expected` (same shape expected; any dtype) under `bound` (one entry per element).
Diff compare(const Tensor &got, const Tensor &expected, const std::vector<double> &bound);

/// The same under a normwise bound: each run of `signal_size` consecutive elements is a signal, passing when the
/// 2-norm of its error is within `signal_bound` (one entry per signal) and every element where the reference is
/// finite is finite. `max_ratio` and `bound_at_max_ratio` are the signals' (norm error / bound), `max_error` the
/// largest element error; the problem names the first signal over its bound and its largest element error.
Diff compare_signals(const Tensor &got, const Tensor &expected, int64_t signal_size,
                     const std::vector<double> &signal_bound);

/// Whether the shapes differ; if so `diff` says so, every element a mismatch.
bool shapes_differ(const Tensor &got, const Tensor &expected, Diff &diff);

/// "[n, c, h, w]" coordinates of a flat index in `shape`.
std::string format_index(const Shape &shape, int64_t flat_index);

} // namespace convcheck
