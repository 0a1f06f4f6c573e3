#include "core/reference.hpp"

#include <cmath>

#include "core/naive_loops.hpp"
#include "core/tolerance.hpp"

namespace convcheck {

namespace {

// Accumulates in double, alongside each element's sum of |products| for its error bound (core/naive_loops.hpp's
// accumulator interface). The double result need not be bit-identical to any one order: the bound already allows
// the reference its own gamma(k, 2^-53) for any order, so the dot products may be vectorized.
struct BoundedAccumulator {
  double *value;
  double *abs_sum;

  void axpy(int64_t first, int64_t result_stride, const double *x, int64_t x_stride, double w, int64_t count) {
    double *v = value + first, *a = abs_sum + first;
    if (result_stride == 1 && x_stride == 1) {
#pragma omp simd
      for (int64_t j = 0; j < count; ++j) {
        const double product = x[j] * w;
        v[j] += product;
        a[j] += std::abs(product);
      }
      return;
    }
    for (int64_t j = 0; j < count; ++j) {
      const double product = x[j * x_stride] * w;
      v[j * result_stride] += product;
      a[j * result_stride] += std::abs(product);
    }
  }

  void dot(int64_t index, const double *x, const double *y, int64_t y_stride, int64_t count) {
    double sum = 0, magnitude = 0;
#pragma omp simd reduction(+ : sum, magnitude)
    for (int64_t j = 0; j < count; ++j) {
      const double product = x[j] * y[j * y_stride];
      sum += product;
      magnitude += std::abs(product);
    }
    value[index] += sum;
    abs_sum[index] += magnitude;
  }
};

// An input once: its values in double, and whether all of them are integers (for the exact-sum rule).
struct DoubleInput {
  Tensor values;
  bool integers = true;
};

DoubleInput to_double(const Tensor &tensor) {
  DoubleInput input{tensor.cast(DType::float64), true};
  const double *v = input.values.data<double>();
  for (int64_t i = 0, count = input.values.size(); i < count && input.integers; ++i)
    input.integers = v[i] == std::nearbyint(v[i]);
  return input;
}

// Runs one naive loop nest in double and turns the sums of |products| into bounds.
template <class Loop>
DirectionReference reference_for(const ConvConfig &config, Direction direction, const DoubleInput &a,
                                 const DoubleInput &b, Loop loop) {
  DirectionReference reference{Tensor(DType::float64, result_shape(config, direction)), {}};
  const int64_t count = reference.expected.size();
  reference.bound.assign(static_cast<size_t>(count), 0.0);
  BoundedAccumulator accumulator{reference.expected.data<double>(), reference.bound.data()};
  loop(config, a.values.data<double>(), b.values.data<double>(), accumulator);
  // bound[] held the sums of |products| until here.
  const TermCounts terms = term_counts(config, direction);
  ErrorBound bound(config.dtype, a.integers && b.integers);
  const auto rows = static_cast<int64_t>(terms.rows.size()), columns = static_cast<int64_t>(terms.columns.size());
  double *element = reference.bound.data();
  for (int64_t outer = 0; outer < count / (rows * columns); ++outer)
    for (int64_t y = 0; y < rows; ++y)
      for (int64_t x = 0; x < columns; ++x, ++element) *element = bound(*element, terms.at(y, x));
  return reference;
}

DirectionReference direction_reference(const ConvConfig &config, Direction direction, const DoubleInput &data,
                                       const DoubleInput &weight, const DoubleInput &grad_output) {
  switch (direction) {
  case Direction::output:
    return reference_for(config, direction, data, weight, [](auto &&...args) { naive_forward(args...); });
  case Direction::grad_data:
    return reference_for(config, direction, grad_output, weight, [](auto &&...args) { naive_grad_data(args...); });
  case Direction::grad_weight: break;
  }
  return reference_for(config, direction, grad_output, data, [](auto &&...args) { naive_grad_weight(args...); });
}

} // namespace

DirectionReference compute_reference(const ConvCase &c, Direction direction) {
  return direction_reference(c.config, direction, to_double(c.data), to_double(c.weight), to_double(c.grad_output));
}

Reference compute_reference(const ConvCase &c) {
  // Each input is widened (and checked for integers) once, not once per direction that reads it.
  const DoubleInput data = to_double(c.data), weight = to_double(c.weight), grad_output = to_double(c.grad_output);
  return Reference{{direction_reference(c.config, Direction::output, data, weight, grad_output),
                    direction_reference(c.config, Direction::grad_data, data, weight, grad_output),
                    direction_reference(c.config, Direction::grad_weight, data, weight, grad_output)}};
}

} // namespace convcheck
