#pragma once
// A oneDNN benchdnn conv or deconv batch file read as benchdnn reads it (tests/benchdnn/common.cpp's batch(), the
// driver's bench()), harness, test and set files included (tests/benchdnn/inputs/conv/harness_*, test_*, set_*,
// inputs/deconv/*):
// - the file is a sequence of words separated by blanks and line ends, whatever the lines: a word starting with `#`
//   drops the rest of its line, a word ending in `\` continues in the next word;
// - a word starting with `-` is an option (core/problem/benchdnn_settings.hpp); options persist, through includes
//   and back out of them, until `--reset`;
// - `--batch=FILE` reads FILE at that point, relative to the including file's folder (an absolute path as it is);
// - any other word is a descriptor (core/problem/benchdnn_descriptor.hpp), which runs once per combination of the
//   settings' values: direction x data type x source, weight and destination tag x batch size, times the values of
//   every other list option (benchdnn's check_correctness), those --match leaves out not at all;
// - a line naming the benchdnn program (`ONEDNN_MAX_CPU_ISA=AVX2 ./benchdnn --conv --dir=BWD_D ... DESCRIPTOR`, as
//   `repro --emit benchdnn --out` writes it) is one run of its own, read by parse_benchdnn_line, settings untouched.
// A run is in convcheck's scope when every setting it runs under is applied or has no effect: each other run is
// skipped and counted under one reason, the first of: an unmodelled option set to another value than its default
// ("--attr-post-ops"), an unknown option ("--foo (unknown to convcheck)"), a data type no precision row holds
// ("--dt=u8:s8:u8"), a tag convcheck holds no layout for ("--stag=aBcd16b").

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// One run benchdnn makes that convcheck judges: the problem (formats and layouts set) and benchdnn's direction.
struct BenchdnnRun {
  Problem problem;
  Direction direction;
  std::string where; ///< "FILE:LINE" of its descriptor
};

/// What a batch file and its includes make.
struct BenchdnnBatch {
  std::vector<BenchdnnRun> runs; ///< the runs in convcheck's scope, in benchdnn's order
  int64_t total = 0;             ///< every run benchdnn makes, in scope or not
  /// Runs out of scope by reason, in the order each reason was first met.
  std::vector<std::pair<std::string, int64_t>> skipped;
  int64_t files = 0; ///< files read, an included file once per inclusion

  /// Counts `runs` more runs skipped for `reason`.
  void skip(const std::string &reason, int64_t runs);
  int64_t skipped_runs() const;
};

/// Reads `path` (and what it includes) for benchdnn's `driver` (--conv: Op::conv, --deconv: Op::deconv). Throws
/// InputError with one line naming the file: "cannot open benchdnn batch file X (--batch=X at Y:3)", "benchdnn batch
/// file X includes itself (X -> Y -> X)", or a malformed option or descriptor at "FILE:LINE: ...".
BenchdnnBatch read_benchdnn_batch(const std::string &path, Op driver);

/// "skipped 412 runs: --attr-post-ops (300), --dt=u8:s8:u8 (112)", or "" when no run was skipped.
std::string skipped_summary(const BenchdnnBatch &batch);

} // namespace convcheck
