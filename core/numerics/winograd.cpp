#include "core/numerics/winograd.hpp"

#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

// Exact rational arithmetic for building the transforms: the points are small rationals and alpha is at most 15,
// so numerators and denominators stay far inside 64 bits after each reduction.
struct Fraction {
  int64_t p = 0, q = 1;
  Fraction(int64_t numerator = 0, int64_t denominator = 1) : p(numerator), q(denominator) { reduce(); }
  void reduce() {
    if (q < 0) p = -p, q = -q;
    const int64_t d = std::gcd(p, q);
    if (d > 1) p /= d, q /= d;
  }
  friend Fraction operator+(Fraction a, Fraction b) { return {a.p * b.q + b.p * a.q, a.q * b.q}; }
  friend Fraction operator-(Fraction a, Fraction b) { return {a.p * b.q - b.p * a.q, a.q * b.q}; }
  friend Fraction operator*(Fraction a, Fraction b) { return {a.p * b.p, a.q * b.q}; }
  friend Fraction operator/(Fraction a, Fraction b) { return {a.p * b.q, a.q * b.p}; }
  double value() const { return static_cast<double>(p) / static_cast<double>(q); }
};

using Matrix = std::vector<std::vector<Fraction>>;

Matrix inverse(Matrix a) {
  const size_t n = a.size();
  Matrix inv(n, std::vector<Fraction>(n));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1;
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    while (a[pivot][col].p == 0) ++pivot; // distinct points: V is invertible
    std::swap(a[pivot], a[col]);
    std::swap(inv[pivot], inv[col]);
    const Fraction scale = a[col][col];
    for (size_t j = 0; j < n; ++j) a[col][j] = a[col][j] / scale, inv[col][j] = inv[col][j] / scale;
    for (size_t row = 0; row < n; ++row) {
      if (row == col || a[row][col].p == 0) continue;
      const Fraction factor = a[row][col];
      for (size_t j = 0; j < n; ++j) {
        a[row][j] = a[row][j] - factor * a[col][j];
        inv[row][j] = inv[row][j] - factor * inv[col][j];
      }
    }
  }
  return inv;
}

// V_k: alpha x k, evaluating a polynomial of degree k-1 at the finite points and taking its leading coefficient
// at infinity.
Matrix evaluation(const std::vector<Fraction> &points, size_t alpha, size_t k) {
  Matrix v(alpha, std::vector<Fraction>(k));
  for (size_t i = 0; i + 1 < alpha; ++i) {
    Fraction power = 1;
    for (size_t j = 0; j < k; ++j, power = power * points[i]) v[i][j] = power;
  }
  v[alpha - 1][k - 1] = 1;
  return v;
}

int denominator_bits(const Fraction &f) {
  int bits = 0;
  for (int64_t q = f.q; q > 1 && q % 2 == 0; q /= 2) ++bits;
  return bits;
}

} // namespace

WinogradAxis winograd_axis(int64_t m, int64_t r, const std::vector<Point> &given) {
  WinogradAxis axis;
  if (r == 1) return axis; // no transform along an axis of kernel 1
  axis.m = m, axis.r = r, axis.alpha = m + r - 1;
  const auto alpha = static_cast<size_t>(axis.alpha);
  const std::vector<Point> points = given.empty() ? lavin_gray_points(axis.alpha - 1) : given;
  if (points.size() != alpha - 1)
    throw InputError(fmt::format("winograd F({},{}) needs {} finite points, got {}", m, r, alpha - 1, points.size()));
  std::vector<Fraction> p;
  for (const Point &point : points) p.emplace_back(point.numerator, point.denominator);
  std::vector<Fraction> f(alpha, 1);
  for (size_t i = 0; i + 1 < alpha; ++i)
    for (size_t j = 0; j + 1 < alpha; ++j)
      if (j != i) f[i] = f[i] * (p[i] - p[j]);
  const Matrix vm = evaluation(p, alpha, static_cast<size_t>(m)), vr = evaluation(p, alpha, static_cast<size_t>(r));
  const Matrix v_inverse = inverse(evaluation(p, alpha, alpha));
  auto keep = [&](std::vector<double> &into, const Fraction &entry) {
    into.push_back(entry.value());
    axis.denominator_bits = std::max(axis.denominator_bits, denominator_bits(entry));
    const bool power_of_two = (entry.q & (entry.q - 1)) == 0;
    const bool in_float = static_cast<double>(static_cast<float>(entry.value())) == entry.value();
    axis.dyadic = axis.dyadic && power_of_two && in_float;
  };
  for (size_t i = 0; i < static_cast<size_t>(m); ++i)
    for (size_t j = 0; j < alpha; ++j) keep(axis.at, vm[j][i]);
  for (size_t j = 0; j < alpha; ++j)
    for (size_t t = 0; t < static_cast<size_t>(r); ++t) keep(axis.g, vr[j][t] / f[j]);
  for (size_t j = 0; j < alpha; ++j)
    for (size_t i = 0; i < alpha; ++i) keep(axis.bt, f[j] * v_inverse[i][j]);
  return axis;
}

std::string winograd_refusal(const Problem &problem, Direction direction) {
  if (direction == Direction::grad_weight) return "winograd computes output and grad_data, not grad_weight";
  for (const SpatialAxis &axis : problem.axes)
    if (axis.stride != 1 || (axis.kernel > 1 && axis.dilation != 1))
      return fmt::format("winograd takes stride 1 and dilation 1 on an axis of kernel {} (stride {}, dilation {})",
                         axis.kernel, axis.stride, axis.dilation);
  return "";
}

std::array<WinogradAxis, 3> winograd_axes(const Problem &problem, const Algorithm &algorithm) {
  std::array<WinogradAxis, 3> axes;
  for (size_t a = 0; a < 3; ++a) {
    const int64_t r = problem.axes[a].kernel;
    axes[a] = winograd_axis(r == 1 ? 1 : algorithm.tile, r, r == 1 ? std::vector<Point>{} : algorithm.points);
  }
  return axes;
}

template <class T>
std::array<TransformSet<T>, 3> transform_set(const std::array<WinogradAxis, 3> &axes, bool absolute) {
  std::array<TransformSet<T>, 3> sets;
  auto convert = [&](const std::vector<double> &from) {
    std::vector<T> to;
    for (double value : from) to.push_back(static_cast<T>(absolute ? std::abs(value) : value));
    return to;
  };
  for (size_t a = 0; a < 3; ++a) {
    const WinogradAxis &axis = axes[a];
    sets[a] = {axis.m, axis.r, axis.alpha, convert(axis.at), convert(axis.g), convert(axis.bt)};
    if (axis.alpha == 1) sets[a].at = sets[a].g = sets[a].bt = {T(1)};
  }
  return sets;
}

namespace {

template <class T> std::vector<T> widened(const Tensor &tensor, bool absolute) {
  std::vector<T> values(static_cast<size_t>(tensor.size()));
  visit_typed(tensor, [&](const auto *v) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<T>(absolute ? std::abs(v[i]) : v[i]);
  });
  return values;
}

Correlation correlation_shape(const Problem &p, Direction direction) {
  Correlation s;
  const bool forward = direction == Direction::output;
  s.batch = p.batch, s.groups = p.groups;
  s.in_per_group = forward ? p.in_channels_per_group() : p.out_channels_per_group();
  s.out_per_group = forward ? p.out_channels_per_group() : p.in_channels_per_group();
  for (size_t a = 0; a < 3; ++a) {
    const SpatialAxis &axis = p.axes[a];
    s.kernel[a] = axis.kernel;
    s.in[a] = forward ? axis.in : axis.out();
    s.out[a] = forward ? axis.out() : axis.in;
    // grad_data[h] = sum_t grad_output[h + pad_begin - t] w[t] = sum_t' grad_output[h - (r-1-pad_begin) + t'] w[r-1-t']
    s.pad_begin[a] = forward ? axis.pad_begin : axis.kernel - 1 - axis.pad_begin;
  }
  return s;
}

} // namespace

template <class T>
CorrelationInputs<T> correlation_inputs(const Case &c, Direction direction, bool absolute) {
  const Problem &p = c.problem;
  CorrelationInputs<T> inputs;
  inputs.shape = correlation_shape(p, direction);
  const bool forward = direction == Direction::output;
  auto widen = [&](const Tensor &tensor) { return widened<T>(tensor, absolute); };
  inputs.input = widen(c[forward ? Role::data : Role::grad_output]);
  std::vector<T> weight = widen(c[Role::weight]);
  if (forward) {
    inputs.weight = std::move(weight);
    return inputs;
  }
  // [K][C/G][taps] -> [C][K/G][flipped taps]
  const int64_t kg = p.out_channels_per_group(), cg = p.in_channels_per_group(), taps = p.kernel_volume();
  inputs.weight.resize(weight.size());
  for (int64_t k = 0; k < p.out_channels; ++k)
    for (int64_t ci = 0; ci < cg; ++ci) {
      const int64_t g = k / kg, i = g * cg + ci, ko = k % kg;
      const T *from = weight.data() + (k * cg + ci) * taps;
      T *to = inputs.weight.data() + (i * kg + ko) * taps;
      for (int64_t t = 0; t < taps; ++t) to[taps - 1 - t] = from[t]; // flipping every axis reverses the flat order
    }
  return inputs;
}

template <class T> CorrelationInputs<T> transposed_inputs(const Case &c, bool absolute) {
  return {correlation_shape(c.problem, Direction::output), widened<T>(c[Role::grad_output], absolute),
          widened<T>(c[Role::weight], absolute)};
}

template std::array<TransformSet<float>, 3> transform_set(const std::array<WinogradAxis, 3> &, bool);
template std::array<TransformSet<double>, 3> transform_set(const std::array<WinogradAxis, 3> &, bool);
template CorrelationInputs<float> correlation_inputs(const Case &, Direction, bool);
template CorrelationInputs<double> correlation_inputs(const Case &, Direction, bool);
template CorrelationInputs<float> transposed_inputs(const Case &, bool);
template CorrelationInputs<double> transposed_inputs(const Case &, bool);

} // namespace convcheck
