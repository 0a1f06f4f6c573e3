#pragma once
// Every field of a problem, listed once. Validation, the descriptor (core/problem/descriptor.hpp), case files
// (core/storage/case_file.cpp), shrinking (core/problem/shrink.hpp), the generator (core/problem/generators.hpp,
// which reads each row's distribution per size tier) and the coverage report (`configs --stats`) iterate these
// tables, so adding a field is adding a row.
//
// Integer fields are problem-wide (batch) or per spatial axis (in, one value per axis: id/ih/iw in a descriptor,
// an array of ndims values outermost first in a v2 case file, in_height/in_width in a v1 case file, and
// in_depth/in_height/in_width in messages).

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/problem/problem.hpp"

namespace convcheck {

/// The generator's size tiers: most cases small (cheap, and what shrinking ends at), a steady share medium and
/// large, where blocked kernels have full blocks and tails (core/problem/generators.hpp).
enum class Tier { small, medium, large };
inline constexpr size_t tier_count = 3;
std::string to_string(Tier tier);

/// One weighted way to draw a value: uniform in [lo, hi]; or, with anchors, an anchor `a` and then a - 1, a or
/// a + 1 (a block seam, e.g. 15, 16, 17 for a block of 16), kept within [lo, hi]. `output` marks a draw of an
/// axis's output size rather than its input size (the input follows from it, core/problem/generators.cpp).
struct Draw {
  int weight;
  int64_t lo, hi;
  std::vector<int64_t> anchors = {};
  bool output = false;
};
using Distribution = std::vector<Draw>;

struct IntField {
  const char *name;                     ///< the v2 case-file attribute: "batch", "in_size"
  int64_t Problem::*scalar;             ///< a problem-wide field, or
  int64_t SpatialAxis::*axial;          ///< a field of each spatial axis
  std::array<const char *, 3> keys;     ///< descriptor keys: {"mb"}, or one per axis D, H, W {"id", "ih", "iw"}
  std::array<const char *, 3> axis_names; ///< per axis D, H, W: "in_depth", "in_height", "in_width" (messages; v1
                                         ///< case files store the H and W ones); a problem-wide field's name
  int64_t neutral;                      ///< the default, left out of descriptors and the target of shrinking
  bool always_printed;                  ///< printed in descriptors even when neutral (sizes)
  bool may_be_negative;                 ///< padding (crops); every other field is >= 1
  bool per_group;                       ///< a channel count: shrinking and generating work on count / groups
  int print_pair;                       ///< rows with the same non-zero pair print axis by axis together
                                        ///< (pt pb pl pr, not pt pl pb pr)
  std::array<Distribution, tier_count> draws; ///< how the generator draws it in each tier (per group for channels;
                                               ///< groups: when the problem is grouped or depthwise)
  std::array<int64_t, tier_count> cap_3d;      ///< in a 3-D problem at most this magnitude (0: no cap): three
                                               ///< extents multiply, and padding on three axes makes mostly zeros

  bool per_axis() const { return axial != nullptr; }
  /// The value on axis `axis` (0..2; ignored for a problem-wide field).
  int64_t get(const Problem &problem, int64_t axis = 0) const {
    return per_axis() ? problem.axes[static_cast<size_t>(axis)].*axial : problem.*scalar;
  }
  void set(Problem &problem, int64_t axis, int64_t value) const {
    if (per_axis()) problem.axes[static_cast<size_t>(axis)].*axial = value;
    else problem.*scalar = value;
  }
  /// "batch", or "in_height" for axis 1 of a per-axis field: how messages name it.
  std::string label(int64_t axis) const;
};

/// The integer fields in descriptor order: groups, batch, in_channels, in_size, out_channels, kernel_size, stride,
/// dilation, pad_begin, pad_end.
std::span<const IntField> int_fields();

/// A field whose value is a word: op, data_layout, weight_layout, src_dtype, weight_dtype, dst_dtype, acc_dtype.
struct WordField {
  const char *name; ///< the case-file attribute (v2)
  std::string (*get)(const Problem &);
  /// Sets the field from its spelling (after ndims is known); throws InputError naming `what`.
  void (*set)(Problem &, const std::string &text, const std::string &what);
  bool shrinks; ///< shrinking resets it to its default (layouts), or leaves it (the op and the formats)
  /// The spellings the generator draws from, uniformly, for a rank; null for the formats, which the generator
  /// draws together as one row of the precision table (core/problem/precision_table.hpp).
  std::vector<std::string> (*fuzz_values)(int64_t ndims);
};

std::span<const WordField> word_fields();

/// The field called `name` (v2 name), or nullptr.
const IntField *find_int_field(const std::string &name);

} // namespace convcheck
