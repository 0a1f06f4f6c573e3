#include "core/problem/benchdnn_settings.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/precision_table.hpp"

namespace convcheck {

namespace {

using enum OptionEffect;

[[noreturn]] void malformed(const std::string &word, const std::string &why) {
  throw InputError(fmt::format("{}: {}", word, why));
}

// benchdnn's vector options split their value on ','; an empty value is one empty element (`--attr-post-ops=`).
std::vector<std::string> split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (size_t end; (end = text.find(separator, begin)) != std::string::npos; begin = end + 1)
    parts.push_back(text.substr(begin, end - begin));
  parts.push_back(text.substr(begin));
  return parts;
}

bool all_of_chars(const std::string &text, int (*predicate)(int), const char *also = "") {
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
    return predicate(static_cast<unsigned char>(c)) != 0 || std::string(also).find(c) != std::string::npos;
  });
}

// --dir: benchdnn's dir_t values (any case, as its inputs write `--dir=fwd_d`); the bias of FWD_B and BWD_WB is
// not judged, the convolution is.
std::pair<std::string, Direction> read_dir(const std::string &word, const std::string &value) {
  std::string upper = value;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
  for (const auto &[name, direction] : {std::pair{"FWD_B", Direction::output}, {"FWD_D", Direction::output},
                                        {"FWD_I", Direction::output}, {"BWD_D", Direction::grad_data},
                                        {"BWD_W", Direction::grad_weight}, {"BWD_WB", Direction::grad_weight}})
    if (upper == name) return {upper, direction};
  malformed(word, fmt::format("'{}' is no benchdnn direction (FWD_B, FWD_D, FWD_I, BWD_D, BWD_W, BWD_WB)", value));
}

// One value of --dt (SRC:WEI:DST or one word) or --cfg (the words run together): its precision when convcheck has
// a row for it.
BenchdnnDt read_dt(const std::string &word, const std::string &option, const std::string &value) {
  const std::vector<std::string> parts = split(value, ':');
  const bool words = std::all_of(parts.begin(), parts.end(), [](const std::string &part) {
    return all_of_chars(part, [](int c) { return std::islower(c) | std::isdigit(c); }, "_");
  });
  if (!words || (option == "dt" && parts.size() != 1 && parts.size() != 3) || (option == "cfg" && parts.size() != 1))
    malformed(word, fmt::format("'{}' is no benchdnn data type {}", value,
                                option == "dt" ? "(one word, or SRC:WEI:DST)" : "configuration"));
  const std::optional<BenchdnnPrecision> read = parse_benchdnn_precision(fmt::format("--{}={}", option, value));
  BenchdnnDt dt{fmt::format("--{}={}", option, value), std::nullopt};
  if (read && read->precision && find_precision_row(*read->precision) != nullptr) dt.precision = read->precision;
  return dt;
}

std::vector<std::string> read_tags(const std::string &word, const std::string &value) {
  std::vector<std::string> tags = split(value, ',');
  for (const std::string &tag : tags)
    if (!all_of_chars(tag, [](int c) { return std::isalnum(c); }))
      malformed(word, fmt::format("'{}' is no memory format tag", tag));
  return tags;
}

std::vector<int64_t> read_mbs(const std::string &word, const std::string &value) {
  std::vector<int64_t> mbs;
  for (const std::string &mb : split(value, ',')) {
    if (!all_of_chars(mb, [](int c) { return std::isdigit(c); }) || mb.size() > 9)
      malformed(word, fmt::format("'{}' is not a batch size", mb));
    mbs.push_back(std::stoll(mb));
  }
  return mbs;
}

} // namespace

const std::vector<BenchdnnOption> &benchdnn_options() {
  static const std::vector<BenchdnnOption> table = {
      {"dir", applied, true, {}},
      {"dt", applied, true, {}},
      {"cfg", applied, true, {}},
      {"stag", applied, true, {}},
      {"wtag", applied, true, {}},
      {"dtag", applied, true, {}},
      {"mb", applied, true, {}},
      {"match", applied, false, {}},
      // How oneDNN runs a problem: its algorithm and implementation, scratchpad, threading, what benchdnn reports.
      {"alg", no_effect, true, {}},
      {"skip-impl", no_effect, false, {}},
      {"impl", no_effect, false, {}},
      {"attr-scratchpad", no_effect, true, {}},
      {"attr-deterministic", no_effect, true, {}},
      {"ctx-init", no_effect, true, {}},
      {"ctx-exe", no_effect, true, {}},
      {"allow-enum-tags-only", no_effect, false, {}},
      {"cpu-isa-hints", no_effect, false, {}},
      {"check-ref-impl", no_effect, false, {}},
      {"perf-template", no_effect, false, {}},
      {"mode", no_effect, false, {}},
      {"max-ms-per-prb", no_effect, false, {}},
      {"fix-times-per-prb", no_effect, false, {}},
      {"canonical", no_effect, false, {}},
      {"summary", no_effect, false, {}},
      {"mem-check", no_effect, false, {}},
      {"cold-cache", no_effect, false, {}},
      {"start", no_effect, false, {}},
      {"verbose", no_effect, false, {}},
      // What convcheck does not model. `--bia-dt` gives a direction without one its own bias (benchdnn ignores it
      // for FWD_B and BWD_WB, whose bias is f32); memory --strides make a tensor non-dense.
      {"bia-dt", unmodelled, true, {"undef"}},
      {"strides", unmodelled, true, {"", "::"}},
      {"attr-post-ops", unmodelled, true, {""}},
      {"attr-scales", unmodelled, true, {""}},
      {"attr-zero-points", unmodelled, true, {""}},
      {"attr-fpmath", unmodelled, true, {"", "strict"}},
      {"attr-acc-mode", unmodelled, true, {"", "strict"}},
      {"attr-rounding-mode", unmodelled, true, {""}},
      {"attr-dropout", unmodelled, true, {""}},
      {"inplace", unmodelled, true, {"", "false"}},
  };
  return table;
}

std::string benchdnn_option_name(const std::string &word) {
  const size_t begin = word.find_first_not_of('-');
  return word.substr(begin, word.find('=') == std::string::npos ? std::string::npos : word.find('=') - begin);
}

const BenchdnnOption *find_benchdnn_option(const std::string &name) {
  for (const BenchdnnOption &option : benchdnn_options())
    if (name == option.name) return &option;
  // Any other attribute is a list of values, like those above.
  static const BenchdnnOption attribute{"attr-*", unmodelled, true, {""}};
  return name.rfind("attr-", 0) == 0 ? &attribute : nullptr;
}

void BenchdnnSettings::apply(const std::string &word) {
  const std::string name = benchdnn_option_name(word);
  const size_t equals = word.find('=');
  const std::string value = equals == std::string::npos ? "" : word.substr(equals + 1);
  const BenchdnnSettings defaults;
  if (name == "reset") {
    *this = defaults;
  } else if (value.empty() && (name == "dir" || name == "dt" || name == "cfg" || name == "stag" || name == "wtag" ||
                               name == "dtag" || name == "mb")) {
    // benchdnn's parse_vector_str: an empty list is the option's default (`--stag=`).
    if (name == "dir") dirs = defaults.dirs;
    if (name == "dt" || name == "cfg") dts = defaults.dts;
    if (name == "stag" || name == "wtag" || name == "dtag")
      (name == "stag" ? stags : name == "wtag" ? wtags : dtags) = std::vector<std::string>{"any"};
    if (name == "mb") mbs = defaults.mbs;
  } else if (name == "dir") {
    dirs.clear();
    for (const std::string &dir : split(value, ',')) dirs.push_back(read_dir(word, dir));
  } else if (name == "dt" || name == "cfg") {
    dts.clear();
    for (const std::string &dt : split(value, ',')) dts.push_back(read_dt(word, name, dt));
  } else if (name == "stag" || name == "wtag" || name == "dtag") {
    (name == "stag" ? stags : name == "wtag" ? wtags : dtags) = read_tags(word, value);
  } else if (name == "mb") {
    mbs = read_mbs(word, value);
  } else if (name == "match") {
    try {
      pattern = value.empty() ? std::nullopt : std::optional(std::regex(value));
    } catch (const std::regex_error &error) {
      malformed(word, fmt::format("'{}' is no regular expression ({})", value, error.what()));
    }
    match = value;
  } else {
    const BenchdnnOption *option = find_benchdnn_option(name);
    std::vector<std::string> values = option != nullptr && option->list ? split(value, ',') : std::vector{value};
    const auto set = std::find_if(others.begin(), others.end(), [&](const auto &other) { return other.first == name; });
    if (set == others.end()) others.emplace_back(name, std::move(values));
    else set->second = std::move(values);
  }
}

} // namespace convcheck
