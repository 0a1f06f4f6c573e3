#include "core/problem/descriptor.hpp"

#include "core/problem/precision_table.hpp"

#include <cctype>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/spelling.hpp"
#include "core/problem/fields.hpp"

namespace convcheck {

namespace {

// A descriptor key: the field and the axis it sets (0 for problem-wide fields).
struct Key {
  const IntField *field;
  int64_t axis;
};

std::optional<Key> find_key(const std::string &name) {
  for (const IntField &field : int_fields())
    for (int64_t a = 0; a < (field.per_axis() ? max_ndims : 1); ++a)
      if (field.keys[static_cast<size_t>(a)] != nullptr && name == field.keys[static_cast<size_t>(a)])
        return Key{&field, field.per_axis() ? a : 0};
  return std::nullopt;
}

[[noreturn]] void fail(const std::string &what, const std::string &text) {
  throw InputError(fmt::format("{} in descriptor '{}'", what, text));
}

void append_key(std::string &text, const IntField &field, const Problem &p, int64_t axis) {
  const int64_t value = field.get(p, axis);
  if (field.always_printed || value != field.neutral)
    text += fmt::format("{}{}", field.keys[static_cast<size_t>(field.per_axis() ? axis : 0)], value);
}

std::string format_precision(const Precision &precision) {
  if (const auto single = precision.single()) return *single == DType::float32 ? "" : info(*single).word;
  return precision_words(precision);
}

// The words after the keys, applied once the rank is known. False when `word` is none of them.
bool apply_word(const std::string &word, Problem &p, const std::string &text) {
  if (const auto rank = data_layout_rank(word)) {
    if (*rank != p.ndims) fail(fmt::format("layout '{}' is not {}-D like the keys", word, p.ndims), text);
    p.data_layout = parse_data_layout(word, p.ndims);
    return true;
  }
  if (const auto rank = weight_layout_rank(word)) {
    if (*rank != p.ndims) fail(fmt::format("layout '{}' is not {}-D like the keys", word, p.ndims), text);
    p.weight_layout = parse_weight_layout(word, p.ndims);
    return true;
  }
  if (word == "conv") {
    p.op = parse_op(word);
    return true;
  }
  std::vector<DType> dtypes;
  for (size_t begin = 0; begin <= word.size();) {
    const size_t end = std::min(word.find(':', begin), word.size());
    const std::string name = word.substr(begin, end - begin);
    bool found = false;
    for (const DTypeInfo &row : dtype_table())
      if (name == row.word) dtypes.push_back(row.dtype), found = true;
    if (!found) return false;
    begin = end + 1;
  }
  if (dtypes.size() == 1) p.precision = Precision::uniform(dtypes[0]);
  else if (dtypes.size() == 4) p.precision = {dtypes[0], dtypes[1], dtypes[2], dtypes[3]};
  else fail(fmt::format("formats '{}' are not one word or four (src:weight:dst:acc)", word), text);
  return true;
}

// Fills the missing sizes of the rank's axes from the nearest given axis, outer first.
void fill_sizes(std::map<std::string, int64_t> &values, const IntField &field, int64_t ndims,
                const std::string &text) {
  const int64_t first = max_ndims - ndims;
  auto given = [&](int64_t a) { return values.count(field.keys[static_cast<size_t>(a)]) != 0; };
  bool any = false;
  for (int64_t a = first; a < max_ndims; ++a) any = any || given(a);
  if (!any) fail(fmt::format("missing key '{}'", field.keys[static_cast<size_t>(ndims == 1 ? 2 : 1)]), text);
  for (int64_t a = first; a < max_ndims; ++a) {
    if (given(a)) continue;
    for (int64_t distance = 1; distance < max_ndims; ++distance) {
      if (a - distance >= first && given(a - distance)) {
        values[field.keys[static_cast<size_t>(a)]] = values[field.keys[static_cast<size_t>(a - distance)]];
        break;
      }
      if (a + distance < max_ndims && given(a + distance)) {
        values[field.keys[static_cast<size_t>(a)]] = values[field.keys[static_cast<size_t>(a + distance)]];
        break;
      }
    }
  }
}

} // namespace

std::string format_descriptor(const Problem &p) {
  std::string text;
  const auto fields = int_fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const IntField &field = fields[i];
    if (!field.per_axis()) {
      append_key(text, field, p, 0);
      continue;
    }
    // A pair of rows (padding begin and end) prints axis by axis: pt pb pl pr.
    const bool paired = field.print_pair != 0 && i + 1 < fields.size() && fields[i + 1].print_pair == field.print_pair;
    for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
      append_key(text, field, p, a);
      if (paired) append_key(text, fields[i + 1], p, a);
    }
    if (paired) ++i;
  }
  if (p.op != Op::conv) text += "_" + to_string(p.op);
  if (p.data_layout != DataLayout::ncx) text += "_" + lowercase(to_string(p.data_layout, p.ndims));
  if (p.weight_layout != WeightLayout::oix) text += "_" + lowercase(to_string(p.weight_layout, p.ndims));
  if (const std::string formats = format_precision(p.precision); !formats.empty()) text += "_" + formats;
  return text;
}

Problem parse_descriptor(const std::string &text) {
  Problem p;
  std::map<std::string, int64_t> values;
  std::vector<std::string> words;
  size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == '_') {
      ++pos;
      continue;
    }
    size_t end = pos;
    while (end < text.size() && std::islower(static_cast<unsigned char>(text[end]))) ++end;
    const std::string name = text.substr(pos, end - pos);
    if (name.empty()) fail(fmt::format("unexpected character '{}' at offset {}", text[pos], pos), text);
    const std::optional<Key> key = find_key(name);
    const bool has_value = end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '-');
    if (!key || !has_value) {
      // A word: a layout or formats, which may hold digits and colons (f32:f32:f32:f64); it runs to the next `_`.
      const bool benchdnn = name == "dh" || name == "dw" || name == "ph" || name == "pw" || name == "oh" ||
                            name == "ow" || name == "dd" || name == "pd" || name == "od";
      if (benchdnn) fail(fmt::format("unknown key '{}' (a benchdnn descriptor? use --format benchdnn)", name), text);
      size_t word_end = end;
      while (word_end < text.size() && text[word_end] != '_') {
        const char c = text[word_end];
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != ':')
          fail(fmt::format("unexpected character '{}' at offset {}", c, word_end), text);
        ++word_end;
      }
      words.push_back(text.substr(pos, word_end - pos));
      pos = word_end;
      continue;
    }
    size_t digits_end = end;
    const bool negative = digits_end < text.size() && text[digits_end] == '-';
    if (negative) {
      if (!key->field->may_be_negative) fail(fmt::format("key '{}' must not be negative", name), text);
      ++digits_end;
    }
    const size_t digits_begin = digits_end;
    while (digits_end < text.size() && std::isdigit(static_cast<unsigned char>(text[digits_end]))) ++digits_end;
    const std::string digits = text.substr(digits_begin, digits_end - digits_begin);
    if (digits.empty()) fail(fmt::format("missing value for key '{}'", name), text);
    if (digits.size() > 12) fail(fmt::format("value of '{}' is too large", name), text);
    const int64_t value = std::stoll(digits) * (negative ? -1 : 1);
    if (!values.emplace(name, value).second) fail(fmt::format("key '{}' given twice", name), text);
    pos = digits_end;
  }
  for (const char *required : {"ic", "oc"})
    if (!values.count(required)) fail(fmt::format("missing key '{}'", required), text);
  // The rank: the outermost axis any per-axis key names.
  p.ndims = 1;
  for (const auto &[name, value] : values) {
    const Key key = *find_key(name);
    if (key.field->per_axis()) p.ndims = std::max(p.ndims, max_ndims - key.axis);
  }
  fill_sizes(values, *find_int_field("in_size"), p.ndims, text);
  fill_sizes(values, *find_int_field("kernel_size"), p.ndims, text);
  for (const auto &[name, value] : values) {
    const Key key = *find_key(name);
    key.field->set(p, key.axis, value);
  }
  for (const std::string &word : words)
    if (!apply_word(word, p, text)) fail(fmt::format("unknown word '{}'", word), text);
  return p;
}

} // namespace convcheck
