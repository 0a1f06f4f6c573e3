// `convcheck corpus run|list|add`: the regression corpus (core/run/corpus.hpp says what each kind promises).

#include <algorithm>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/run/case_workers.hpp"
#include "core/run/corpus.hpp"
#include "core/run/declaration.hpp"
#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"

namespace convcheck {

namespace {

int corpus_run(const std::vector<std::string> &paths, const RunOptions &run) {
  const std::vector<Strategy> real = run.selected();
  size_t failed = 0, skipped = 0;
  std::vector<std::string> files;
  for (const std::string &path : paths)
    for (std::string &file : corpus_files(path)) files.push_back(std::move(file));
  // The real strategies run on a few files at a time in one worker that stays up (an external server starts once
  // for them, not once a file); what a kind checks beyond that runs per file.
  constexpr size_t files_per_worker = 16;
  std::vector<std::vector<Outcome>> replayed; // every file's, for the rule that nothing passes silently
  for (size_t first = 0; first < files.size(); first += files_per_worker) {
    const size_t end = std::min(files.size(), first + files_per_worker);
    std::vector<CaseFile> case_files;
    for (size_t i = first; i < end; ++i) case_files.push_back(read_untrusted_case_file(files[i], run.max_elements));
    std::vector<const Case *> cases;
    for (const CaseFile &case_file : case_files) cases.push_back(&case_file.conv_case);
    const auto outcomes = verify_cases_isolated(cases, real, run.run_timeout_s());
    for (size_t i = 0; i < case_files.size(); ++i) {
      const CaseFile &case_file = case_files[i];
      const CorpusVerdict verdict = check_corpus_case(case_file, real, outcomes[i], run.run_timeout_s());
      replayed.push_back(outcomes[i]);
      const bool skip = verdict.ok && !verdict.skipped.empty();
      fmt::print("{} {} {}\n", !verdict.ok ? "FAILED " : skip ? "SKIPPED" : "ok     ", files[first + i],
                 format_descriptor(case_file.conv_case.problem));
      for (const std::string &problem : verdict.problems) fmt::print("  {}\n", problem);
      if (skip) fmt::print("  {}\n", verdict.skipped);
      if (case_file.finding)
        if (const std::string note = declaration_note(*case_file.finding, real); !note.empty())
          fmt::print("  {}\n", note);
      failed += !verdict.ok;
      skipped += skip;
    }
  }
  fmt::print("{} passed, {} skipped, {} failed\n", files.size() - failed - skipped, skipped, failed);
  return unjudged_replay_exit(run, replayed, failed ? exit_mismatch : exit_agreed);
}

int corpus_list(const std::string &directory, const RunOptions &run) {
  for (const std::string &file : corpus_files(directory)) {
    const CaseFile case_file = read_untrusted_case_file(file, run.max_elements);
    const std::string found =
        case_file.finding ? fmt::format("{} {}", case_file.finding->strategy, to_string(case_file.finding->direction)) : "-";
    fmt::print("{:<10} {:<40} {:<60} {}\n", corpus_kind(case_file), found, format_descriptor(case_file.conv_case.problem),
               file);
  }
  return exit_agreed;
}

// SOURCE is a case file, or a descriptor for a hand-picked config (inputs made from seed 1, case 0). `upstream`,
// when given, marks the findings as a real library's bug tracked there (an upstream/ case).
int corpus_add(const std::vector<std::string> &sources, const std::string &directory, const std::string &upstream,
               const RunOptions &run) {
  for (const std::string &source : sources) {
    CaseFile case_file;
    if (source.ends_with(".h5")) {
      case_file = read_untrusted_case_file(source, run.max_elements);
    } else {
      const Problem config = parse_descriptor(source);
      validate(config, run.max_elements);
      case_file.conv_case = make_case(config, FillMode::mixed, 1, 0);
    }
    if (!upstream.empty()) {
      if (!case_file.finding || case_file.finding->strategy.empty())
        throw InputError(fmt::format("corpus add --upstream: {} records no finding to mark", source));
      case_file.finding->upstream = upstream;
    }
    const std::string target = corpus_path(directory, case_file);
    if (std::filesystem::exists(target)) {
      fmt::print("already in the corpus: {}\n", target);
      continue;
    }
    std::filesystem::create_directories(std::filesystem::path(target).parent_path());
    write_case_file(target, case_file);
    fmt::print("added {}\n", target);
  }
  return exit_agreed;
}

} // namespace

int corpus_command(const std::vector<std::string> &args) {
  RunOptions run;
  std::vector<std::string> words;
  std::string upstream;
  po::options_description description(
      "convcheck corpus run DIR|CASE.h5... | list DIR | add CASE.h5|DESCRIPTOR... DIR [options]\n\n"
      "run: every case must hold (regression: all strategies pass; mutants: the bug is still caught; upstream: the\n"
      "library's bug still shows with its hold-back lifted, else the case is skipped saying so)");
  description.add_options()("help", "show this help")("word", po::value(&words), "subcommand and paths")(
      "upstream", po::value(&upstream),
      "add: the findings are a real library's bug tracked there (e.g. 'oneDNN issue #6035'): an upstream/ case")(
      "live", "run: judge only the implementations run now (as corpus run always does; recorded results are never "
              "judged), as with repro --live");
  add_run_options(description, run);
  po::positional_options_description positional;
  positional.add("word", -1);
  const po::variables_map map = parse_arguments(args, description, positional);
  if (map.count("help") || words.empty()) {
    std::cout << description << "\n";
    if (words.empty() && !map.count("help")) throw InputError("corpus needs run, list or add");
    return exit_agreed;
  }
  const std::string action = words.front();
  if (action == "run" && words.size() < 2) throw InputError("corpus run takes directories or case files");
  if (action == "list" && words.size() != 2) throw InputError("corpus list takes one directory");
  if (action == "run") return corpus_run({words.begin() + 1, words.end()}, run);
  if (action == "list") return corpus_list(words[1], run);
  if (action == "add") {
    if (words.size() < 3) throw InputError("corpus add takes CASE.h5 or DESCRIPTOR sources and a directory");
    return corpus_add({words.begin() + 1, words.end() - 1}, words.back(), upstream, run);
  }
  throw InputError(fmt::format("unknown corpus action '{}' (run, list or add)", action));
}

} // namespace convcheck
