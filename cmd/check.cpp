// `convcheck check`: a fixed list of configs (descriptors on the command line and/or a batch file, one per line,
// `#` comments and blank lines ignored) through the strategies, with fuzz's options, report and exit codes.
// `--format benchdnn` reads oneDNN benchdnn conv descriptors and batch files unchanged, with benchdnn's meaning (options
// persisting until --reset, --batch includes, every direction, data type and tag listed: core/problem/benchdnn_file.hpp);
// `--driver deconv` reads them as benchdnn's deconv driver does (core/problem/benchdnn_descriptor.hpp), as deconvs.

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cmd/campaign_cli.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "core/problem/benchdnn_descriptor.hpp"
#include "core/problem/benchdnn_file.hpp"
#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"

namespace convcheck {

namespace {

std::string strip_comment(const std::string &line) {
  std::string text = line.substr(0, line.find('#'));
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// How entries are read: native descriptors, or benchdnn lines with the meaning of its driver (conv or deconv).
struct Syntax {
  std::string format = "native";
  Op driver = Op::conv;
};

// Parses one entry in `syntax`; nullopt when benchdnn says to skip it, or when a line of a batch file is valid but
// has a tensor over the element cap (both logged with `where`): a list such as benchdnn's shapes_3d runs its other
// lines. Any other invalid entry is an error.
// `precision` holds what the last benchdnn --dt/--cfg line of a batch file set (applied to the lines after it).
std::optional<Problem> parse_entry(const std::string &entry, const Syntax &syntax, const std::string &where,
                                   int64_t max_elements, BenchdnnPrecision &precision) {
  std::optional<Problem> problem;
  try {
    if (syntax.format == "benchdnn") {
      BenchdnnLine line = parse_benchdnn_line(entry, syntax.driver);
      if (line.precision) {
        precision = *line.precision;
        if (!precision.refusal.empty())
          spdlog::warn("{}the descriptors after it are skipped: {}", where.empty() ? "" : where + ": ",
                       precision.refusal);
        return std::nullopt;
      }
      if (line.problem && !precision.refusal.empty()) {
        spdlog::warn("{}skipped: {}", where.empty() ? "" : where + ": ", precision.refusal);
        return std::nullopt;
      }
      if (line.problem && precision.precision) line.problem->precision = *precision.precision;
      if (!line.problem) {
        if (!line.skip_reason.empty())
          spdlog::warn("{}skipped: {}", where.empty() ? "" : where + ": ", line.skip_reason);
        return std::nullopt;
      }
      problem = line.problem;
    } else {
      const std::string text = strip_comment(entry);
      if (text.empty()) return std::nullopt;
      problem = parse_descriptor(text);
    }
    validate(*problem, std::numeric_limits<int64_t>::max());
    if (!where.empty() && !is_valid(*problem, max_elements)) {
      try {
        validate(*problem, max_elements);
      } catch (const InputError &too_large) {
        spdlog::warn("{}: skipped: {}", where, too_large.what());
      }
      return std::nullopt;
    }
    validate(*problem, max_elements);
  } catch (const InputError &error) {
    // Descriptor errors already quote the whole input; file lines also need the file and line number.
    throw where.empty() ? error : InputError(fmt::format("{}: {}", where, error.what()));
  }
  return problem;
}

// Appends the problems of a batch file to `configs`. Room for every line is reserved first: the list is the
// largest thing the main process holds, every worker inherits it, and a vector doubling as it grows would make
// the peak half as large again (Isolation.WorkerMemoryStaysFlatOverALongRun measures it).
void read_batch(const std::string &path, const Syntax &syntax, int64_t max_elements, std::vector<Problem> &configs) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open batch file {}", path));
  const auto lines = std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  configs.reserve(configs.size() + static_cast<size_t>(lines) + 1);
  in.clear();
  in.seekg(0);
  int64_t number = 0;
  BenchdnnPrecision precision; // benchdnn's default: f32 (until a --dt or --cfg line)
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (auto config = parse_entry(line, syntax, fmt::format("{}:{}", path, number), max_elements, precision))
      configs.push_back(*config);
  }
  if (in.bad()) throw InputError(fmt::format("cannot read batch file {}", path));
}

// Appends the problems of a benchdnn batch file (and its includes), read with benchdnn's meaning
// (core/problem/benchdnn_file.hpp): each problem of its runs in convcheck's scope once, in the order first met. A
// problem is a case judged in every direction, so its runs in one direction or several (FWD_B and FWD_D alike) are
// all judged by it. One line says how many runs benchdnn makes, how many are in scope and as how many problems, and
// one counts the runs skipped by reason.
void read_benchdnn_file(const std::string &path, const Syntax &syntax, int64_t max_elements,
                        std::vector<Problem> &configs) {
  BenchdnnBatch batch = read_benchdnn_batch(path, syntax.driver);
  std::map<std::string, bool> seen;
  int64_t judged = 0, problems = 0;
  for (const BenchdnnRun &run : batch.runs) {
    try {
      validate(run.problem, std::numeric_limits<int64_t>::max());
    } catch (const InputError &error) {
      throw InputError(fmt::format("{}: {}", run.where, error.what()));
    }
    if (!is_valid(run.problem, max_elements)) {
      batch.skip("a tensor over --max-elements", 1);
      continue;
    }
    ++judged;
    if (seen.emplace(format_descriptor(run.problem), true).second) configs.push_back(run.problem), ++problems;
  }
  spdlog::info("{}: benchdnn makes {} runs ({} file{} read); {} in convcheck's scope, judged as {} problems, each in "
               "every direction", path, batch.total, batch.files, batch.files == 1 ? "" : "s", judged, problems);
  if (const std::string skipped = skipped_summary(batch); !skipped.empty()) spdlog::warn("{}: {}", path, skipped);
}

} // namespace

int check_command(const std::vector<std::string> &args) {
  CampaignCli cli;
  std::vector<std::string> descriptors, batches;
  std::string format = "native", driver = "conv";
  bool list_only = false;
  po::options_description description(
      "convcheck check DESCRIPTOR... [--batch FILE]... [options]\n\nA fixed list of configs through every strategy");
  description.add_options()("help", "show this help")("descriptor", po::value(&descriptors), "configs")
      ("batch", po::value(&batches)->composing(), "file of descriptors, one per line (repeatable)")
      ("format", po::value(&format)->default_value(format), "descriptor syntax: native or benchdnn")
      ("driver", po::value(&driver)->default_value(driver), "with --format benchdnn: benchdnn's conv or deconv driver")
      ("list", po::bool_switch(&list_only), "print the configs the descriptors and batch files read as, one native "
                                            "descriptor a line, and run nothing");
  cli.add_options(description);
  po::positional_options_description positional;
  positional.add("descriptor", -1);
  const po::variables_map map = parse_arguments(args, description, positional);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  if (format != "native" && format != "benchdnn")
    throw InputError(fmt::format("format '{}' is not native or benchdnn", format));
  const Syntax syntax{format, parse_op(driver, "driver")};
  if (syntax.driver != Op::conv && format != "benchdnn")
    throw InputError(fmt::format("--driver {} reads benchdnn lines: give --format benchdnn (a native descriptor "
                                 "names its op itself)", driver));
  cli.finish(map);
  std::vector<Problem> configs;
  BenchdnnPrecision precision; // descriptors on the command line are read like the lines of one batch
  for (const std::string &descriptor : descriptors)
    if (auto config = parse_entry(descriptor, syntax, "", cli.run.max_elements, precision))
      configs.push_back(*config);
  for (const std::string &batch : batches)
    if (syntax.format == "benchdnn") read_benchdnn_file(batch, syntax, cli.run.max_elements, configs);
    else read_batch(batch, syntax, cli.run.max_elements, configs);
  if (configs.empty() && syntax.format == "benchdnn" && !batches.empty())
    throw InputError("check has no config to run: no run of the benchdnn batch files is in convcheck's scope (the "
                     "summary above counts the runs skipped by reason)");
  if (configs.empty()) throw InputError("check has no config to run (give descriptors or --batch FILE)");
  if (list_only) {
    for (const Problem &config : configs) fmt::print("{}\n", format_descriptor(config));
    return exit_agreed;
  }
  // One list, shared: every forked worker inherits it, and a copy per holder of the source would be paid per case.
  const auto list = std::make_shared<const std::vector<Problem>>(std::move(configs));
  cli.identity.command = "check";
  return cli.run_and_report(
      cli.sharded(static_cast<int64_t>(list->size()), [list](uint64_t index) { return (*list)[index]; }));
}

} // namespace convcheck
