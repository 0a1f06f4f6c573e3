#pragma once
// convcheck's problems and tensors as the plugin ABI describes them (include/convcheck/plugin.h): the structs, with
// the memory they point to kept alive beside them.

#include <string>

#include "core/problem/direction.hpp"
#include "core/tensor/layout.hpp"
#include "core/tensor/tensor.hpp"
#include "include/convcheck/plugin.h"

namespace convcheck {

/// The problem, with the strings `abi` points to.
struct AbiProblem {
  explicit AbiProblem(const Problem &problem);
  AbiProblem(const AbiProblem &) = delete;
  AbiProblem &operator=(const AbiProblem &) = delete;
  std::string op, data_layout, weight_layout, descriptor;
  convcheck_problem abi{};
};

/// True for the roles laid out by the weight layout (weight, grad_weight); the others follow the data layout.
bool is_weight_role(Role role);

/// The permutation (core/tensor/layout.hpp) that lays a canonical tensor of `role` out as `problem` asks.
Permutation layout_of(const Problem &problem, Role role);

/// A canonical tensor of `role` laid out by `perm`, described for the ABI: `abi.data` is the tensor's own memory
/// when `perm` is the identity (then `held` is empty) and `held`, a permuted copy, otherwise. `abi.shape` stays in
/// canonical axis order; `abi.strides` say where each axis is in memory.
struct AbiTensor {
  AbiTensor(const Tensor &canonical, Role role, Permutation perm);
  AbiTensor(const AbiTensor &) = delete;
  AbiTensor &operator=(const AbiTensor &) = delete;
  Permutation perm;
  Tensor held;
  convcheck_tensor abi{};
};

} // namespace convcheck
