#include "core/numerics/reference.hpp"

#include <cmath>
#include <utility>

#include "core/numerics/naive_loops.hpp"
#include "core/numerics/tap_gemm.hpp"
#include "core/numerics/tolerance.hpp"

namespace convcheck {

namespace {

// Accumulates in double, alongside each element's sum of |products| for its error bound (core/numerics/naive_loops.hpp's
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

// An input once: its values in double, their absolute values (for the GEMMs of sums of |products|, when the
// problem takes that path), and whether all of them are integers (for the exact-sum rule).
struct DoubleInput {
  Tensor values;
  std::vector<double> magnitudes;
  bool integers = true;
};

DoubleInput to_double(const Tensor &tensor, bool with_magnitudes) {
  DoubleInput input{tensor.cast(DType::float64), {}, true};
  const double *v = input.values.data<double>();
  const int64_t count = input.values.size();
  for (int64_t i = 0; i < count && input.integers; ++i) input.integers = v[i] == std::nearbyint(v[i]);
  if (with_magnitudes) {
    input.magnitudes.resize(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) input.magnitudes[static_cast<size_t>(i)] = std::abs(v[i]);
  }
  return input;
}

// Runs one direction in double, by the GEMMs per tap (core/numerics/tap_gemm.hpp) where they pay off and by the
// naive loop nest elsewhere, and turns the sums of |products| into bounds.
template <class Loop>
DirectionReference reference_for(const Problem &problem, Direction direction, const DoubleInput &a,
                                 const DoubleInput &b, bool by_gemm, Loop loop) {
  DirectionReference reference{Tensor(DType::float64, result_shape(problem, direction)), {}};
  const int64_t count = reference.expected.size();
  reference.bound.assign(static_cast<size_t>(count), 0.0);
  if (by_gemm) {
    tap_gemm_direction(problem, direction, a.values.data<double>(), b.values.data<double>(), a.magnitudes.data(),
                       b.magnitudes.data(), reference.expected.data<double>(), reference.bound.data());
  } else {
    BoundedAccumulator accumulator{reference.expected.data<double>(), reference.bound.data()};
    loop(problem, a.values.data<double>(), b.values.data<double>(), accumulator);
  }
  // bound[] held the sums of |products| until here.
  const TermCounts terms = term_counts(problem, direction);
  ErrorBound bound(problem.precision.acc, result_dtype(problem, direction), a.integers && b.integers);
  const auto extent = [&](size_t axis) { return static_cast<int64_t>(terms.per_axis[axis].size()); };
  const int64_t depths = extent(0), rows = extent(1), columns = extent(2);
  double *element = reference.bound.data();
  double *value = reference.expected.data<double>();
  const bool ties = a.integers && b.integers; // only the exact-sum rule has ties to settle (tie_rounding)
  for (int64_t outer = 0; outer < count / (depths * rows * columns); ++outer)
    for (int64_t z = 0; z < depths; ++z)
      for (int64_t y = 0; y < rows; ++y)
        for (int64_t x = 0; x < columns; ++x, ++element, ++value) {
          const double tie = ties ? bound.tie_rounding(*element, *value) : std::nan("");
          if (std::isnan(tie)) *element = bound(*element, terms.at(z, y, x), *value);
          else *value = tie, *element = 0;
        }
  return reference;
}

// The naive loop nest of each direction, with the two inputs it reads (core/problem/direction.hpp).
DirectionReference direction_reference(const Problem &problem, Direction direction,
                                       const std::map<Role, DoubleInput> &inputs, bool by_gemm) {
  const DirectionInfo &d = info(direction);
  const DoubleInput &a = inputs.at(d.reads[0]), &b = inputs.at(d.reads[1]);
  switch (direction) {
  case Direction::output:
    return reference_for(problem, direction, a, b, by_gemm, [](auto &&...args) { naive_forward(args...); });
  case Direction::grad_data:
    return reference_for(problem, direction, a, b, by_gemm, [](auto &&...args) { naive_grad_data(args...); });
  case Direction::grad_weight: break;
  }
  return reference_for(problem, direction, a, b, by_gemm, [](auto &&...args) { naive_grad_weight(args...); });
}

bool uses_gemm(const Problem &problem, ReferencePath path) {
  return path == ReferencePath::gemm || (path == ReferencePath::automatic && tap_gemm_pays_off(problem));
}

std::map<Role, DoubleInput> widen_inputs(const Case &c, bool by_gemm) {
  std::map<Role, DoubleInput> inputs;
  for (Role role : input_roles) inputs.emplace(role, to_double(c[role], by_gemm));
  return inputs;
}

} // namespace

DirectionReference compute_reference(const Case &c, Direction direction, ReferencePath path) {
  // Another op is its equivalent conv with the roles exchanged (core/problem/op.hpp): the same sums, so the same
  // reference and bound.
  if (c.problem.op != Op::conv)
    return compute_reference(as_conv_case(c), conv_direction(c.problem.op, direction), path);
  const bool by_gemm = uses_gemm(c.problem, path);
  return direction_reference(c.problem, direction, widen_inputs(c, by_gemm), by_gemm);
}

Reference compute_reference(const Case &c) {
  if (c.problem.op != Op::conv) {
    Reference conv = compute_reference(as_conv_case(c));
    Reference reference;
    for (const DirectionInfo &d : directions(c.problem.op))
      reference.directions.emplace(d.direction,
                                   std::move(conv.directions.at(conv_direction(c.problem.op, d.direction))));
    return reference;
  }
  // Each input is widened (and checked for integers) once, not once per direction that reads it.
  const bool by_gemm = uses_gemm(c.problem, ReferencePath::automatic);
  const std::map<Role, DoubleInput> inputs = widen_inputs(c, by_gemm);
  Reference reference;
  for (const DirectionInfo &d : directions(c.problem.op))
    reference.directions.emplace(d.direction, direction_reference(c.problem, d.direction, inputs, by_gemm));
  return reference;
}

} // namespace convcheck
