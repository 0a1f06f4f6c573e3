#include "core/reference.hpp"

#include <cmath>

#include "core/naive_loops.hpp"
#include "core/tolerance.hpp"

namespace convcheck {

namespace {

// Sums in double and keeps what the error bound needs.
struct BoundedSum {
  double value = 0;
  double abs_sum = 0;
  int64_t terms = 0;
  void add(double a, double b) {
    const double product = a * b;
    value += product;
    abs_sum += std::abs(product);
    ++terms;
  }
};

bool all_integers(const Tensor &tensor) {
  for (int64_t i = 0; i < tensor.size(); ++i) {
    const double value = tensor.get(i);
    if (value != std::nearbyint(value)) return false;
  }
  return true;
}

// Runs one naive loop nest in double and fills values and bounds.
template <class Loop>
DirectionReference reference_for(const ConvCase &conv_case, Direction direction, const Tensor &a, const Tensor &b,
                                 Loop loop) {
  const DType dtype = conv_case.config.dtype;
  const bool integer_inputs = all_integers(a) && all_integers(b);
  const Tensor a64 = a.cast(DType::float64), b64 = b.cast(DType::float64);
  DirectionReference reference{Tensor(DType::float64, result_shape(conv_case.config, direction)), {}};
  reference.bound.resize(static_cast<size_t>(reference.expected.size()));
  double *expected = reference.expected.data<double>();
  loop(conv_case.config, a64.data<double>(), b64.data<double>(), [&](int64_t i, const BoundedSum &sum) {
    expected[i] = sum.value;
    reference.bound[static_cast<size_t>(i)] = error_bound(sum.abs_sum, sum.terms, dtype, integer_inputs);
  });
  return reference;
}

} // namespace

DirectionReference compute_reference(const ConvCase &c, Direction direction) {
  switch (direction) {
  case Direction::output:
    return reference_for(c, direction, c.data, c.weight, [](auto &&...args) { naive_forward<BoundedSum>(args...); });
  case Direction::grad_data:
    return reference_for(c, direction, c.grad_output, c.weight,
                         [](auto &&...args) { naive_grad_data<BoundedSum>(args...); });
  case Direction::grad_weight:
    break;
  }
  return reference_for(c, direction, c.grad_output, c.data,
                       [](auto &&...args) { naive_grad_weight<BoundedSum>(args...); });
}

Reference compute_reference(const ConvCase &c) {
  return Reference{{compute_reference(c, Direction::output), compute_reference(c, Direction::grad_data),
                    compute_reference(c, Direction::grad_weight)}};
}

} // namespace convcheck
