#include "core/numerics/algorithm.hpp"

#include <charconv>
#include <sstream>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/problem/spelling.hpp"

namespace convcheck {

namespace {

constexpr int64_t largest_tile = 8;       // F(8, r): transforms grow ill-conditioned past this
constexpr int64_t largest_point_part = 64; // numerator and denominator of a point

std::string spell(const Point &point) {
  return point.denominator == 1 ? std::to_string(point.numerator)
                                : fmt::format("{}/{}", point.numerator, point.denominator);
}

std::string spell_points(const std::vector<Point> &points) { return joined(points, ",", spell, ""); }

int64_t number(const std::string &text, const std::string &what, const std::string &whole) {
  int64_t value = 0;
  const char *end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || at != end || value < -largest_point_part || value > largest_point_part)
    throw InputError(fmt::format("{} '{}': '{}' is not an integer in [-{}, {}]", what, whole, text,
                                 largest_point_part, largest_point_part));
  return value;
}

Point parse_point(const std::string &text, const std::string &what, const std::string &whole) {
  const size_t slash = text.find('/');
  Point point{number(text.substr(0, slash), what, whole), 1};
  if (slash != std::string::npos) point.denominator = number(text.substr(slash + 1), what, whole);
  if (point.denominator <= 0)
    throw InputError(fmt::format("{} '{}': point '{}' needs a positive denominator", what, whole, text));
  return point;
}

} // namespace

std::vector<Point> lavin_gray_points(int64_t count) {
  std::vector<Point> points{{0, 1}};
  for (int64_t magnitude = 1; static_cast<int64_t>(points.size()) < count; ++magnitude) {
    // 1, 2, then 1/2, then 3, 4, ... : Lavin and Gray's F(6,3) uses 0, +-1, +-2, +-1/2.
    const Point next = magnitude <= 2 ? Point{magnitude, 1} : magnitude == 3 ? Point{1, 2} : Point{magnitude - 1, 1};
    points.push_back(next);
    if (static_cast<int64_t>(points.size()) < count) points.push_back({-next.numerator, next.denominator});
  }
  points.resize(static_cast<size_t>(count));
  return points;
}

std::string describe(const Algorithm &algorithm) {
  switch (algorithm.kind) {
  case AlgorithmKind::direct:
    if (!algorithm.storage_sums) return "direct";
    return algorithm.sums_format ? fmt::format("direct, sums in {}", to_string(*algorithm.sums_format))
                                 : "direct, sums in the result's format";
  case AlgorithmKind::fft: return "fft";
  case AlgorithmKind::winograd: break;
  }
  std::string text = fmt::format("winograd F({},r)", algorithm.tile);
  if (!algorithm.points.empty()) text += fmt::format(" points {}", spell_points(algorithm.points));
  return text;
}

std::string to_string(const Algorithm &algorithm) {
  switch (algorithm.kind) {
  case AlgorithmKind::direct:
    if (!algorithm.storage_sums) return "direct";
    return algorithm.sums_format ? fmt::format("direct:storage:{}", info(*algorithm.sums_format).word)
                                 : "direct:storage";
  case AlgorithmKind::fft: return "fft";
  case AlgorithmKind::winograd: break;
  }
  std::string text = fmt::format("winograd:{}", algorithm.tile);
  if (!algorithm.points.empty()) text += ":" + spell_points(algorithm.points);
  return text;
}

Algorithm parse_algorithm(const std::string &text, const std::string &what) {
  if (text == "direct" || text.empty()) return {};
  if (text == "direct:storage") return {AlgorithmKind::direct, 0, {}, true};
  if (text.starts_with("direct:storage:")) {
    const std::string format = text.substr(15);
    const DType sums = parse_dtype(format, fmt::format("{} '{}': the sums' format", what, text));
    if (info(sums).accumulates) // float32 or float64 sums are the direct class's own
      throw InputError(fmt::format("{} '{}': sums kept in {} are direct (name a storage format: bf16, f16)", what,
                                   text, format));
    return {AlgorithmKind::direct, 0, {}, true, sums};
  }
  if (text == "fft") return {AlgorithmKind::fft, 0, {}};
  if (text == "winograd") return {AlgorithmKind::winograd, 2, {}};
  if (!text.starts_with("winograd:"))
    throw InputError(fmt::format("unknown {} '{}' (direct, direct:storage, direct:storage:bf16, direct:storage:f16, "
                                 "fft, winograd, winograd:M or winograd:M:P0,P1,...)",
                                 what, text));
  std::istringstream parts(text.substr(9));
  std::string tile, points;
  std::getline(parts, tile, ':');
  std::getline(parts, points);
  Algorithm algorithm{AlgorithmKind::winograd, number(tile, what, text), {}};
  if (algorithm.tile < 1 || algorithm.tile > largest_tile)
    throw InputError(fmt::format("{} '{}': output tile {} is not in [1, {}]", what, text, algorithm.tile,
                                 largest_tile));
  std::istringstream list(points);
  for (std::string point; std::getline(list, point, ',');) {
    algorithm.points.push_back(parse_point(point, what, text));
    for (size_t i = 0; i + 1 < algorithm.points.size(); ++i)
      if (algorithm.points[i].numerator * algorithm.points.back().denominator ==
          algorithm.points.back().numerator * algorithm.points[i].denominator)
        throw InputError(fmt::format("{} '{}': point {} is given twice", what, text, point));
  }
  return algorithm;
}

} // namespace convcheck
