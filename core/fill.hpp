#pragma once
// Deterministic inputs. Element i of tensor `role` in case `case_index` of a campaign seeded with `seed` is a
// pure function of (seed, case_index, role, i): a counter-based hash, not a stateful engine, so the values do
// not depend on the thread count or on the order cases are visited.
//
// Fill modes:
// - normal: standard normal floats, rounded to the case dtype;
// - exact:  small non-zero integers in [-m, m], m chosen from the config so that every sum of |products| stays below
//           2^24 (benchdnn's idea). Then any summation order is exact in float32 and strategies must agree
//           bit for bit (the tolerance sees integer inputs and drops its bound to zero);
// - mixed:  a case-dependent choice between the two.

#include <cstdint>
#include <string>

#include "core/conv_config.hpp"
#include "core/tensor.hpp"

namespace convcheck {

enum class FillMode { normal, exact, mixed };
enum class TensorRole { data = 1, weight = 2, grad_output = 3 };

std::string to_string(FillMode mode);
/// Throws InputError for anything but normal, exact or mixed.
FillMode parse_fill_mode(const std::string &text);

/// The mode a `mixed` campaign uses for this case (normal or exact); other modes are returned as they are.
FillMode resolve_fill_mode(FillMode mode, uint64_t seed, uint64_t case_index);

/// The largest integer magnitude exact fill uses for this config (between 1 and 4).
int64_t exact_fill_magnitude(const ConvConfig &config);

/// A tensor of `shape` in the config's dtype filled per `mode` (normal or exact).
Tensor fill_tensor(const ConvConfig &config, const Shape &shape, FillMode mode, uint64_t seed, uint64_t case_index,
                   TensorRole role);

/// SplitMix64 finaliser: a bijective 64-bit mix. Exposed for other deterministic choices (generators, mixed).
uint64_t mix64(uint64_t x);

} // namespace convcheck
