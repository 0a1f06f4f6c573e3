#include "oracles/onednn/held_input.hpp"

namespace convcheck::onednn_internal {

HeldInput hold_data(const Tensor &canonical, DataLayout layout, const memory::desc &desc) {
  if (layout == DataLayout::ncx) return {canonical, desc};
  return {to_data_layout(canonical, layout), desc};
}

HeldInput hold_weight(const Tensor &canonical, WeightLayout layout, const memory::desc &desc) {
  if (layout == WeightLayout::oix) return {canonical, desc};
  return {to_weight_layout(canonical, layout), desc};
}

} // namespace convcheck::onednn_internal
