#pragma once
// The precision combinations that exist in practice, one row each: the generator draws a problem's formats from
// here (by fuzz_weight), and strategies, servers and plugins declare the rows they compute. A descriptor may still
// spell any src:weight:dst:acc (core/problem/descriptor.hpp); a strategy that declares no row for it skips it.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/problem/problem.hpp"

namespace convcheck {

struct PrecisionRow {
  const char *name;    ///< "bf16_f32acc": `convcheck strategies`, configs --stats, reports
  Precision precision; ///< src, weight, dst, acc
  int fuzz_weight;     ///< how often the generator draws it, relative to the other rows
  bool low_precision;  ///< a storage format narrower than float32 (bfloat16, float16) is involved
};

/// Every combination, in a fixed order (the order of statistics).
std::span<const PrecisionRow> precision_table();

/// The row of `precision`, or nullopt when it is no row.
const PrecisionRow *find_precision_row(const Precision &precision);

/// "bf16:bf16:bf16:f32": the descriptor spelling of any precision, a row or not.
std::string precision_words(const Precision &precision);

/// The precisions of the rows whose formats are not all one: what a strategy that computes in the accumulation
/// format supports besides its single formats (core/numerics/case.hpp's in_accumulation_format).
std::vector<Precision> mixed_precisions();

/// Whether data and weight are stored in different formats (the training rows bf16_f32data, bf16_f32weight and
/// their f16 twins): most frameworks refuse such a pair, so a row of them is never inferred from declared formats.
bool mixes_input_formats(const Precision &precision);

/// The precisions of the rows whose inputs (src and weight) are stored in `storage`.
std::vector<Precision> precisions_storing(DType storage);

/// The rows whose formats are all f32 or f64 (what a server or plugin that declares no list is offered).
std::span<const PrecisionRow> classic_precisions();

} // namespace convcheck
