// The Winograd bound (derivation: core/numerics/algorithm_bound.hpp and docs/bounds.md).

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/numerics/algorithm_bound.hpp"
#include "core/numerics/case.hpp"
#include "core/numerics/winograd.hpp"
#include "core/problem/op.hpp"
#include "core/problem/spelling.hpp"

namespace convcheck {

namespace {

// "F(4x4,3x3)" over the problem's own axes, with the points when they are not the default.
std::string spelled(const Problem &p, const std::array<WinogradAxis, 3> &axes, const Algorithm &algorithm) {
  std::vector<int64_t> ms, rs;
  for (size_t a = static_cast<size_t>(p.first_axis()); a < 3; ++a) ms.push_back(axes[a].m), rs.push_back(axes[a].r);
  auto number = [](int64_t v) { return std::to_string(v); };
  std::string text = fmt::format("winograd F({},{})", joined(ms, "x", number, ""), joined(rs, "x", number, ""));
  if (!algorithm.points.empty()) text += " points " + to_string(algorithm).substr(to_string(algorithm).rfind(':') + 1);
  return text;
}

// The largest intermediate of the magnitude run under every tile shift (m per transformed axis) and, for grad_data,
// of the transposed form too: wherever the tiles start, no intermediate of either form is larger.
double tilings_peak(const Case &c, Direction direction, const std::array<WinogradAxis, 3> &axes,
                    const CorrelationInputs<double> &inputs, size_t size) {
  const std::array<TransformSet<double>, 3> magnitudes = transform_set<double>(axes, /*absolute=*/true);
  std::optional<CorrelationInputs<double>> forward;
  if (direction == Direction::grad_data) forward = transposed_inputs<double>(c, /*absolute=*/true);
  std::vector<double> out(size);
  double peak = 0;
  WinogradOptions options;
  std::array<int64_t, 3> &shift = options.tile_shift;
  for (shift[0] = 0; shift[0] < axes[0].m; ++shift[0])
    for (shift[1] = 0; shift[1] < axes[1].m; ++shift[1])
      for (shift[2] = 0; shift[2] < axes[2].m; ++shift[2]) {
        winograd_correlate(inputs.shape, magnitudes, inputs.input.data(), inputs.weight.data(), out.data(), options, &peak);
        if (forward)
          winograd_transposed(forward->shape, magnitudes, forward->input.data(), forward->weight.data(), out.data(),
                              options, &peak);
      }
  return peak;
}

} // namespace

bool all_integers(const Tensor &tensor) {
  return visit_typed(tensor, [&](const auto *values) {
    for (int64_t i = 0; i < tensor.size(); ++i)
      if (values[i] != std::nearbyint(values[i])) return false;
    return true;
  });
}

AlgorithmBound winograd_bound(const Case &c, Direction direction, const Algorithm &algorithm,
                              const DirectionReference &reference) {
  const Problem &p = c.problem;
  if (const std::string refused = winograd_refusal(p, direction); !refused.empty())
    return {reference.bound, 0, {}, fmt::format("direct ({})", refused)};
  const std::array<WinogradAxis, 3> axes = winograd_axes(p, algorithm);
  const size_t size = reference.bound.size();
  AlgorithmBound bound{std::vector<double>(size), 0, {}, spelled(p, axes, algorithm)};
  // W_abs of the correlation (for grad_data: of grad_output with the flipped kernel) and of the transposed form,
  // each bounded over every tiling by its envelope.
  const CorrelationInputs<double> inputs = correlation_inputs<double>(c, direction, /*absolute=*/true);
  const std::vector<double> correlated =
      enveloped_correlation(inputs.shape, axes, false, inputs.input.data(), inputs.weight.data());
  std::vector<double> transposed;
  if (direction == Direction::grad_data)
    transposed = enveloped_correlation(inputs.shape, axes, true, inputs.input.data(), inputs.weight.data());
  // The effective number of terms k, the largest power of two dividing the denominators, how many products an
  // element mixes (for underflow), and whether every constant is exact. The transposed form adds the overlap-add of
  // the tiles an input falls in, ceil(alpha / m) per axis.
  double terms = static_cast<double>(inputs.shape.in_per_group) + 1, products = terms, overlaps = 1;
  int bits = 0;
  bool dyadic = true;
  for (const WinogradAxis &axis : axes) {
    if (axis.alpha == 1) continue;
    terms += 2.0 * static_cast<double>(axis.alpha + 1) + static_cast<double>(axis.r + 1);
    products *= static_cast<double>(axis.alpha * axis.alpha * axis.r);
    overlaps *= static_cast<double>((axis.alpha + axis.m - 1) / axis.m); // ceil(alpha / m)
    bits += axis.denominator_bits + 1; // +1: a factored transform may hold twice a row's value before halving
    dyadic = dyadic && axis.dyadic;
  }
  if (transposed.empty()) overlaps = 0; // the correlation has none
  else products *= overlaps;
  const DType store = result_dtype(p, direction), acc = p.precision.acc;
  const bool integers = all_integers(c[info(direction).reads[0]]) && all_integers(c[info(direction).reads[1]]);
  const double exact_limit = std::min(info(acc).exact_sum_limit, info(store).exact_sum_limit);
  // An element a tile computes directly (a partial tile) is within the direct bound: the bound is never below it.
  const std::vector<double> &direct = reference.bound;
  if (integers && dyadic && std::ldexp(tilings_peak(c, direction, axes, inputs, size), bits) <= exact_limit) {
    bound.element = direct; // zero where the direct sum is exact too
    bound.judged_under += " (exact: integer inputs and dyadic transforms)";
    return bound;
  }
  if (integers)
    bound.judged_under += dyadic ? " (exact fill: intermediates past the exact integer limit; its bound)"
                                 : " (exact fill: transforms not exact in the format; its bound)";
  const double u = std::max(info(acc).unit_roundoff, info(store).unit_roundoff), u64 = info(DType::float64).unit_roundoff;
  const double relative = 2 * (gamma_of(terms, u) + gamma_of(terms, u64));
  const double relative_transposed = 2 * (gamma_of(terms + overlaps, u) + gamma_of(terms + overlaps, u64));
  const double subnormal = std::max(info(acc).smallest_subnormal, info(store).smallest_subnormal);
  const double underflow = 2 * (products + terms + overlaps) * subnormal;
  for (size_t i = 0; i < size; ++i) {
    double element = relative * correlated[i];
    if (!transposed.empty()) element = std::max(element, relative_transposed * transposed[i]);
    bound.element[i] = std::max(element + underflow, direct[i]);
  }
  return bound;
}

AlgorithmBound algorithm_bound(const Case &c, Direction direction, const Algorithm &algorithm,
                               const DirectionReference &reference) {
  // The fast algorithms' bounds read a conv's tensors: another op's direction is its equivalent conv's (its data
  // gradient for a deconv's output: core/problem/op.hpp), on the same tensors, its result in the same element order.
  // Read as a conv, a deconv's weight and sizes were those of another problem: bounds of a conv-sized part of the
  // output (the rest left at the underflow term), and reads past the buffers where the groups' shapes differ.
  if (c.problem.op != Op::conv && (algorithm.kind == AlgorithmKind::winograd || algorithm.kind == AlgorithmKind::fft))
    return algorithm_bound(as_conv_case(c), conv_direction(c.problem.op, direction), algorithm, reference);
  // near_max inputs (core/numerics/fill_special.hpp) keep every direct sum finite, not a fast algorithm's transforms,
  // which add an input's own values up before any product: a correct FFT or Winograd may overflow its format there.
  if (c.special == FillSpecial::near_max &&
      (algorithm.kind == AlgorithmKind::winograd || algorithm.kind == AlgorithmKind::fft)) {
    AlgorithmBound bound{{}, 0, {}, to_string(algorithm), {}};
    bound.unjudgeable = "near_max inputs: a fast algorithm's transforms sum values near the format's largest finite, "
                        "which its bound does not cover";
    return bound;
  }
  switch (algorithm.kind) {
  case AlgorithmKind::direct: break;
  case AlgorithmKind::winograd: return winograd_bound(c, direction, algorithm, reference);
  case AlgorithmKind::fft: return fft_bound(c, direction);
  }
  if (algorithm.storage_sums) return storage_sums_bound(c, direction, reference, algorithm.sums_format);
  return {reference.bound, 0, {}, "direct"};
}

} // namespace convcheck
