#include "oracles/loops/fft_engine.hpp"

#include <cmath>
#include <numbers>

namespace convcheck {

namespace {

using Complex = std::complex<float>;

int64_t power_of_two_at_least(int64_t n) {
  int64_t power = 1;
  while (power < n) power *= 2;
  return power;
}

// One radix-2 transform of `n` values `stride` apart.
void fft1(Complex *values, int64_t n, int64_t stride, bool inverse, std::vector<Complex> &line) {
  if (n == 1) return;
  line.resize(static_cast<size_t>(n));
  for (int64_t i = 0, j = 0; i < n; ++i) { // bit-reversed order
    line[static_cast<size_t>(j)] = values[i * stride];
    for (int64_t bit = n >> 1; (j ^= bit) < bit; bit >>= 1) {}
  }
  for (int64_t half = 1; half < n; half *= 2) {
    for (int64_t k = 0; k < half; ++k) {
      const double angle = (inverse ? 1.0 : -1.0) * std::numbers::pi * static_cast<double>(k) / static_cast<double>(half);
      const Complex twiddle(static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)));
      for (int64_t start = 0; start < n; start += 2 * half) {
        const Complex even = line[static_cast<size_t>(start + k)];
        const Complex odd = twiddle * line[static_cast<size_t>(start + k + half)];
        line[static_cast<size_t>(start + k)] = even + odd;
        line[static_cast<size_t>(start + k + half)] = even - odd;
      }
    }
  }
  const float scale = inverse ? 1.0f / static_cast<float>(n) : 1.0f; // a power of two: exact
  for (int64_t i = 0; i < n; ++i) values[i * stride] = line[static_cast<size_t>(i)] * scale;
}

// Where each position of a signal of `extent` lands in a transform of `length`, -1 for nowhere; per axis.
using Placement = std::array<std::vector<int64_t>, 3>;

int64_t wrap(int64_t j, int64_t length) { return ((j % length) + length) % length; }

// Calls visit(source index, block index) for each position of a signal that `place` puts somewhere (block index
// -1 where it puts it nowhere), in row-major order of the signal.
template <class Visit> void for_each_placed(const Placement &place, const Lengths &lengths, Visit visit) {
  const auto extent = [&](size_t a) { return static_cast<int64_t>(place[a].size()); };
  for (int64_t z = 0; z < extent(0); ++z)
    for (int64_t y = 0; y < extent(1); ++y)
      for (int64_t x = 0; x < extent(2); ++x) {
        const int64_t pz = place[0][static_cast<size_t>(z)], py = place[1][static_cast<size_t>(y)],
                      px = place[2][static_cast<size_t>(x)];
        const bool nowhere = pz < 0 || py < 0 || px < 0;
        visit((z * extent(1) + y) * extent(2) + x, nowhere ? -1 : (pz * lengths[1] + py) * lengths[2] + px);
      }
}

struct Spectra {
  Lengths lengths;
  int64_t area = 1;
  std::vector<Complex> values; // count x area

  Spectra(const Lengths &l, int64_t count) : lengths(l), area(l[0] * l[1] * l[2]), values(static_cast<size_t>(count * area)) {}
  Complex *at(int64_t index) { return values.data() + index * area; }

  // Signal `index` of `count` from `source` (each `extent`-sized), placed and transformed.
  template <class T> void load(int64_t index, const T *source, const Placement &place) {
    Complex *block = at(index);
    for_each_placed(place, lengths, [&](int64_t from, int64_t to) {
      if (to >= 0) block[to] += static_cast<float>(source[from]);
    });
    fft3(block, lengths, false);
  }
};

// The inverse transform of `sum` read at `place` into `out` (zero where nowhere).
void gather(std::vector<Complex> &sum, const Lengths &lengths, const Placement &place, float *out) {
  fft3(sum.data(), lengths, true);
  for_each_placed(place, lengths, [&](int64_t to, int64_t from) {
    out[to] = from < 0 ? 0.0f : sum[static_cast<size_t>(from)].real();
  });
}

} // namespace

void fft3(Complex *values, const Lengths &l, bool inverse) {
  std::vector<Complex> line;
  for (int64_t a = 0; a < l[0] * l[1]; ++a) fft1(values + a * l[2], l[2], 1, inverse, line);
  for (int64_t z = 0; z < l[0]; ++z)
    for (int64_t x = 0; x < l[2]; ++x) fft1(values + z * l[1] * l[2] + x, l[1], l[2], inverse, line);
  for (int64_t yx = 0; yx < l[1] * l[2]; ++yx) fft1(values + yx, l[0], l[1] * l[2], inverse, line);
}

Lengths fft_lengths(const Problem &p, const FftOptions &options) {
  Lengths lengths{};
  for (size_t a = 0; a < 3; ++a) {
    const SpatialAxis &axis = p.axes[a];
    lengths[a] = power_of_two_at_least(options.no_zero_pad ? axis.in : axis.in + axis.dilated_kernel() - 1);
  }
  return lengths;
}

Tensor fft_convolution(const Case &c, Direction direction, const FftOptions &options) {
  const Problem &p = c.problem;
  const Lengths lengths = fft_lengths(p, options);
  // Per axis: input positions in place, kernel taps at t*dilation, and output o at j = o*stride - pad_begin where
  // its window meets the input (-(dilated kernel - 1) <= j < in; elsewhere the output is padding only).
  Placement identity, taps, outputs;
  for (size_t a = 0; a < 3; ++a) {
    const SpatialAxis &axis = p.axes[a];
    for (int64_t i = 0; i < axis.in; ++i) identity[a].push_back(i);
    for (int64_t t = 0; t < axis.kernel; ++t) taps[a].push_back(wrap(t * axis.dilation, lengths[a]));
    for (int64_t o = 0; o < axis.out(); ++o) {
      const int64_t j = o * axis.stride - axis.pad_begin;
      outputs[a].push_back(j > -axis.dilated_kernel() && j < axis.in ? wrap(j, lengths[a]) : -1);
    }
  }
  const int64_t cg = p.in_channels_per_group(), kg = p.out_channels_per_group();
  const int64_t in_volume = p.in_volume(), out_volume = p.out_volume(), kernel_volume = p.kernel_volume();
  Tensor result(DType::float32, result_shape(p, direction));
  float *out = result.data<float>();
  const Tensor data = c[Role::data].cast(DType::float32), weight = c[Role::weight].cast(DType::float32),
               grad_output = c[Role::grad_output].empty() ? Tensor() : c[Role::grad_output].cast(DType::float32);
  Spectra first(lengths, 0), second(lengths, 0);
  std::vector<Complex> sum(static_cast<size_t>(first.area));
  auto accumulate = [&](const Complex *a, const Complex *b, bool conjugate) {
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += a[i] * (conjugate ? std::conj(b[i]) : b[i]);
  };
  switch (direction) {
  case Direction::output: { // correlation: X . conj(H)
    first = Spectra(lengths, p.batch * p.in_channels), second = Spectra(lengths, p.out_channels * cg);
    for (int64_t i = 0; i < p.batch * p.in_channels; ++i) first.load(i, data.data<float>() + i * in_volume, identity);
    for (int64_t i = 0; i < p.out_channels * cg; ++i) second.load(i, weight.data<float>() + i * kernel_volume, taps);
    for (int64_t n = 0; n < p.batch; ++n)
      for (int64_t k = 0; k < p.out_channels; ++k) {
        std::fill(sum.begin(), sum.end(), Complex());
        for (int64_t ci = 0; ci < cg; ++ci) accumulate(first.at(n * p.in_channels + k / kg * cg + ci), second.at(k * cg + ci), true);
        gather(sum, lengths, outputs, out + (n * p.out_channels + k) * out_volume);
      }
    break;
  }
  case Direction::grad_data: { // convolution of the upsampled grad_output with the kernel: U . H
    first = Spectra(lengths, p.batch * p.out_channels), second = Spectra(lengths, p.out_channels * cg);
    for (int64_t i = 0; i < p.batch * p.out_channels; ++i) first.load(i, grad_output.data<float>() + i * out_volume, outputs);
    for (int64_t i = 0; i < p.out_channels * cg; ++i) second.load(i, weight.data<float>() + i * kernel_volume, taps);
    for (int64_t n = 0; n < p.batch; ++n)
      for (int64_t i = 0; i < p.in_channels; ++i) {
        std::fill(sum.begin(), sum.end(), Complex());
        for (int64_t k = i / cg * kg; k < (i / cg + 1) * kg; ++k) accumulate(first.at(n * p.out_channels + k), second.at(k * cg + i % cg), false);
        gather(sum, lengths, identity, out + (n * p.in_channels + i) * in_volume);
      }
    break;
  }
  case Direction::grad_weight: { // correlation of the data with the upsampled grad_output: X . conj(U)
    first = Spectra(lengths, p.batch * p.in_channels), second = Spectra(lengths, p.batch * p.out_channels);
    for (int64_t i = 0; i < p.batch * p.in_channels; ++i) first.load(i, data.data<float>() + i * in_volume, identity);
    for (int64_t i = 0; i < p.batch * p.out_channels; ++i) second.load(i, grad_output.data<float>() + i * out_volume, outputs);
    for (int64_t k = 0; k < p.out_channels; ++k)
      for (int64_t ci = 0; ci < cg; ++ci) {
        std::fill(sum.begin(), sum.end(), Complex());
        for (int64_t n = 0; n < p.batch; ++n) accumulate(first.at(n * p.in_channels + k / kg * cg + ci), second.at(n * p.out_channels + k), true);
        gather(sum, lengths, taps, out + (k * cg + ci) * kernel_volume);
      }
    break;
  }
  }
  return result;
}

} // namespace convcheck
