#include "core/problem/benchdnn_descriptor.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/benchdnn_writer.hpp"

namespace convcheck {

namespace {

// Values above this are refused, so that (oh - 1) * sh + (kh - 1) * (dh + 1) cannot overflow int64 below.
constexpr int64_t max_value = 999'999'999;

// str2desc's keys.
constexpr std::array<const char *, 22> known_keys = {"g",  "mb", "ic", "id", "ih", "iw", "oc", "od",
                                                     "oh", "ow", "kd", "kh", "kw", "sd", "sh", "sw",
                                                     "pd", "ph", "pw", "dd", "dh", "dw"};

[[noreturn]] void fail(const std::string &what, const std::string &text) {
  throw InputError(fmt::format("{} in benchdnn descriptor '{}'", what, text));
}

bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Drops the comment (from the first '#' outside a quoted name) and the blanks around what is left.
std::string strip_comment_and_blanks(const std::string &line) {
  bool quoted = false;
  size_t end = 0;
  for (; end < line.size(); ++end) {
    if (line[end] == '"') quoted = !quoted;
    if (line[end] == '#' && !quoted) break;
  }
  size_t begin = 0;
  while (begin < end && is_blank(line[begin])) ++begin;
  while (end > begin && is_blank(line[end - 1])) --end;
  return line.substr(begin, end - begin);
}

// The key-value pairs of a descriptor and its name, before any meaning is given to them.
struct Entries {
  std::map<std::string, int64_t> values;
  std::string name;

  bool has(const std::string &key) const { return values.count(key) != 0; }
  int64_t get(const std::string &key, int64_t fallback) const {
    const auto found = values.find(key);
    return found == values.end() ? fallback : found->second;
  }
};

// benchdnn keeps everything after `n` as the name, quotes included (it prints them back); we drop one pair.
std::string unquote(const std::string &name) {
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') return name.substr(1, name.size() - 2);
  return name;
}

// Reads the decimal value of `key` that starts at `pos`; returns where its digits end.
size_t read_value(const std::string &text, size_t pos, const std::string &key, int64_t &value) {
  if (pos < text.size() && text[pos] == '-') {
    if (pos + 1 < text.size() && is_digit(text[pos + 1])) fail(fmt::format("key '{}' must not be negative", key), text);
    fail(fmt::format("missing value for key '{}'", key), text);
  }
  size_t end = pos;
  value = 0;
  while (end < text.size() && is_digit(text[end])) {
    value = value * 10 + (text[end] - '0');
    if (value > max_value) fail(fmt::format("value of key '{}' is too large (at most {})", key, max_value), text);
    ++end;
  }
  if (end == pos) fail(fmt::format("missing value for key '{}'", key), text);
  return end;
}

// The syntax of str2desc: keys with values in any order, `_` anywhere, then `n` and the name to the end.
Entries read_entries(const std::string &text) {
  Entries entries;
  size_t pos = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    if (c == '_') {
      ++pos;
      continue;
    }
    if (c == 'n') {
      entries.name = unquote(text.substr(pos + 1));
      break;
    }
    if (!is_lower(c)) fail(fmt::format("unexpected character '{}' at offset {}", c, pos), text);
    size_t key_end = pos;
    while (key_end < text.size() && is_lower(text[key_end])) ++key_end;
    const std::string key = text.substr(pos, key_end - pos);
    if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end())
      fail(fmt::format("unknown key '{}'", key), text);
    int64_t value = 0;
    pos = read_value(text, key_end, key, value);
    const auto [previous, inserted] = entries.values.emplace(key, value);
    if (!inserted && previous->second != value)
      fail(fmt::format("key '{}' given twice with different values {} and {}", key, previous->second, value), text);
  }
  return entries;
}

// benchdnn's CHECK_SET_OR_ZERO: a key that must be given and non-zero.
int64_t required_positive(const Entries &entries, const std::string &key, const std::string &text,
                          const std::string &hint = "") {
  if (!entries.has(key)) fail(fmt::format("missing key '{}'{}", key, hint), text);
  const int64_t value = entries.get(key, 0);
  if (value == 0) fail(fmt::format("key '{}' must be positive", key), text);
  return value;
}

void check_positive_if_given(const Entries &entries, const std::string &key, const std::string &text) {
  if (entries.has(key) && entries.get(key, 0) == 0) fail(fmt::format("key '{}' must be positive", key), text);
}

// One spatial axis in benchdnn's terms: dilation counted from 0, padding -1 while unknown, 0 for "not given".
struct Axis {
  char letter = 'h';
  Op driver = Op::conv;
  int64_t in = 0, out = 0, kernel = 0, stride = 1, pad = -1, dilation = 0;

  std::string key(char what) const { return std::string{what, letter}; }
  // (kh - 1) * (dh + 1) + 1: the input rows one output row reads.
  int64_t extent() const { return (kernel - 1) * (dilation + 1) + 1; }
  // The side whose rows are `stride` apart in the other (a conv's output, a deconv's input), and the other side:
  // benchdnn's deconv formulas are its conv ones with input and output exchanged.
  int64_t strided() const { return driver == Op::conv ? out : in; }
  int64_t dense() const { return driver == Op::conv ? in : out; }
  // The padding at both ends the given sizes need: (o - 1) * s - i + ((k - 1) * (d + 1) + 1) for a conv
  // (desc_t::init_pad_r, conv.hpp), (i - 1) * s - o + ((k - 1) * (d + 1) + 1) for a deconv (deconv.hpp).
  int64_t total_pad() const { return (strided() - 1) * stride - dense() + extent(); }
  // init_pad_r's opp_pad, which makes the output size exactly o. For a conv it is negative when the last window
  // ends before the input does (a strided 1x1 over an even size): convcheck holds that as a crop of the rows no
  // output reads. For a deconv it is negative when o is longer than the taps reach (output rows no tap writes).
  int64_t pad_end() const { return total_pad() - pad; }
};

Axis read_axis(const Entries &entries, char letter, Op driver) {
  Axis axis;
  axis.letter = letter;
  axis.driver = driver;
  axis.in = entries.get(axis.key('i'), 0);
  axis.out = entries.get(axis.key('o'), 0);
  axis.kernel = entries.get(axis.key('k'), 0);
  axis.stride = entries.get(axis.key('s'), 1);
  axis.pad = entries.get(axis.key('p'), -1);
  axis.dilation = entries.get(axis.key('d'), 0);
  return axis;
}

// str2desc's `!no_h`: `ph0`, `sh1` and `dh0` alone leave an axis out; any other entry brings it in.
bool takes_part(const Axis &axis) {
  return (axis.in | axis.kernel | axis.out | axis.dilation) != 0 || axis.stride != 1 || axis.pad >= 1;
}

// str2desc's per-axis block: require input and kernel, then compute the output or deduce the padding.
void complete(Axis &axis, const Entries &entries, const std::string &text, const std::string &hint) {
  axis.in = required_positive(entries, axis.key('i'), text, hint);
  axis.kernel = required_positive(entries, axis.key('k'), text, hint);
  if (axis.out == 0) {
    if (axis.pad < 0) axis.pad = 0;
    // compute_out, conv: (i - extent + 2 * p) / s + 1 with C++ (truncating) division, as benchdnn does: a kernel
    // one row too tall for a strided input still gets one output row, and pad_end() then pads the bottom.
    // deconv (deconv_aux.cpp): (i - 1) * s + extent - 2 * p, every tap written.
    axis.out = axis.driver == Op::conv ? (axis.in - axis.extent() + 2 * axis.pad) / axis.stride + 1
                                       : (axis.in - 1) * axis.stride + axis.extent() - 2 * axis.pad;
    if (axis.out <= 0) fail(fmt::format("computed {} {} is not positive", axis.key('o'), axis.out), text);
  } else if (axis.pad < 0) {
    // compute_pad: half of the padding the given output needs, rounded toward zero; the rest goes to the end.
    // Negative (a crop on both sides) when the given sizes need fewer rows than there are.
    axis.pad = axis.total_pad() / 2;
  }
}

// The axis in convcheck's terms: benchdnn's dilation 0 is convcheck's 1 (none), and the end padding is derived (for
// a deconv, split with output_padding by benchdnn_deconv_end).
SpatialAxis to_spatial_axis(const Axis &a) {
  const SpatialAxis axis{a.in, a.kernel, a.stride, a.dilation + 1, a.pad, a.pad_end()};
  return a.driver == Op::conv ? axis : benchdnn_deconv_end(axis);
}

// Copies every entry of `from` (computed output and deduced padding included) onto `to`, as sanitize_desc does.
void copy_axis(const Axis &from, Axis &to) {
  const char letter = to.letter;
  to = from;
  to.letter = letter;
}

// The layouts the --stag/--dtag and --wtag of a command line name, as the writer spells them (benchdnn_writer.hpp);
// "any" (oneDNN's choice) and an absent tag keep the canonical layouts.
void apply_tags(Problem &problem, const std::map<std::string, std::string> &tags, const std::string &text) {
  for (const char *option : {"--stag", "--dtag"}) {
    const auto tag = tags.find(option);
    if (tag == tags.end() || tag->second == "any") continue;
    bool known = false;
    for (DataLayout layout : {DataLayout::ncx, DataLayout::nxc})
      if (benchdnn_data_tag(layout, problem.ndims) == tag->second) problem.data_layout = layout, known = true;
    if (!known)
      fail(fmt::format("{}={} is no data layout convcheck has for a {}-D problem", option, tag->second, problem.ndims),
           text);
  }
  if (const auto tag = tags.find("--wtag"); tag != tags.end() && tag->second != "any") {
    bool known = false;
    for (WeightLayout layout : {WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi})
      if (benchdnn_weight_tag(layout, problem.groups > 1, problem.ndims, problem.op) == tag->second)
        problem.weight_layout = layout, known = true;
    if (!known) fail(fmt::format("--wtag={} is no weight layout convcheck has for this problem", tag->second), text);
  }
}

} // namespace

SpatialAxis benchdnn_deconv_end(SpatialAxis axis) {
  const int64_t end = axis.pad_end - axis.output_padding; // all the deconv's end depends on (its conv's pad_end)
  const int64_t longer = axis.pad_begin - end;           // the output's rows past those of pad_end = pad_begin
  const bool as_output_padding = longer > 0 && longer < std::max(axis.stride, axis.dilation);
  axis.output_padding = as_output_padding ? longer : 0;
  axis.pad_end = as_output_padding ? axis.pad_begin : end;
  return axis;
}

BenchdnnLine parse_benchdnn_line(const std::string &line, Op driver) {
  BenchdnnLine result;
  std::string text = strip_comment_and_blanks(line);
  if (text.empty()) return result;
  // A whole command line, as `repro --emit benchdnn` writes it: ENV=VALUE... [taskset -c 0] ./benchdnn --conv|--deconv OPTIONS...
  // DESCRIPTOR. The driver and --dt are the line's own; the tags choose the layouts; --dir, --alg=direct and
  // --attr-scratchpad say how oneDNN runs the problem, not which; any other option would change the problem
  // unapplied, so the line is skipped saying so.
  std::vector<std::string> words;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find_first_of(" \t", at), text.size());
    if (end > at) words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  const auto program = std::find_if(words.begin(), words.end(), [](const std::string &word) {
    return word == "benchdnn" || word.ends_with("/benchdnn");
  });
  std::optional<BenchdnnPrecision> command_precision;
  std::map<std::string, std::string> tags;
  if (program != words.end()) {
    // Before the program: environment assignments, and `taskset -c CPUS` (convcheck runs oneDNN on one thread).
    for (auto word = words.begin(); word != program; ++word) {
      if (*word == "taskset" && program - word == 3 && word[1] == "-c") break;
      if (word->find('=') == std::string::npos || word->front() == '-')
        fail(fmt::format("'{}' before the benchdnn program is not an environment assignment", *word), text);
    }
    std::string descriptor;
    for (auto word = program + 1; word != words.end(); ++word) {
      const std::string option = word->substr(0, word->find('='));
      if (*word == "--conv" || *word == "--deconv") {
        driver = *word == "--conv" ? Op::conv : Op::deconv;
      } else if (option == "--dt" || option == "--cfg") {
        command_precision = parse_benchdnn_precision(*word);
      } else if (option == "--stag" || option == "--wtag" || option == "--dtag") {
        tags[option] = word->substr(option.size() + 1);
      } else if (option == "--dir" || *word == "--alg=direct" || option == "--attr-scratchpad") {
      } else if (word->front() == '-') {
        result.skip_reason = fmt::format("option {} in a benchdnn command line is not applied", *word);
        return result;
      } else if (descriptor.empty()) {
        descriptor = *word;
      } else {
        fail(fmt::format("two descriptors ('{}' and '{}') in one benchdnn command line", descriptor, *word), text);
      }
    }
    if (descriptor.empty()) fail("a benchdnn command line without a descriptor", text);
    if (command_precision && !command_precision->refusal.empty()) {
      result.skip_reason = command_precision->refusal;
      return result;
    }
    BenchdnnLine command = parse_benchdnn_line(descriptor, driver);
    if (command.problem && command_precision && command_precision->precision)
      command.problem->precision = *command_precision->precision;
    if (command.problem) apply_tags(*command.problem, tags, text);
    return command;
  }
  if (text.find_first_of(" \t") == std::string::npos) {
    result.precision = parse_benchdnn_precision(text);
    if (result.precision) return result;
  }
  if (text.front() == '-') {
    // Options change what follows them (--mb overrides every later mb, --dir the direction, --batch includes a
    // file); convcheck applies none of them, so the line is reported rather than half-honoured.
    result.skip_reason = "option line: benchdnn options such as --mb, --dir or --batch are not applied";
    return result;
  }
  const Entries entries = read_entries(text);
  result.name = entries.name;

  // str2desc checks these before looking at any spatial axis.
  check_positive_if_given(entries, "g", text);
  required_positive(entries, "ic", text);
  required_positive(entries, "oc", text);
  for (const char *stride : {"sd", "sh", "sw"}) check_positive_if_given(entries, stride, text);

  std::array<Axis, max_ndims> axes = {read_axis(entries, 'd', driver), read_axis(entries, 'h', driver),
                                      read_axis(entries, 'w', driver)};
  Axis &depth = axes[0], &height = axes[1], &width = axes[2];
  const bool has_depth = takes_part(depth), has_height = takes_part(height), has_width = takes_part(width);
  if (!has_depth && !has_height && !has_width)
    fail("no spatial keys (give ih and kh; iw and kw for 1-D; id and kd for 3-D)", text);

  // str2desc completes each axis on its own; sanitize_desc then settles the rank and copies the missing axes.
  const std::string cubic = " (benchdnn copies the height and width keys from the depth ones only when none is given)";
  const std::string square = " (benchdnn copies the width keys from the height ones only when none is given)";
  if (has_depth) complete(depth, entries, text, "");
  if (has_height) complete(height, entries, text, has_depth ? cubic : "");
  if (has_width) complete(width, entries, text, has_depth ? cubic : has_height ? square : "");

  // sanitize_desc: any depth entry makes the problem 3-D, else any height entry 2-D, else it is 1-D. A 3-D
  // descriptor gives height and width entries both or neither (then both copy the depth ones: a cubic problem);
  // a 2-D one without width entries is square, the width a copy of the height (computed output and deduced
  // padding included, and overriding a lone `pw0`).
  const int64_t ndims = has_depth ? 3 : has_height ? 2 : 1;
  if (ndims == 3 && has_height != has_width)
    fail(fmt::format("3-D descriptor gives {} keys but no {} keys (benchdnn takes both or neither)",
                     has_height ? "height" : "width", has_height ? "width" : "height"),
         text);
  if (ndims == 3 && !has_height) {
    copy_axis(depth, height);
    copy_axis(depth, width);
  } else if (ndims == 2 && !has_width) {
    copy_axis(height, width);
  }

  // The axes below the rank keep sanitize_desc's defaults {1, 1, 1, 1, 0, 0}, which are convcheck's SpatialAxis{}.
  Problem problem;
  problem.op = driver;
  problem.ndims = ndims;
  problem.batch = entries.get("mb", 2);
  problem.groups = entries.get("g", 1);
  problem.in_channels = entries.get("ic", 0);
  problem.out_channels = entries.get("oc", 0);
  for (int64_t a = problem.first_axis(); a < max_ndims; ++a)
    problem.axes[static_cast<size_t>(a)] = to_spatial_axis(axes[static_cast<size_t>(a)]);
  result.problem = problem;
  return result;
}

} // namespace convcheck
