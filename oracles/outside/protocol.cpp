#include "oracles/outside/protocol.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/input_error.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/fields.hpp"
#include "oracles/outside/declared_support.hpp"

namespace convcheck {

static_assert(std::endian::native == std::endian::little, "frames carry little-endian tensors as the host holds them");

namespace {

using nlohmann::json;

// The header as JSON, or InputError.
json parse_header(const Frame &frame) {
  json header = json::parse(frame.header, nullptr, false);
  if (header.is_discarded() || !header.is_object()) {
    std::string shown = frame.header.substr(0, 60);
    for (char &c : shown)
      if (c < 32 || c > 126) c = '.';
    throw InputError(fmt::format("sent a header that is not a JSON object: '{}'", shown));
  }
  return header;
}

// header[key] as T, or InputError naming the key and what it should be.
template <class T> T member(const json &object, const char *key, const char *what) {
  const auto found = object.find(key);
  if (found == object.end()) throw InputError(fmt::format("sent no \"{}\" ({})", key, what));
  try {
    return found->get<T>();
  } catch (const json::exception &) {
    throw InputError(fmt::format("sent \"{}\": {}, which is not {}", key, found->dump(), what));
  }
}

template <class T> std::optional<T> optional_member(const json &object, const char *key, const char *what) {
  if (!object.contains(key)) return std::nullopt;
  return member<T>(object, key, what);
}

json problem_json(const Problem &problem) {
  json fields = {{"ndims", problem.ndims}};
  for (const IntField &field : int_fields()) {
    if (!field.per_axis()) {
      fields[field.name] = field.get(problem);
      continue;
    }
    // A field added later (output_padding) only when it is not neutral, so a server written before it sees the
    // frames it knows: it is offered only ops it declares, and a conv's is always neutral.
    bool neutral = true;
    for (int64_t axis = problem.first_axis(); axis < max_ndims; ++axis)
      neutral = neutral && field.get(problem, axis) == field.neutral;
    if (field.added_later && neutral) continue;
    json values = json::array();
    for (int64_t axis = problem.first_axis(); axis < max_ndims; ++axis) values.push_back(field.get(problem, axis));
    fields[field.name] = values;
  }
  for (const WordField &field : word_fields()) fields[field.name] = field.get(problem);
  return fields;
}

// A tensor the server sent: its bytes from `payload` at `offset`, which moves past them.
Tensor read_tensor(const json &entry, const std::string &payload, size_t &offset, int64_t max_elements) {
  const auto dtype_name = member<std::string>(entry, "dtype", "a format name");
  // Exactly a format's name, as the protocol spells it: descriptor shorthands ("f32") are not names here.
  std::optional<DType> named;
  std::string names;
  for (const DTypeInfo &row : dtype_table()) {
    if (dtype_name == row.name) named = row.dtype;
    names += (names.empty() ? "" : ", ") + std::string(row.name);
  }
  if (!named) throw InputError(fmt::format("sent a result of dtype '{}', not one of {}", dtype_name, names));
  const DType dtype = *named;
  const auto shape = member<Shape>(entry, "shape", "a list of sizes");
  int64_t elements = 1;
  for (int64_t size : shape) {
    if (size < 0 || (size > 0 && elements > max_elements / size))
      throw InputError(fmt::format("sent a result of shape {} (at most {} elements, none negative)",
                                   format_shape(shape), max_elements));
    elements *= size;
  }
  Tensor tensor = Tensor::uninitialized(dtype, shape);
  visit_typed(tensor, [&](auto *data) {
    const size_t bytes = static_cast<size_t>(elements) * sizeof *data;
    if (bytes > payload.size() - offset)
      throw InputError(fmt::format("sent a payload of {} bytes, shorter than its results", payload.size()));
    std::memcpy(data, payload.data() + offset, bytes);
    offset += bytes;
  });
  return tensor;
}

} // namespace

Frame hello_frame() {
  return {json{{"type", "hello"}, {"protocol", server_protocol_version}, {"convcheck", CONVCHECK_VERSION}}.dump(), {}};
}

ServerHello read_hello(const Frame &frame) {
  const json header = parse_header(frame);
  const auto type = member<std::string>(header, "type", "a string");
  if (type != "hello") throw InputError(fmt::format("answered the hello with a '{}' frame", type));
  const auto version = member<int64_t>(header, "protocol", "an integer");
  if (version != server_protocol_version)
    throw InputError(fmt::format("speaks protocol {}; convcheck speaks {}", version, server_protocol_version));
  ServerHello hello{optional_member<std::string>(header, "name", "a string").value_or(""),
                    optional_member<std::string>(header, "version", "a string").value_or(""), full_support()};
  if (const auto found = header.find("supports"); found != header.end()) {
    if (!found->is_object()) throw InputError(fmt::format("sent \"supports\": {}, which is not an object", found->dump()));
    using Names = std::vector<std::string>;
    DeclaredSupport declared{optional_member<Names>(*found, "ops", "a list of names"),
                             optional_member<Names>(*found, "dtypes", "a list of names"),
                             optional_member<Names>(*found, "data_layouts", "a list of names"),
                             optional_member<Names>(*found, "weight_layouts", "a list of names"),
                             optional_member<std::vector<int64_t>>(*found, "ranks", "a list of integers"),
                             optional_member<bool>(*found, "crops", "true or false")};
    hello.supports = declared_support(declared, &hello.warnings);
    // The shapes taken per axis (a Winograd kernel: kernel 3, stride 1, dilation 1); absent: any.
    using Sizes = std::vector<int64_t>;
    hello.supports.kernels = optional_member<Sizes>(*found, "kernels", "a list of integers").value_or(Sizes{});
    hello.supports.strides = optional_member<Sizes>(*found, "strides", "a list of integers").value_or(Sizes{});
    hello.supports.dilations = optional_member<Sizes>(*found, "dilations", "a list of integers").value_or(Sizes{});
    if (const auto names = optional_member<std::vector<std::string>>(*found, "directions", "a list of names")) {
      hello.directions.emplace();
      std::vector<std::string> known;
      for (const DirectionInfo &each : direction_table()) { // an unknown name is left out, as everywhere in "supports"
        known.push_back(each.name);
        if (std::find(names->begin(), names->end(), each.name) != names->end())
          hello.directions->push_back(each.direction);
      }
      for (const std::string &name : *names)
        if (std::find(known.begin(), known.end(), name) == known.end())
          hello.warnings.push_back(fmt::format(
              "\"directions\" names \"{}\", which convcheck does not know (nearest: \"{}\"): left out", name,
              nearest_name(name, known)));
    }
  }
  if (const auto algorithm = optional_member<std::string>(header, "algorithm", "a string"))
    hello.algorithm = parse_algorithm(*algorithm, "\"algorithm\" of the hello");
  return hello;
}

Frame case_frame(const Case &c, uint64_t id, const std::vector<Direction> &asked) {
  json header = {{"type", "case"},
                 {"id", id},
                 {"descriptor", format_descriptor(c.problem)},
                 {"case_index", c.case_index},
                 {"problem", problem_json(c.problem)}};
  json names = json::array();
  for (Direction direction : asked) names.push_back(to_string(direction));
  header["directions"] = names;
  Frame frame;
  json tensors = json::array();
  for (Role role : input_roles) {
    const Tensor &tensor = c[role];
    tensors.push_back({{"role", to_string(role)}, {"dtype", to_string(tensor.dtype())}, {"shape", tensor.shape()}});
    visit_typed(tensor, [&](const auto *data) {
      frame.payload.append(reinterpret_cast<const char *>(data), static_cast<size_t>(tensor.size()) * sizeof *data);
    });
  }
  header["tensors"] = tensors;
  frame.header = header.dump();
  return frame;
}

RunResults read_reply(const Frame &frame, const Case &c, uint64_t id, int64_t max_elements) {
  const json header = parse_header(frame);
  const auto type = member<std::string>(header, "type", "a string");
  const auto answered = member<int64_t>(header, "id", "an integer");
  if (answered != static_cast<int64_t>(id))
    throw InputError(fmt::format("answered request {} when request {} was asked", answered, id));
  if (type == "unsupported")
    return every_direction_skipped(c.problem.op,
                           "unsupported by the server: " + member<std::string>(header, "reason", "a string"));
  if (type == "error")
    return every_direction_failed(c.problem.op,
                           "the server reported an error: " + member<std::string>(header, "message", "a string"));
  if (type != "results")
    throw InputError(fmt::format("answered with a '{}' frame (results, unsupported or error expected)", type));

  RunResults runs;
  size_t offset = 0;
  for (const json &entry : member<json>(header, "results", "a list")) {
    if (!entry.is_object()) throw InputError(fmt::format("sent a result that is not an object: {}", entry.dump()));
    const auto name = member<std::string>(entry, "direction", "a direction name");
    const std::optional<Direction> direction = direction_named(name);
    bool of_op = false;
    for (const DirectionInfo &each : directions(c.problem.op)) of_op = of_op || (direction && each.direction == *direction);
    if (!of_op) throw InputError(fmt::format("sent a result for direction '{}', which {} has not", name, to_string(c.problem.op)));
    if (runs.count(*direction)) throw InputError(fmt::format("sent two {} results", name));
    Tensor result = read_tensor(entry, frame.payload, offset, max_elements);
    const DType wanted = result_dtype(c.problem, *direction);
    runs[*direction].result = result.dtype() == wanted ? std::move(result) : result.cast(wanted);
    if (const auto algorithm = optional_member<std::string>(entry, "algorithm", "a string"))
      runs[*direction].algorithm = parse_algorithm(*algorithm, fmt::format("\"algorithm\" of the {} result", name));
  }
  if (offset != frame.payload.size())
    throw InputError(fmt::format("sent a payload of {} bytes; its results take {}", frame.payload.size(), offset));
  const json skipped = optional_member<json>(header, "skipped", "an object").value_or(json::object());
  for (const DirectionInfo &each : directions(c.problem.op)) {
    if (runs.count(each.direction)) continue;
    const auto reason = optional_member<std::string>(skipped, each.name, "a string");
    runs[each.direction].skipped = reason ? "skipped by the server: " + *reason
                                          : fmt::format("the server returned no {} result", each.name);
  }
  return runs;
}

} // namespace convcheck
