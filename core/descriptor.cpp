#include "core/descriptor.hpp"

#include <cctype>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

struct Key {
  const char *key;
  int64_t ConvConfig::*member;
  int64_t default_value; // printed only when different; -1: always printed
};

// Printing order, benchdnn-like.
const Key keys[] = {
    {"g", &ConvConfig::groups, 1},           {"mb", &ConvConfig::batch, -1},
    {"ic", &ConvConfig::in_channels, -1},    {"ih", &ConvConfig::in_height, -1},
    {"iw", &ConvConfig::in_width, -1},       {"oc", &ConvConfig::out_channels, -1},
    {"kh", &ConvConfig::kernel_height, -1},  {"kw", &ConvConfig::kernel_width, -1},
    {"sh", &ConvConfig::stride_height, 1},   {"sw", &ConvConfig::stride_width, 1},
    {"dlh", &ConvConfig::dilation_height, 1}, {"dlw", &ConvConfig::dilation_width, 1},
    {"pt", &ConvConfig::pad_top, 0},         {"pb", &ConvConfig::pad_bottom, 0},
    {"pl", &ConvConfig::pad_left, 0},        {"pr", &ConvConfig::pad_right, 0},
};

const Key *find_key(const std::string &name) {
  for (const Key &key : keys)
    if (name == key.key) return &key;
  return nullptr;
}

[[noreturn]] void fail(const std::string &what, const std::string &text) {
  throw InputError(fmt::format("{} in descriptor '{}'", what, text));
}

// Applies a layout or dtype word; false when `word` is none of them.
bool apply_word(const std::string &word, ConvConfig &config) {
  if (word == "nchw" || word == "nhwc") config.data_layout = parse_data_layout(word);
  else if (word == "oihw" || word == "hwio" || word == "ohwi") config.weight_layout = parse_weight_layout(word);
  else if (word == "f32" || word == "f64") config.dtype = parse_dtype(word);
  else return false;
  return true;
}

} // namespace

std::string format_descriptor(const ConvConfig &config) {
  std::string text;
  for (const Key &key : keys) {
    const int64_t value = config.*key.member;
    if (key.default_value < 0 || value != key.default_value) text += fmt::format("{}{}", key.key, value);
  }
  if (config.data_layout != DataLayout::nchw) text += "_nhwc";
  if (config.weight_layout == WeightLayout::hwio) text += "_hwio";
  if (config.weight_layout == WeightLayout::ohwi) text += "_ohwi";
  if (config.dtype == DType::float64) text += "_f64";
  return text;
}

ConvConfig parse_descriptor(const std::string &text) {
  ConvConfig config;
  std::map<std::string, int64_t> values;
  size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == '_') {
      ++pos;
      continue;
    }
    // The dtype words end in digits, so they are matched whole before the key-value grammar.
    if ((text.compare(pos, 3, "f32") == 0 || text.compare(pos, 3, "f64") == 0) &&
        (pos + 3 == text.size() || text[pos + 3] == '_')) {
      apply_word(text.substr(pos, 3), config);
      pos += 3;
      continue;
    }
    size_t end = pos;
    while (end < text.size() && std::islower(static_cast<unsigned char>(text[end]))) ++end;
    const std::string name = text.substr(pos, end - pos);
    if (name.empty()) fail(fmt::format("unexpected character '{}' at offset {}", text[pos], pos), text);
    size_t digits_end = end;
    while (digits_end < text.size() && std::isdigit(static_cast<unsigned char>(text[digits_end]))) ++digits_end;
    if (digits_end == end) {
      if (!apply_word(name, config)) fail(fmt::format("unknown word '{}'", name), text);
      pos = end;
      continue;
    }
    const Key *key = find_key(name);
    if (key == nullptr) {
      const bool benchdnn = name == "dh" || name == "dw" || name == "ph" || name == "pw" || name == "oh" ||
                            name == "ow" || name == "id" || name == "kd";
      fail(fmt::format("unknown key '{}'{}", name,
                       benchdnn ? " (a benchdnn descriptor? use --format benchdnn)" : ""),
           text);
    }
    const std::string digits = text.substr(end, digits_end - end);
    if (digits.size() > 12) fail(fmt::format("value of '{}' is too large", name), text);
    if (!values.emplace(name, std::stoll(digits)).second) fail(fmt::format("key '{}' given twice", name), text);
    pos = digits_end;
  }
  for (const char *required : {"ic", "oc", "ih", "kh"})
    if (!values.count(required)) fail(fmt::format("missing key '{}'", required), text);
  if (!values.count("iw")) values["iw"] = values["ih"];
  if (!values.count("kw")) values["kw"] = values["kh"];
  for (const auto &[name, value] : values) config.*find_key(name)->member = value;
  return config;
}

} // namespace convcheck
