#include "oracles/outside/external.hpp"

#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "core/storage/case_file.hpp"
#include "core/input_error.hpp"
#include "core/problem/spelling.hpp"
#include "core/process/subprocess.hpp"

namespace convcheck {

namespace {

namespace fs = std::filesystem;

// A fresh private directory for one call, removed with everything in it when the call ends.
class TemporaryDirectory {
public:
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "convcheck-external-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory &) = delete;
  TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;
  std::string file(const char *name) const { return (path_ / name).string(); }

private:
  fs::path path_;
};

RunResults run_external(const ExternalSpec &spec, const Case &c) {
  const TemporaryDirectory directory;
  const std::string in = directory.file("in.h5"), out = directory.file("out.h5");
  write_case_file(in, command_case_file(c));
  const ProcessResult process = run_process({"/bin/sh", "-c", spec.command + " \"$@\"", "convcheck", in, out},
                                            spec.timeout_s, directory.file("output.txt"));
  if (process.termination.kind == Termination::Kind::exited && process.termination.exit_code == 77)
    return every_direction_skipped(c.problem.op, "the command exited 77: config unsupported");
  if (!process.termination.succeeded())
    return every_direction_failed(c.problem.op, "the command failed: " + process.describe());
  if (!fs::exists(out))
    return every_direction_failed(c.problem.op, "the command exited 0 but wrote no output file" +
                                                    (process.output_tail.empty() ? "" : "; output: " + process.output_tail));
  std::map<Direction, Tensor> results;
  std::optional<Algorithm> algorithm;
  try {
    results = read_result_file(out, c.problem, spec.max_elements);
    if (const std::string declared = read_result_algorithm(out); !declared.empty())
      algorithm = parse_algorithm(declared, "output file attribute 'algorithm'");
  } catch (const InputError &error) {
    return every_direction_failed(c.problem.op,
                                  fmt::format("the command wrote an unreadable output: {}", error.what()));
  }
  RunResults runs;
  for (const DirectionInfo &each : directions(c.problem.op)) {
    RunResult &run = runs[each.direction];
    run.algorithm = algorithm;
    if (auto found = results.find(each.direction); found != results.end()) run.result = std::move(found->second);
    else run.skipped = fmt::format("the command wrote no {} dataset", each.name);
  }
  return runs;
}

} // namespace

CaseFile command_case_file(const Case &c) {
  Case copy{c.problem, {}, c.seed, c.case_index, c.fill};
  copy.special = c.special;
  for (Role role : input_roles) copy[role] = c[role].clone();
  return CaseFile{std::move(copy), {}, {}};
}

ExternalSpec parse_external(const std::string &text, const std::string &option, const std::string &value) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos)
    throw InputError(fmt::format("{} '{}' is not NAME={}", option, text, uppercase(value)));
  ExternalSpec spec{text.substr(0, equals), text.substr(equals + 1)};
  if (!std::regex_match(spec.name, std::regex("[A-Za-z0-9_.-]+")))
    throw InputError(fmt::format("{} name '{}' must be letters, digits, '_', '.' or '-'", option, spec.name));
  if (find_strategy(spec.name) != nullptr)
    throw InputError(fmt::format("{} name '{}' is already a strategy's", option, spec.name));
  if (spec.command.find_first_not_of(" \t") == std::string::npos)
    throw InputError(fmt::format("{} '{}' has an empty {}", option, spec.name, value));
  return spec;
}

Strategy external_strategy(const ExternalSpec &spec) {
  Strategy strategy;
  strategy.outside = true;
  // The command gets case files: v1 for what v1 can hold, v2 otherwise (docs/external.md). A command written
  // against v1 is offered only what v1 holds; one that reads v2 every problem, and exits 77 for what it cannot run.
  strategy.supports = {.ops = spec.ops, .ranks = {2}, .dtypes = {DType::float32, DType::float64},
                       .data_layouts = every_data_layout, .weight_layouts = every_weight_layout};
  if (spec.case_format >= 2) strategy.supports.ranks = {1, 2, 3}, strategy.supports.crops = true;
  strategy.name = spec.name;
  strategy.description = fmt::format("external command: {}", spec.command);
  strategy.run_case = [spec](const Case &c, const Asked &) { return run_external(spec, c); };
  return strategy;
}

} // namespace convcheck
