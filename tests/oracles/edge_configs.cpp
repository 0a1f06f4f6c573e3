#include "tests/oracles/edge_configs.hpp"

#include <fmt/format.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck::testing {

std::vector<EdgeConfig> edge_configs() {
  const std::vector<EdgeConfig> shapes = {
      {"one by one everything", "mb1ic1ih1iw1oc1kh1kw1"},
      {"kernel larger than input with padding", "mb2ic3ih2iw3oc2kh5kw4pt2pb2pl1pr2"},
      {"stride larger than kernel", "mb2ic2ih9iw8oc3kh2kw1sh3sw4"},
      {"dilation with stride", "mb1ic2ih11iw9oc2kh3kw2sh2sw3dlh2dlw3pt1pr2"},
      {"depthwise", "g4mb2ic4ih6iw5oc4kh3kw3pt1pb1pl1pr1"},
      {"groups with C/G != K/G", "g3mb2ic6ih5iw7oc9kh3kw2sh2pt1pl1"},
      {"padding on one side only", "mb1ic2ih5iw6oc3kh3kw3pb2pr1"},
      {"H != W", "mb2ic3ih3iw11oc2kh2kw3sw2"},
      {"everything at once", "g2mb3ic4ih7iw10oc6kh3kw2sh2sw3dlh2pt2pb1pr3"},
  };
  std::vector<EdgeConfig> configs;
  const char *variants[] = {"", "_nhwc", "_nhwc_hwio", "_nhwc_ohwi", "_hwio", "_ohwi", "_f64"};
  for (const EdgeConfig &shape : shapes)
    for (const char *variant : variants) configs.push_back({shape.name, shape.descriptor + variant});
  return configs;
}

std::vector<std::string> disagreements(const std::string &strategy_name, const std::string &descriptor, FillMode fill,
                                       bool allow_skips) {
  const Strategy *strategy = find_strategy(strategy_name);
  if (strategy == nullptr) return {"no strategy " + strategy_name};
  const Problem config = parse_descriptor(descriptor);
  validate(config);
  const Case conv_case = make_case(config, fill, 7, 3);
  const Reference reference = compute_reference(conv_case);
  std::vector<std::string> problems;
  for (Direction direction : all_directions) {
    const Outcome outcome = verify_one(conv_case, reference, *strategy, direction);
    if (outcome.verdict == Verdict::failed || (outcome.verdict == Verdict::skipped && !allow_skips))
      problems.push_back(fmt::format("{} {}: {}", to_string(direction), to_string(outcome.verdict), outcome.detail));
  }
  return problems;
}

bool fails_somewhere(const std::string &strategy, const std::string &descriptor, FillMode fill) {
  for (const std::string &problem : disagreements(strategy, descriptor, fill, true))
    if (problem.find("failed") != std::string::npos) return true;
  return false;
}

} // namespace convcheck::testing
