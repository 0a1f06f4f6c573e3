// The FFT bound, normwise per output signal (derivation: core/numerics/algorithm_bound.hpp and docs/bounds.md).
//
// The transform length L is not known from outside: an implementation pads each axis to at least
// in + pad_begin + pad_end + dilated kernel - 1 to avoid wrap-around. The bound takes twice the power of two
// over that per axis (an implementation padding further than that is outside it), and L = 1 on an axis where
// input, kernel and output are all 1 (nothing to transform).

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "core/numerics/algorithm_bound.hpp"

namespace convcheck {

namespace {

// The 2-norm of each run of `size` consecutive elements of `tensor`.
std::vector<double> signal_norms(const Tensor &tensor, int64_t size) {
  std::vector<double> norms(static_cast<size_t>(tensor.size() / size));
  visit_typed(tensor, [&](const auto *values) {
    for (size_t s = 0; s < norms.size(); ++s) {
      double sum = 0;
      for (int64_t i = 0; i < size; ++i) {
        const double v = static_cast<double>(values[static_cast<int64_t>(s) * size + i]);
        sum += v * v;
      }
      norms[s] = std::sqrt(sum);
    }
  });
  return norms;
}

int64_t power_of_two_at_least(int64_t n) {
  int64_t power = 1;
  while (power < n) power *= 2;
  return power;
}

} // namespace

AlgorithmBound fft_bound(const Case &c, Direction direction) {
  const Problem &p = c.problem;
  const int64_t cg = p.in_channels_per_group(), kg = p.out_channels_per_group();
  const int64_t in_volume = p.in_volume(), out_volume = p.out_volume(), taps = p.kernel_volume();
  AlgorithmBound bound{{}, 0, {}, "fft (normwise per signal)"};
  if (all_integers(c[info(direction).reads[0]]) && all_integers(c[info(direction).reads[1]]))
    bound.judged_under += " (exact fill: the FFT is not exact; its bound)";
  // sum_c ||x_c|| ||h_c|| per output signal, and how many pairs it sums.
  int64_t pairs = 0;
  switch (direction) {
  case Direction::output: {
    const std::vector<double> x = signal_norms(c[Role::data], in_volume), h = signal_norms(c[Role::weight], taps);
    bound.signal_size = out_volume, pairs = cg;
    for (int64_t n = 0; n < p.batch; ++n)
      for (int64_t k = 0; k < p.out_channels; ++k) {
        double sum = 0;
        for (int64_t ci = 0; ci < cg; ++ci)
          sum += x[static_cast<size_t>(n * p.in_channels + k / kg * cg + ci)] * h[static_cast<size_t>(k * cg + ci)];
        bound.signal.push_back(sum);
      }
    break;
  }
  case Direction::grad_data: {
    const std::vector<double> x = signal_norms(c[Role::grad_output], out_volume),
                              h = signal_norms(c[Role::weight], taps);
    bound.signal_size = in_volume, pairs = kg;
    for (int64_t n = 0; n < p.batch; ++n)
      for (int64_t i = 0; i < p.in_channels; ++i) {
        double sum = 0;
        for (int64_t k = i / cg * kg; k < (i / cg + 1) * kg; ++k)
          sum += x[static_cast<size_t>(n * p.out_channels + k)] * h[static_cast<size_t>(k * cg + i % cg)];
        bound.signal.push_back(sum);
      }
    break;
  }
  case Direction::grad_weight: {
    const std::vector<double> x = signal_norms(c[Role::grad_output], out_volume),
                              h = signal_norms(c[Role::data], in_volume);
    bound.signal_size = taps, pairs = p.batch;
    for (int64_t k = 0; k < p.out_channels; ++k)
      for (int64_t ci = 0; ci < cg; ++ci) {
        double sum = 0;
        for (int64_t n = 0; n < p.batch; ++n)
          sum += x[static_cast<size_t>(n * p.out_channels + k)] *
                 h[static_cast<size_t>(n * p.in_channels + k / kg * cg + ci)];
        bound.signal.push_back(sum);
      }
    break;
  }
  }
  double length = 1, levels = 0;
  for (const SpatialAxis &axis : p.axes) {
    if (axis.in == 1 && axis.kernel == 1 && axis.out() == 1) continue;
    const int64_t l = 2 * power_of_two_at_least(axis.in + std::abs(axis.pad_begin) + std::abs(axis.pad_end) +
                                                axis.dilated_kernel() - 1);
    length *= static_cast<double>(l);
    levels += std::log2(static_cast<double>(l));
  }
  const DType store = result_dtype(p, direction), acc = p.precision.acc;
  const double u = std::max(info(acc).unit_roundoff, info(store).unit_roundoff);
  const double eta = u + gamma_of(4, u) * (std::numbers::sqrt2 + u);
  const double eps = levels * eta < 1 ? levels * eta / (1 - levels * eta) : std::numeric_limits<double>::infinity();
  const double e1 = (1 + eps) * (1 + eps) * (1 + std::numbers::sqrt2 * gamma_of(2, u)) *
                        (1 + gamma_of(static_cast<double>(pairs), u)) - 1;
  const double relative = 2 * (e1 + eps + eps * e1 + u) * std::sqrt(length);
  const double underflow = 2 * length * static_cast<double>(pairs + 1) *
                           std::max(info(acc).smallest_subnormal, info(store).smallest_subnormal);
  for (double &signal : bound.signal) signal = relative * signal + underflow;
  return bound;
}

} // namespace convcheck
