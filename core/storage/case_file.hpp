#pragma once
// Case files: HDF5, formats v1 and v2 (docs/case-format.md is the normative description; h5py reads and writes
// them).
//
//   /                 attrs format = "convcheck-case", format_version = 1 or 2 (+ seed, case_index, fill)
//   /config           v2: scalar attrs op, ndims, batch, groups, in_channels, out_channels; integer arrays of ndims
//                     values, outermost axis first: in_size, kernel_size, stride, dilation, pad_begin, pad_end;
//                     string attrs data_layout, weight_layout, src_dtype, weight_dtype, dst_dtype, acc_dtype.
//                     v1 (a 2-D conv, padding >= 0, one format): integer attrs batch ... pad_right, string attrs
//                     data_layout, weight_layout, dtype. A problem that fits v1 is written as v1.
//   /inputs           datasets data [N,C,spatial...], weight [K,C/G,kernel...], grad_output [N,K,out...]
//                     (canonical layouts, each in its role's format)
//   /results/<name>   optional datasets output, grad_data, grad_weight recorded from strategy <name>
//   /finding          optional attrs strategy, direction, problem, implementation, kind: why the case was saved;
//                     neighbours: the failing region (core/storage/neighbour_rows.hpp); held_back_lifted;
//                     declaration: how the strategy was declared (core/run/declaration.hpp)
//
// Readers accept any integer type for integer attributes, fixed- and variable-length strings, and ignore what
// they do not know. Every malformed file throws InputError("case file PATH: problem").

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/storage/failure_kind.hpp"
#include "core/storage/neighbour_rows.hpp"

namespace convcheck {

/// Why a case was saved.
struct FindingRecord {
  std::string strategy;
  Direction direction = Direction::output;
  std::string problem;        // the diff's or the runner's one-line message
  std::string implementation; // e.g. oneDNN's impl_info_str; may be empty
  FailureKind kind = FailureKind::mismatch; // files from before kinds were recorded have none: a mismatch
  std::string upstream;       // where the library's maintainers track this bug (corpus/upstream/); usually empty
  std::vector<NeighbourRow> neighbours = {}; // the failing region around the case; empty when not computed
  /// Found with the strategy's known-bug hold-backs lifted (--run-held-back): `repro` and `shrink` replay it so.
  bool held_back_lifted = false;
  /// How that strategy was declared when it found the case (core/run/declaration.hpp); "" in older files.
  std::string declaration = {};
};

struct CaseFile {
  Case conv_case;
  /// results[strategy][direction], canonical layout.
  std::map<std::string, std::map<Direction, Tensor>> results;
  std::optional<FindingRecord> finding;
  /// algorithms[strategy][direction]: the class a recorded result was judged under when not direct ("winograd:4",
  /// "fft"; core/numerics/algorithm.hpp), the string attribute /results/<strategy> algorithm_<direction>.
  std::map<std::string, std::map<Direction, std::string>> algorithms;
  /// Where it was read from ("" for a case made in memory); not stored in the file.
  std::string path = {};
};

/// Reads and validates a case file; sizes are checked against `max_elements` before anything is allocated.
CaseFile read_case_file(const std::string &path, int64_t max_elements = default_max_elements);

/// read_case_file for a file from outside: first read in a forked child, whose stderr goes nowhere, because
/// Debian 12's libhdf5 1.10.8 segfaults or loops forever on some corrupt files (tests/fuzz/libhdf5/) before our
/// checks can reject them. A crash or a read past `timeout_s` becomes InputError naming the file.
CaseFile read_untrusted_case_file(const std::string &path, int64_t max_elements = default_max_elements,
                                  double timeout_s = 30);

/// Reads an external implementation's output file: root datasets `output`, `grad_data`, `grad_weight`, any
/// subset, any floating-point type (converted to the problem's result formats), any shape (the diff judges
/// shapes). Throws InputError naming the file for anything unreadable.
std::map<Direction, Tensor> read_result_file(const std::string &path, const Problem &problem,
                                             int64_t max_elements = default_max_elements);
/// The root string attribute `algorithm` of an external implementation's output file (the class its results are
/// judged under, core/numerics/algorithm.hpp), "" when absent. Throws InputError naming the file when unreadable.
std::string read_result_algorithm(const std::string &path);

/// Writes atomically: a temporary name in the same directory, then rename, so readers never see a partial file.
void write_case_file(const std::string &path, const CaseFile &case_file);

} // namespace convcheck
