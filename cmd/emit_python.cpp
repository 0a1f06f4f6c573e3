#include "cmd/emit_python.hpp"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/numerics/algorithm_bound.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/direction.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

std::string doubles_base64(const std::vector<double> &values) {
  static_assert(std::endian::native == std::endian::little, "the script reads little-endian float64");
  return base64(std::string(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(double)));
}

} // namespace

std::string base64(const std::string &bytes) {
  static const char *digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t at = 0; at < bytes.size(); at += 3) {
    const size_t left = std::min<size_t>(3, bytes.size() - at);
    uint32_t triple = 0;
    for (size_t k = 0; k < 3; ++k)
      triple = triple << 8 | (k < left ? static_cast<unsigned char>(bytes[at + k]) : 0u);
    for (size_t k = 0; k < 4; ++k) text += k <= left ? digits[triple >> (18 - 6 * k) & 63] : '=';
  }
  return text;
}

std::string python_string(const std::string &text) {
  std::string literal = "\""; // JSON's escapes are Python's
  for (char ch : text) {
    if (ch == '"' || ch == '\\') literal += '\\';
    if (ch == '\n') literal += "\\n";
    else literal += ch;
  }
  return literal + "\"";
}

std::string read_source(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw InputError(fmt::format("repro --emit: cannot read {}", path));
  if (text.str().find("'''") != std::string::npos)
    throw InputError(fmt::format("repro --emit: {} holds ''' and cannot be inlined", path));
  return text.str();
}

std::string bounds_entries(const CaseFile &case_file, const std::string &finder, const std::vector<Direction> &asked) {
  const Case &c = case_file.conv_case;
  std::string bounds;
  for (Direction direction : asked) {
    const DirectionReference reference = compute_reference(c, direction);
    std::string algorithm_text;
    if (auto found = case_file.algorithms.find(finder); found != case_file.algorithms.end())
      if (auto of = found->second.find(direction); of != found->second.end()) algorithm_text = of->second;
    const AlgorithmBound bound =
        algorithm_bound(c, direction, algorithm_text.empty() ? Algorithm{} : parse_algorithm(algorithm_text), reference);
    if (!bound.unjudgeable.empty()) {
      bounds += fmt::format("    \"{}\": {{\"unjudgeable\": {}}},\n", to_string(direction), python_string(bound.unjudgeable));
      continue;
    }
    bounds += fmt::format("    \"{}\": {{\"algorithm\": {}, \"judged_under\": {}, \"signal_size\": {},\n"
                          "      \"values\": \"{}\"}},\n",
                          to_string(direction), python_string(algorithm_text.empty() ? "direct" : algorithm_text),
                          python_string(bound.judged_under), bound.signal_size,
                          doubles_base64(bound.signal_size ? bound.signal : bound.element));
  }
  return bounds;
}

std::string helper_sources(const std::vector<std::string> &modules) {
  const std::filesystem::path helpers = std::filesystem::path(in_source_tree("oracles")) / "outside" / "python";
  std::string sources;
  for (const std::string &module : modules)
    sources += fmt::format("    \"{}\": r'''{}''',\n", module, read_source((helpers / (module + ".py")).string()));
  return sources;
}

std::string driver_text(const std::string &driver) {
  const std::filesystem::path helpers = std::filesystem::path(in_source_tree("oracles")) / "outside" / "python";
  return read_source((helpers / "inlined_import.py").string()) + "\n\n" + read_source((helpers / driver).string());
}

std::vector<Direction> every_direction(const Case &c) {
  std::vector<Direction> asked;
  for (const DirectionInfo &each : directions(c.problem.op)) asked.push_back(each.direction);
  return asked;
}

} // namespace convcheck
