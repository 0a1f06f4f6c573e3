#pragma once
// Number formats, one row each in dtype_table(): everything that depends on a format (the error bound, the fill,
// case files, descriptors, strategies' support) reads its row instead of switching on the format. Adding a
// format is adding a row here, its storage type in core/tensor/ and one case in core/tensor/element.hpp's dispatch.

#include <cstdint>
#include <span>
#include <string>

namespace convcheck {

/// The order is the order of the table (and of stored statistics): new formats go last.
enum class DType { float32, float64, bfloat16, float16 };

struct DTypeInfo {
  DType dtype;
  const char *name;       ///< "float32": case files, reports, the CLI
  const char *word;       ///< "f32": the descriptor word
  double unit_roundoff;   ///< u: half the distance from 1 to the next number (2^-24 for float32)
  double smallest_normal; ///< 2^-126 for float32
  double smallest_subnormal; ///< what one product may lose to underflow
  double exact_sum_limit; ///< the largest integer up to which every integer is representable (2^24): integer
                          ///< sums of |products| up to it are exact in any order
  int file_bits;          ///< stored in case files as the IEEE little-endian binary float of this width, which holds
                          ///< every value exactly (bfloat16 as binary32: numpy, hence h5py, has no bfloat16)
  int64_t max_exact_fill; ///< the largest magnitude exact fill draws for this format (core/numerics/fill.hpp): for
                          ///< bfloat16 and float16 their whole exact integer range, so that sums leave it
  double largest_finite;  ///< 65504 for float16
  bool accumulates;       ///< usable as the accumulation format (bfloat16 and float16 are storage formats only)
};

/// Every format, in a fixed order (the order of DType).
std::span<const DTypeInfo> dtype_table();

/// The row of `dtype`.
const DTypeInfo &info(DType dtype);

/// "float32".
std::string to_string(DType dtype);

/// A format by its name or word, case-insensitive ("float32", "f32"); throws InputError naming `what` otherwise.
DType parse_dtype(const std::string &text, const std::string &what = "dtype");

} // namespace convcheck
