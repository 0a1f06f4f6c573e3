#include "core/problem/benchdnn_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <variant>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/benchdnn_descriptor.hpp"
#include "core/problem/benchdnn_settings.hpp"
#include "core/problem/benchdnn_writer.hpp"

namespace convcheck {

namespace {

namespace fs = std::filesystem;

// One word of a batch file, or a whole line naming the benchdnn program.
struct Word {
  std::string text;
  int64_t line;
  bool command_line = false;
};

bool names_program(const std::string &word) { return word == "benchdnn" || word.ends_with("/benchdnn"); }

std::vector<std::string> blank_separated(const std::string &line) {
  std::vector<std::string> words;
  for (size_t at = 0; at < line.size();) {
    const size_t end = std::min(line.find_first_of(" \t\r\f\v", at), line.size());
    if (end > at) words.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

// benchdnn's batch(): blank-separated words, a word starting with '#' ends its line, a trailing '\' joins a word
// with the next one.
std::vector<Word> read_words(std::istream &in) {
  std::vector<Word> words;
  bool continued = false;
  int64_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::vector<std::string> on_line = blank_separated(line);
    const auto comment = std::find_if(on_line.begin(), on_line.end(), [](const std::string &w) { return w[0] == '#'; });
    on_line.erase(comment, on_line.end());
    if (std::any_of(on_line.begin(), on_line.end(), names_program)) {
      words.push_back({line, number, true});
      continue;
    }
    for (std::string &word : on_line) {
      if (continued && !words.empty()) word = words.back().text + word, words.pop_back();
      continued = word.back() == '\\';
      if (continued) word.pop_back();
      if (!word.empty()) words.push_back({word, number});
    }
  }
  return words;
}

// oneDNN's named tags ("nhwc", "goihw", "hwio") in its letters ("acdb", "abcde", "cdba"): each dimension by its
// place in the canonical order, [g] o i spatial for weights and n c spatial for data. Any other tag as it is.
std::string letters(const std::string &tag, int64_t ndims) {
  const std::string spatial = std::string("dhw").substr(static_cast<size_t>(3 - ndims));
  const std::string canonical = tag.find('g') != std::string::npos   ? "goi" + spatial
                                : tag.find('o') != std::string::npos ? "oi" + spatial
                                                                     : "nc" + spatial;
  if (tag.size() != canonical.size()) return tag;
  std::string spelled;
  for (char dimension : tag) {
    const size_t place = canonical.find(dimension);
    if (place == std::string::npos) return tag;
    spelled += static_cast<char>('a' + place);
  }
  return spelled;
}

// A data tag's layout at `ndims` ("abx" and "axb" at any rank); nullopt for "any" (oneDNN's choice, the canonical
// layout here). Throws the tag back as the skip reason when convcheck has no layout for it.
std::optional<DataLayout> data_layout(const std::string &option, const std::string &tag, int64_t ndims) {
  if (tag == "any") return std::nullopt;
  for (DataLayout layout : {DataLayout::ncx, DataLayout::nxc})
    if (letters(tag, ndims) == benchdnn_data_tag(layout, ndims) || tag == (layout == DataLayout::ncx ? "abx" : "axb")) return layout;
  throw fmt::format("--{}={}", option, tag);
}

// The problem of one combination of the settings, or the reason it is out of scope.
struct Combination {
  const std::pair<std::string, Direction> *dir;
  const BenchdnnDt *dt;
  const std::string *stag, *wtag, *dtag;
  int64_t mb;
};

std::variant<Problem, std::string> combined(Problem problem, const Combination &c) {
  if (!c.dt->precision) return c.dt->spelled;
  problem.precision = *c.dt->precision;
  if (c.mb != 0) problem.batch = c.mb;
  try {
    const std::optional<DataLayout> source = data_layout("stag", *c.stag, problem.ndims);
    const std::optional<DataLayout> destination = data_layout("dtag", *c.dtag, problem.ndims);
    if (source && destination && *source != *destination)
      return fmt::format("--stag={} --dtag={} (one data layout for both)", *c.stag, *c.dtag);
    if (source || destination) problem.data_layout = source ? *source : *destination;
  } catch (const std::string &reason) {
    return reason;
  }
  if (*c.wtag == "any") return problem;
  for (WeightLayout layout : {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi})
    if (benchdnn_weight_tag(layout, problem.groups > 1, problem.ndims, problem.op) == letters(*c.wtag, problem.ndims)) {
      problem.weight_layout = layout;
      return problem;
    }
  return fmt::format("--wtag={}", *c.wtag);
}

class Reader {
public:
  explicit Reader(Op driver) : driver_(driver) {}

  void read(const std::string &path, const std::string &included_at) {
    std::ifstream in(path);
    if (!in) {
      throw InputError(included_at.empty() ? fmt::format("cannot open benchdnn batch file {}", path)
                                           : fmt::format("cannot open benchdnn batch file {} ({})", path, included_at));
    }
    const std::string identity = fs::weakly_canonical(fs::path(path)).string();
    if (std::find(open_.begin(), open_.end(), identity) != open_.end()) {
      std::string chain;
      for (const std::string &file : open_) chain += file + " -> ";
      throw InputError(fmt::format("benchdnn batch file {} includes itself ({}{})", path, chain, identity));
    }
    open_.push_back(identity);
    ++batch_.files;
    const std::vector<Word> words = read_words(in);
    if (in.bad()) throw InputError(fmt::format("cannot read benchdnn batch file {}", path));
    for (const Word &word : words) {
      const std::string where = fmt::format("{}:{}", path, word.line);
      if (word.text.rfind("--batch=", 0) == 0) { // the included file's errors name it
        include(word.text, path, where);
        continue;
      }
      try {
        take(word, where);
      } catch (const InputError &error) {
        throw InputError(fmt::format("{}: {}", where, error.what()));
      }
    }
    open_.pop_back();
  }

  BenchdnnBatch result() && { return std::move(batch_); }

private:
  // `--batch=FILE`: FILE relative to the including file's folder.
  void include(const std::string &word, const std::string &path, const std::string &where) {
    const fs::path included = word.substr(8);
    const fs::path resolved = included.is_absolute() ? included : fs::path(path).parent_path() / included;
    read(resolved.string(), fmt::format("{} at {}", word, where));
  }

  void take(const Word &word, const std::string &where) {
    if (word.command_line) return command_line(word.text, where);
    if (word.text[0] == '-') return settings_.apply(word.text);
    descriptor(word.text, where);
  }

  // A whole benchdnn command line: one run in its own direction, its options its own.
  void command_line(const std::string &text, const std::string &where) {
    const BenchdnnLine line = parse_benchdnn_line(text, driver_);
    BenchdnnSettings own;
    for (const std::string &word : blank_separated(text))
      if (word.rfind("--dir=", 0) == 0) own.apply(word);
    batch_.total += 1;
    if (!line.problem) return batch_.skip(line.skip_reason, 1);
    batch_.runs.push_back({*line.problem, own.dirs.front().second, where});
  }

  // Every run of one descriptor under the current settings.
  void descriptor(const std::string &text, const std::string &where) {
    const BenchdnnLine line = parse_benchdnn_line(text, driver_);
    if (!line.problem) return; // nothing but a comment
    if (settings_.pattern && !std::regex_match(text, *settings_.pattern)) return;
    const BenchdnnSettings &s = settings_;
    const int64_t modelled = static_cast<int64_t>(s.dirs.size() * s.dts.size() * s.stags.size() * s.wtags.size() *
                                                  s.dtags.size() * s.mbs.size());
    const int64_t copies = out_of_scope_runs(modelled);
    if (copies == 0) return;
    for (const auto &dir : s.dirs)
      for (const BenchdnnDt &dt : s.dts)
        for (const std::string &stag : s.stags)
          for (const std::string &wtag : s.wtags)
            for (const std::string &dtag : s.dtags)
              for (int64_t mb : s.mbs) {
                batch_.total += copies;
                const auto run = combined(*line.problem, {&dir, &dt, &stag, &wtag, &dtag, mb});
                if (const auto *reason = std::get_if<std::string>(&run)) batch_.skip(*reason, copies);
                else
                  for (int64_t copy = 0; copy < copies; ++copy)
                    batch_.runs.push_back({std::get<Problem>(run), dir.second, where});
              }
  }

  // Counts the runs an unmodelled or unknown option takes out of scope, each under the first such option set to a
  // value other than its default, and returns how many copies of each modelled combination stay (the values of the
  // options without effect, times the default values of the unmodelled ones).
  int64_t out_of_scope_runs(int64_t modelled) {
    int64_t copies = 1;
    std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> lists; // reason, (values, default values)
    for (const auto &[name, values] : settings_.others) {
      const BenchdnnOption *option = find_benchdnn_option(name);
      const auto size = static_cast<int64_t>(values.size());
      if (option != nullptr && option->effect == OptionEffect::no_effect) {
        copies *= size;
        continue;
      }
      const auto defaults = option == nullptr ? 0 : std::count_if(values.begin(), values.end(), [&](const auto &v) {
        return std::find(option->defaults.begin(), option->defaults.end(), v) != option->defaults.end();
      });
      lists.push_back({option == nullptr ? fmt::format("--{} (unknown to convcheck)", name) : "--" + name,
                       {size, static_cast<int64_t>(defaults)}});
    }
    int64_t all_values = 1;
    for (const auto &list : lists) all_values *= list.second.first;
    int64_t before = 1; // defaults of the lists before this one
    for (const auto &[reason, sizes] : lists) {
      all_values /= sizes.first; // the lists after this one
      const int64_t runs = modelled * copies * before * (sizes.first - sizes.second) * all_values;
      if (runs > 0) batch_.total += runs, batch_.skip(reason, runs);
      before *= sizes.second;
    }
    return copies * before;
  }

  Op driver_;
  BenchdnnSettings settings_;
  BenchdnnBatch batch_;
  std::vector<std::string> open_; // the files being read, outermost first
};

} // namespace

void BenchdnnBatch::skip(const std::string &reason, int64_t runs) {
  const auto found = std::find_if(skipped.begin(), skipped.end(), [&](const auto &each) { return each.first == reason; });
  if (found == skipped.end()) skipped.emplace_back(reason, runs);
  else found->second += runs;
}

int64_t BenchdnnBatch::skipped_runs() const {
  int64_t runs = 0;
  for (const auto &each : skipped) runs += each.second;
  return runs;
}

BenchdnnBatch read_benchdnn_batch(const std::string &path, Op driver) {
  Reader reader(driver);
  reader.read(path, "");
  return std::move(reader).result();
}

std::string skipped_summary(const BenchdnnBatch &batch) {
  if (batch.skipped.empty()) return "";
  std::vector<std::pair<std::string, int64_t>> by_count = batch.skipped;
  std::stable_sort(by_count.begin(), by_count.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  std::string reasons;
  for (const auto &[reason, runs] : by_count) reasons += fmt::format("{}{} ({})", reasons.empty() ? "" : ", ", reason, runs);
  return fmt::format("skipped {} run{}: {}", batch.skipped_runs(), batch.skipped_runs() == 1 ? "" : "s", reasons);
}

} // namespace convcheck
