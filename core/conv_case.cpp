#include "core/conv_case.hpp"

namespace convcheck {

ConvCase make_case(const ConvConfig &config, FillMode fill, uint64_t seed, uint64_t case_index) {
  const FillMode resolved = resolve_fill_mode(fill, seed, case_index);
  auto make = [&](const Shape &shape, TensorRole role) {
    return fill_tensor(config, shape, resolved, seed, case_index, role);
  };
  return ConvCase{config,
                  make(config.data_shape(), TensorRole::data),
                  make(config.weight_shape(), TensorRole::weight),
                  make(config.output_shape(), TensorRole::grad_output),
                  seed,
                  case_index,
                  resolved};
}

Shape result_shape(const ConvConfig &config, Direction direction) {
  switch (direction) {
  case Direction::output: return config.output_shape();
  case Direction::grad_data: return config.data_shape();
  case Direction::grad_weight: return config.weight_shape();
  }
  return {};
}

} // namespace convcheck
