#pragma once
// What the injected special-value bugs share (issue 39): each reads a low-precision case's inputs or rounds its
// results in a way correct on every value normal and integer fills draw, wrong on one corner of the format that the
// special kinds of core/numerics/fill_special.hpp reach on purpose.

#include <cmath>
#include <vector>

#include "core/numerics/case.hpp"
#include "core/problem/precision_table.hpp"
#include "core/tensor/bfloat16.hpp"
#include "core/tensor/float16.hpp"
#include "oracles/inject/narrow_sums.hpp"

namespace convcheck {

/// The case with every bfloat16 or float16 input element x replaced by read(dtype, x): what a kernel that decodes
/// its inputs wrongly computes on.
template <class Read> Case with_inputs_read(const Case &c, Read read) {
  Case read_case{c.problem, {}, c.seed, c.case_index, c.fill, c.settings};
  for (Role role : input_roles) {
    Tensor tensor = c[role].clone();
    const DType dtype = tensor.dtype();
    if (dtype == DType::bfloat16 || dtype == DType::float16)
      for (int64_t i = 0; i < tensor.size(); ++i) tensor.set(i, read(dtype, tensor.get(i)));
    read_case[role] = std::move(tensor);
  }
  return read_case;
}

/// `direction` by the naive loops in float32, each result rounded to its format by round(dtype, float32 sum) where
/// that format is bfloat16 or float16 (round returns a value of it), by round to nearest even elsewhere.
template <class Round> Tensor with_results_rounded(const Case &c, Direction direction, Round round) {
  const Tensor sums = narrow_naive_float32(c, direction, kept, kept);
  const DType dtype = result_dtype(c.problem, direction);
  Tensor result = Tensor::uninitialized(dtype, sums.shape());
  const float *sum = sums.data<float>();
  const bool narrow = dtype == DType::bfloat16 || dtype == DType::float16;
  for (int64_t i = 0; i < result.size(); ++i) result.set(i, narrow ? round(dtype, sum[i]) : sum[i]);
  return result;
}

/// The neighbour of `value` (a non-zero value of bfloat16 or float16) one step toward zero.
inline double toward_zero(DType dtype, double value) {
  if (dtype == DType::bfloat16)
    return bfloat16::from_bits(static_cast<uint16_t>(bfloat16::from_double(value).bits - 1)).to_float();
  return float16::from_bits(static_cast<uint16_t>(float16::from_double(value).bits - 1)).to_float();
}

/// The rows storing bfloat16 or float16 somewhere.
inline std::vector<Precision> low_precision_rows() {
  std::vector<Precision> rows = precisions_storing(DType::bfloat16);
  for (const Precision &p : precisions_storing(DType::float16)) rows.push_back(p);
  return rows;
}

} // namespace convcheck
