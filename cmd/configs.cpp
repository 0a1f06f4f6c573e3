// `convcheck configs`: samples the default fuzz distribution as descriptors (one per line: a batch file for
// `check`, e.g. the benchmark's), or with --stats reports the distribution: each field of the field table by
// value, the work per case, how often each corner and each block seam comes up, each precision row's long
// reductions per direction, and the share of each fill and special-value kind.

#include <algorithm>
#include <array>
#include <functional>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/problem/coverage.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/direction.hpp"
#include "core/problem/fields.hpp"
#include "core/problem/generators.hpp"
#include "core/problem/op.hpp"
#include "core/problem/precision_table.hpp"
#include "core/problem/witness_reach.hpp"
#include "core/input_error.hpp"
#include "core/numerics/fill.hpp"
#include "core/run/focus.hpp"
#include "core/run/offered_rows.hpp"

namespace convcheck {

namespace {

std::string percent_row(const std::string &name, const std::vector<int64_t> &counts, int64_t total) {
  std::string row = fmt::format("{:<16}", name);
  for (int64_t count : counts)
    row += count == 0 ? fmt::format("{:>7}", "-") : fmt::format("{:>6.1f}%", 100.0 * count / static_cast<double>(total));
  return row + "\n";
}

std::string hit_rows(const std::vector<Corner> &list, const std::vector<int64_t> &hits, int64_t cases) {
  std::string rows;
  for (size_t j = 0; j < list.size(); ++j)
    rows += fmt::format("{:<40} {:>6} {:>6.1f}%\n", list[j].name, hits[j], 100.0 * hits[j] / static_cast<double>(cases));
  return rows;
}

// The long reductions of each precision row: per direction, the share of the row's problems with an element summing
// past each of long_reduction_lengths less one (256, 2,048) terms, a deconv's direction counted as its equivalent
// conv's (core/problem/op.hpp).
class LongReductions {
public:
  void add(const Problem &p) {
    const PrecisionRow *row = find_precision_row(p.precision);
    Counts &counts = by_row_[row != nullptr ? row->name : precision_words(p.precision)];
    ++counts.problems;
    const Problem conv = equivalent_conv(p);
    for (size_t d = 0; d < all_directions.size(); ++d)
      for (size_t l = 0; l < std::size(long_reduction_lengths); ++l)
        counts.past[d][l] += reduction_terms(conv, conv_direction(p.op, all_directions[d])) >= long_reduction_lengths[l];
  }

  std::string table() const {
    std::string text = fmt::format("\nlong reductions (of each row's configs: a direction summing past N terms)\n{:<16}",
                                   "row");
    for (Direction direction : all_directions)
      for (int64_t length : long_reduction_lengths)
        text += fmt::format("{:>17}", fmt::format("{}>{}", to_string(direction), length - 1));
    text += "\n";
    for (const PrecisionRow &row : precision_table()) {
      const auto found = by_row_.find(row.name);
      if (found == by_row_.end()) continue;
      text += fmt::format("{:<16}", row.name);
      for (const auto &per_length : found->second.past)
        for (int64_t count : per_length)
          text += fmt::format("{:>16.1f}%",
                              100.0 * static_cast<double>(count) / static_cast<double>(found->second.problems));
      text += "\n";
    }
    return text;
  }

private:
  struct Counts {
    int64_t problems = 0;
    std::array<std::array<int64_t, std::size(long_reduction_lengths)>, 3> past{};
  };
  std::map<std::string, Counts> by_row_;
};

// The fills the cases draw (core/numerics/fill.hpp): each mode's share of the cases, and each special kind's share
// of the cases and of the input tensors (three a case) that carry it.
class FillShares {
public:
  FillShares(FillMode fill, FillSpecial special) : fill_(fill), special_(special) {}

  void add(uint64_t seed, uint64_t index, const Problem &p) {
    const FillMode mode = resolve_fill_mode(fill_, seed, index, p);
    const FillSpecial kind = resolve_fill_special(special_, mode, seed, index, p);
    ++modes_[static_cast<size_t>(mode)];
    ++cases_[static_cast<size_t>(kind)];
    for (Role role : input_roles) tensors_[static_cast<size_t>(kind)] += carries_special(kind, seed, index, role);
  }

  std::string table(int64_t cases) const {
    const auto share = [](int64_t count, int64_t of) {
      return 100.0 * static_cast<double>(count) / static_cast<double>(of);
    };
    std::string text = fmt::format("\nfills (--fill {} --fill-special {}; a kind's tensors: of the {} input tensors)\n",
                                   to_string(fill_), to_string(special_), 3 * cases);
    for (FillMode mode : {FillMode::normal, FillMode::exact, FillMode::witness}) {
      const int64_t count = modes_[static_cast<size_t>(mode)];
      text += fmt::format("{:<40} {:>6} {:>6.1f}%\n", to_string(mode), count, share(count, cases));
    }
    for (FillSpecial kind : special_kinds) {
      const int64_t count = cases_[static_cast<size_t>(kind)], tensors = tensors_[static_cast<size_t>(kind)];
      text += fmt::format("{:<40} {:>6} {:>6.1f}%   tensors {:>6} {:>6.1f}%\n", "special " + to_string(kind), count,
                          share(count, cases), tensors, share(tensors, 3 * cases));
    }
    return text;
  }

private:
  FillMode fill_;
  FillSpecial special_;
  std::array<int64_t, 4> modes_{};
  std::array<int64_t, 6> cases_{}, tensors_{};
};

// What `configs --stats` prints for `cases` problems of `seed`, each drawn by `problem_at`.
std::string distribution_stats(uint64_t seed, int64_t cases, const std::function<Problem(uint64_t)> &problem_at,
                               FillShares fills) {
  const std::span<const IntField> fields = int_fields();
  std::vector<std::vector<int64_t>> by_value(fields.size(), std::vector<int64_t>(value_bins().size()));
  std::vector<int64_t> values_of(fields.size());
  const std::vector<int64_t> work_limits = {10'000, 100'000, 1'000'000, 10'000'000};
  std::vector<int64_t> by_work(work_limits.size() + 1);
  std::vector<int64_t> corner_hits(corners().size()), seam_hits(seams().size()), deconv_hits(deconv_corners().size());
  double work = 0;
  LongReductions long_reductions;
  for (int64_t i = 0; i < cases; ++i) {
    const Problem p = problem_at(static_cast<uint64_t>(i));
    long_reductions.add(p);
    fills.add(seed, static_cast<uint64_t>(i), p);
    for (size_t f = 0; f < fields.size(); ++f)
      for (int64_t a = fields[f].per_axis() ? p.first_axis() : 0; a < (fields[f].per_axis() ? max_ndims : 1); ++a) {
        const int64_t value = fields[f].get(p, a);
        ++by_value[f][value_bin(fields[f].per_group ? value / p.groups : value)];
        ++values_of[f];
      }
    const int64_t macs = static_cast<int64_t>(directions(p.op).size()) * p.multiply_adds();
    work += static_cast<double>(macs);
    ++by_work[static_cast<size_t>(std::upper_bound(work_limits.begin(), work_limits.end(), macs) - work_limits.begin())];
    for (size_t j = 0; j < corners().size(); ++j) corner_hits[j] += corners()[j].holds(p);
    for (size_t j = 0; j < seams().size(); ++j) seam_hits[j] += seams()[j].holds(p);
    for (size_t j = 0; j < deconv_corners().size(); ++j) deconv_hits[j] += deconv_corners()[j].holds(p);
  }
  std::string text = fmt::format("{} configs of seed {}; mean work {:.0f} multiply-adds a case (all directions)\n\n",
                                 cases, seed, work / static_cast<double>(cases));
  text += "work a case      <10k 10k-100k 100k-1M  1M-10M   10M+\n" +
          percent_row("", by_work, cases) + "\nfield values (channels per group; spatial fields over every axis)\n" +
          fmt::format("{:<16}", "field");
  for (const std::string &bin : value_bins()) text += fmt::format("{:>7}", bin);
  text += "\n";
  for (size_t f = 0; f < fields.size(); ++f) text += percent_row(fields[f].name, by_value[f], values_of[f]);
  return text + "\ncorners\n" + hit_rows(corners(), corner_hits, cases) + "\nblock seams\n" +
         hit_rows(seams(), seam_hits, cases) + "\ndeconv corners (of all configs)\n" +
         hit_rows(deconv_corners(), deconv_hits, cases) + long_reductions.table() + fills.table(cases);
}

} // namespace

int configs_command(const std::vector<std::string> &args) {
  uint64_t seed = 1;
  int64_t cases = 100;
  std::string focus, rows, ops, fill = "mixed", fill_special = "mixed";
  RunOptions run;
  po::options_description description("convcheck configs [options]\n\nPrints configs of the fuzz distribution");
  description.add_options()("help", "show this help")
      ("seed", po::value(&seed)->default_value(seed), "the seed fuzz would use")
      ("cases", po::value(&cases)->default_value(cases), "how many")
      ("stats", "print how often each corner of the config space occurs instead of the configs")
      ("focus", po::value(&focus), "NAME: the distribution fuzz --focus NAME draws: only problems inside what "
       "strategy NAME supports (name an outside one with --external, --external-server or --plugin)")
      ("rows", po::value(&rows), "NAME,...: the distribution fuzz --rows draws: only these precision rows")
      ("ops", po::value(&ops), "conv and/or deconv: the distribution fuzz --ops draws")
      ("fill", po::value(&fill)->default_value(fill), "the fill fuzz --fill draws (--stats: each mode's share)")
      ("fill-special", po::value(&fill_special)->default_value(fill_special),
       "the special kinds fuzz --fill-special draws (--stats: each kind's share)");
  add_run_options(description, run);
  const po::variables_map map = parse_arguments(args, description);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  require_at_least("cases", cases, 1);
  const FillShares fills(parse_fill_mode(fill), parse_fill_special(fill_special));
  // What `fuzz` with the same options draws: the rows every outside implementation named takes
  // (core/run/offered_rows.hpp).
  const std::vector<Strategy> strategies = run.selected();
  std::function<Problem(uint64_t)> problem_at = [seed, offered = offered_to_outside(strategies)](uint64_t index) {
    return within(generate_problem(seed, index), offered, row_hash(seed, index));
  };
  std::string heading;
  const Aim aim = parse_aim(rows, ops);
  if (!focus.empty() || !aim.empty()) {
    Support support = every_drawn_problem();
    if (!focus.empty()) {
      const auto found =
          std::find_if(strategies.begin(), strategies.end(), [&](const Strategy &s) { return s.name == focus; });
      if (found == strategies.end())
        throw InputError(fmt::format("focus {} is not a strategy here (name an outside one with --external, "
                                     "--external-server or --plugin)", focus));
      support = found->supports;
    }
    const std::string whose = focus.empty() ? "the aim (--rows, --ops)" : focus;
    support = aimed(support, aim, whose);
    problem_at = [seed, whose, support](uint64_t index) { return focused_problem(seed, index, support, whose).problem; };
    const double rejected = focus_rejection_rate(seed, support, whose, cases);
    heading = fmt::format("focused on {}: {:.1f}% of draws rejected and drawn again\n", whose, 100 * rejected);
    if (const std::string warning = rejection_warning(whose, rejected); !warning.empty()) spdlog::warn("{}", warning);
  }
  if (!map.count("stats")) {
    for (int64_t i = 0; i < cases; ++i) fmt::print("{}\n", format_descriptor(problem_at(static_cast<uint64_t>(i))));
    return exit_agreed;
  }
  fmt::print("{}{}", heading, distribution_stats(seed, cases, problem_at, fills));
  return exit_agreed;
}

} // namespace convcheck
