#pragma once
// What happens to a failure: shrink it to a minimal config that still fails the same strategy and direction,
// then write that case, with every strategy's results, as a case file named after what it shows.

#include <cstdint>
#include <string>
#include <vector>

#include "core/conv_config.hpp"
#include "core/direction.hpp"
#include "core/fill.hpp"
#include "core/strategy.hpp"

namespace convcheck {

/// A strategy/direction that failed on case `case_index` of a run (inputs remade from seed, index and fill).
struct Failure {
  std::string strategy;
  Direction direction = Direction::output;
  uint64_t case_index = 0;
  ConvConfig config;
  std::string problem;
};

struct SavedFinding {
  ConvConfig shrunk;         // equal to the failure's config when not shrunk
  std::string problem;       // on the shrunk config
  size_t shrink_steps = 0;
  size_t shrink_tries = 0;
  double shrink_s = 0;
  std::string path;
};

/// 16 hex digits hashing the canonical descriptor of `config`, `strategy` and `direction`.
std::string finding_hash(const ConvConfig &config, const std::string &strategy, const std::string &direction);

/// `corpus_dir/<strategy>-<direction>-<finding_hash>.h5`, the digits hashing the canonical descriptor, the
/// strategy and the direction, so two runs that find the same thing write one file.
std::string finding_path(const std::string &corpus_dir, const ConvConfig &config, const std::string &strategy,
                         Direction direction);

/// Shrinks (when `shrink_it`) and writes the case; `strategies` are all the strategies of the run (the failing
/// one among them), whose results are recorded under /results. Creates `corpus_dir` if needed.
SavedFinding save_finding(const Failure &failure, const std::vector<Strategy> &strategies, uint64_t seed,
                          FillMode fill, const std::string &corpus_dir, bool shrink_it);

} // namespace convcheck
