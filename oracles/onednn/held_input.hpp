#pragma once
// The inputs of the `onednn` strategy (oracles/onednn/onednn.cpp): a case's canonical tensors as the user hands them to
// oneDNN, in the layout held on the case's path, and their reorders into the layouts the primitives chose.

#include <cassert>
#include <cstring>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/tensor/layout.hpp"
#include "core/tensor/tensor.hpp"
#include "oracles/onednn/descs.hpp"
#include "oracles/onednn/memory.hpp"

namespace convcheck::onednn_internal {

/// A canonical input as the user hands it to oneDNN, in the held layout, on guarded memory; and its reorders into
/// the layouts the primitives chose (guarded too), each made once per case however many directions read it.
class HeldInput {
public:
  HeldInput(const Tensor &held, const memory::desc &desc) : user_(desc, GuardedMemory::Guard::input) {
    assert(held.byte_size() == user_.size()); // the same format (onednn_type) and a plain layout
    std::memcpy(user_.data(), held.bytes(), held.byte_size());
  }

  /// The memory a primitive reads: the user's buffer when oneDNN chose its layout, else a reorder of it.
  memory as(const memory::desc &wanted, dnnl::stream &stream) {
    if (user_.get().get_desc() == wanted) return user_.get();
    for (const GuardedMemory &converted : converted_)
      if (converted.get().get_desc() == wanted) return converted.get();
    memory from = user_.get(), converted = converted_.emplace_back(wanted, GuardedMemory::Guard::input).get();
    dnnl::reorder(from, converted).execute(stream, from, converted);
    return converted;
  }

private:
  GuardedMemory user_;
  std::vector<GuardedMemory> converted_;
};

/// Canonical data (or grad_output) held in `layout`.
HeldInput hold_data(const Tensor &canonical, DataLayout layout, const memory::desc &desc);

/// A canonical weight held in `layout`.
HeldInput hold_weight(const Tensor &canonical, WeightLayout layout, const memory::desc &desc);

/// A case's three inputs on one path.
struct HeldInputs {
  HeldInput data, weight, grad_output;
};

} // namespace convcheck::onednn_internal
