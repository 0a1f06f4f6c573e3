#include "oracles/outside/plugin_abi.hpp"

#include "core/problem/descriptor.hpp"

namespace convcheck {

AbiProblem::AbiProblem(const Problem &p)
    : op(to_string(p.op)), data_layout(to_string(p.data_layout, p.ndims)), weight_layout(to_string(p.weight_layout, p.ndims)),
      descriptor(format_descriptor(p)) {
  // Format names come from core/problem/dtype.hpp's table, which lives as long as the program.
  abi = convcheck_problem{op.c_str(), static_cast<int32_t>(p.ndims), p.batch, p.groups, p.in_channels, p.out_channels,
                          {}, {}, {}, {}, {}, {}, {}, data_layout.c_str(), weight_layout.c_str(),
                          info(p.precision.src).name, info(p.precision.weight).name, info(p.precision.dst).name,
                          info(p.precision.acc).name, descriptor.c_str(), {}};
  for (int64_t axis = p.first_axis(), i = 0; axis < max_ndims; ++axis, ++i) {
    const SpatialAxis &a = p.axes[static_cast<size_t>(axis)];
    abi.in_size[i] = a.in, abi.out_size[i] = p.out_size(axis), abi.kernel_size[i] = a.kernel, abi.stride[i] = a.stride;
    abi.dilation[i] = a.dilation, abi.pad_begin[i] = a.pad_begin, abi.pad_end[i] = a.pad_end;
    abi.output_padding[i] = a.output_padding;
  }
}

bool is_weight_role(Role role) { return role == Role::weight || role == Role::grad_weight; }

Permutation layout_of(const Problem &problem, Role role) {
  const auto rank = static_cast<size_t>(problem.ndims + 2);
  return is_weight_role(role) ? weight_permutation(problem.weight_layout, rank)
                              : data_permutation(problem.data_layout, rank);
}

AbiTensor::AbiTensor(const Tensor &canonical, Role role, Permutation permutation) : perm(std::move(permutation)) {
  const Shape &shape = canonical.shape();
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int>(i);
  const Tensor *laid_out = &canonical;
  if (!identity) laid_out = &(held = permute(canonical, perm));
  abi = convcheck_tensor{info(role).name, info(canonical.dtype()).name, static_cast<int32_t>(shape.size()), {}, {},
                         nullptr};
  // The ABI's inputs are read only; its data pointer is not const so that one struct serves results too.
  abi.data = visit_typed(const_cast<Tensor &>(*laid_out), [](auto *data) { return static_cast<void *>(data); });
  // Row-major strides of the laid-out tensor, whose axis j is canonical axis perm[j].
  int64_t stride = 1;
  for (size_t j = shape.size(); j-- > 0;) {
    const auto axis = static_cast<size_t>(perm[j]);
    abi.shape[axis] = shape[axis];
    abi.strides[axis] = stride;
    stride *= shape[axis];
  }
}

} // namespace convcheck
