#include "core/problem/benchdnn_descriptor.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

// Values above this are refused, so that (oh - 1) * sh + (kh - 1) * (dh + 1) cannot overflow int64 below.
constexpr int64_t max_value = 999'999'999;

// str2desc's keys. The depth ones are recognised only to say that the descriptor is 3-D.
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
  int64_t in = 0, out = 0, kernel = 0, stride = 1, pad = -1, dilation = 0;

  std::string key(char what) const { return std::string{what, letter}; }
  // (kh - 1) * (dh + 1) + 1: the input rows one output row reads.
  int64_t extent() const { return (kernel - 1) * (dilation + 1) + 1; }
  // desc_t::init_pad_r (conv.hpp): opp_pad = (o - 1) * s - i + ((k - 1) * (d + 1) + 1) - p, which makes
  // (i + p + opp_pad - extent) / s + 1 == o exactly.
  int64_t pad_end() const { return (out - 1) * stride - in + extent() - pad; }
};

Axis read_axis(const Entries &entries, char letter) {
  Axis axis;
  axis.letter = letter;
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
    // compute_out: (i - extent + 2 * p) / s + 1 with C++ (truncating) division, as benchdnn does: a kernel one
    // row too tall for a strided input still gets one output row, and pad_end() then pads the bottom.
    if (axis.pad < 0) axis.pad = 0;
    axis.out = (axis.in - axis.extent() + 2 * axis.pad) / axis.stride + 1;
    if (axis.out <= 0) fail(fmt::format("computed {} {} is not positive", axis.key('o'), axis.out), text);
  } else if (axis.pad < 0) {
    // compute_pad: half of the padding the given output needs, rounded toward zero; the rest goes to the end.
    axis.pad = ((axis.out - 1) * axis.stride - axis.in + axis.extent()) / 2;
  }
}

// sanitize_desc's 1-D case: the missing height is a unit axis (defaults {1, 1, 1, 1, 0, 0}).
Axis unit_axis(char letter) {
  Axis axis;
  axis.letter = letter;
  axis.in = axis.out = axis.kernel = 1;
  axis.pad = 0;
  return axis;
}

// The first negative padding, as a skip reason; empty when all four are >= 0.
std::string negative_padding(const Axis &height, const Axis &width) {
  const std::array<std::pair<const char *, int64_t>, 4> pads = {{{"deduced pad_top", height.pad},
                                                                 {"derived pad_bottom", height.pad_end()},
                                                                 {"deduced pad_left", width.pad},
                                                                 {"derived pad_right", width.pad_end()}}};
  for (const auto &[what, value] : pads)
    if (value < 0) return fmt::format("{} {} is negative (convcheck needs padding >= 0)", what, value);
  return "";
}

Problem to_config(const Entries &entries, const Axis &height, const Axis &width) {
  Problem problem;
  problem.batch = entries.get("mb", 2);
  problem.groups = entries.get("g", 1);
  problem.in_channels = entries.get("ic", 0);
  problem.out_channels = entries.get("oc", 0);
  auto axis = [](const Axis &a) {
    // benchdnn's dilation 0 is convcheck's 1: no dilation
    return SpatialAxis{a.in, a.kernel, a.stride, a.dilation + 1, a.pad, a.pad_end()};
  };
  problem.axes[1] = axis(height);
  problem.axes[2] = axis(width);
  return problem;
}

} // namespace

BenchdnnLine parse_benchdnn_line(const std::string &line) {
  BenchdnnLine result;
  const std::string text = strip_comment_and_blanks(line);
  if (text.empty()) return result;
  if (text.front() == '-') {
    // Options change what follows them (--mb overrides every later mb, --dir the direction, --batch includes a
    // file); convcheck applies none of them, so the line is reported rather than half-honoured.
    result.skip_reason = "option line: benchdnn options such as --mb, --dir or --batch are not applied";
    return result;
  }
  const Entries entries = read_entries(text);
  result.name = entries.name;

  // str2desc checks these before looking at any spatial axis, for 3-D descriptors too.
  check_positive_if_given(entries, "g", text);
  required_positive(entries, "ic", text);
  required_positive(entries, "oc", text);
  for (const char *stride : {"sd", "sh", "sw"}) check_positive_if_given(entries, stride, text);

  if (takes_part(read_axis(entries, 'd'))) {
    result.skip_reason = "3-D descriptor (depth keys given): convcheck runs 1-D and 2-D convolutions only";
    return result;
  }
  Axis height = read_axis(entries, 'h');
  Axis width = read_axis(entries, 'w');
  const bool has_height = takes_part(height);
  const bool has_width = takes_part(width);
  if (!has_height && !has_width) fail("no spatial keys (give ih and kh, or iw and kw for 1-D)", text);
  if (has_height) complete(height, entries, text, "");
  if (has_width)
    complete(width, entries, text,
             has_height ? " (benchdnn copies the width keys from the height ones only when none is given)" : "");

  // sanitize_desc: a 2-D descriptor without width entries is square, every width entry a copy of the height
  // one (computed output and deduced padding included, and overriding a lone `pw0`); a 1-D one has H = R = 1.
  if (!has_width) {
    width = height;
    width.letter = 'w';
  } else if (!has_height) {
    height = unit_axis('h');
  }

  if (const std::string negative = negative_padding(height, width); !negative.empty()) {
    result.skip_reason = negative;
    return result;
  }
  result.problem = to_config(entries, height, width);
  return result;
}

} // namespace convcheck
