// `naive`: the reference definition (core/naive_loops.hpp) accumulated in the case dtype rather than double, so
// it rounds like a straightforward float32 implementation and exercises the diff against the double reference.

#include "oracles/naive.hpp"

#include "core/naive_loops.hpp"
#include "core/strategy.hpp"

namespace convcheck {

namespace {

template <class T> struct PlainSum {
  T value{};
  void add(T a, T b) { value += a * b; }
};

template <class T> Tensor naive_typed(const ConvConfig &config, const ConvCase &c, Direction direction) {
  Tensor result(config.dtype, result_shape(config, direction));
  T *out = result.data<T>();
  auto emit = [out](int64_t i, const PlainSum<T> &sum) { out[i] = sum.value; };
  switch (direction) {
  case Direction::output:
    naive_forward<PlainSum<T>>(config, c.data.data<T>(), c.weight.data<T>(), emit);
    break;
  case Direction::grad_data:
    naive_grad_data<PlainSum<T>>(config, c.grad_output.data<T>(), c.weight.data<T>(), emit);
    break;
  case Direction::grad_weight:
    naive_grad_weight<PlainSum<T>>(config, c.grad_output.data<T>(), c.data.data<T>(), emit);
    break;
  }
  return result;
}

const Registration registration{{
    .name = "naive",
    .description = "direct definition loops accumulating in the case dtype; all configs, all directions",
    .run = [](const ConvCase &c, Direction direction) { return naive_result(c.config, c, direction); },
}};

} // namespace

Tensor naive_result(const ConvConfig &config, const ConvCase &conv_case, Direction direction) {
  return config.dtype == DType::float32 ? naive_typed<float>(config, conv_case, direction)
                                        : naive_typed<double>(config, conv_case, direction);
}

} // namespace convcheck
