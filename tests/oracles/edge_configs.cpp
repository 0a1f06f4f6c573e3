#include "tests/oracles/edge_configs.hpp"

#include <fmt/format.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/problem/op.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck::testing {

namespace {

// The shapes of each rank; every one is crossed with the layout and format variants of its rank.
const std::vector<EdgeConfig> shapes_1d = {
    {"one by one everything", "mb1ic1iw1oc1kw1"},
    {"kernel larger than input with padding", "mb2ic3iw3oc2kw4pl1pr2"},
    {"stride larger than kernel", "mb2ic2iw8oc3kw1sw4"},
    {"dilation with stride", "mb1ic2iw9oc2kw2sw3dlw3pr2"},
    {"depthwise", "g4mb2ic4iw5oc4kw3pl1pr1"},
    {"groups with C/G != K/G", "g3mb2ic6iw7oc9kw2sw2pl1"},
    {"padding on one side only", "mb1ic2iw6oc3kw3pr1"},
    {"everything at once", "g2mb3ic4iw10oc6kw2sw3dlw2pl2pr3"},
};

const std::vector<EdgeConfig> shapes_2d = {
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

const std::vector<EdgeConfig> shapes_3d = {
    {"one by one everything", "mb1ic1id1ih1iw1oc1kd1kh1kw1"},
    {"kernel larger than input with padding", "mb2ic2id2ih3iw2oc2kd3kh2kw3pfr1pbk1pt1pl1pr1"},
    {"stride larger than kernel", "mb1ic2id5ih4iw5oc2kd1kh2kw1sd3sh3sw2"},
    {"dilation with stride", "mb1ic2id7ih5iw6oc2kd2kh2kw2sd2sw2dld3dlh2pfr1pbk2"},
    {"depthwise", "g3mb1ic3id3ih4iw4oc3kd3kh3kw3pfr1pbk1pt1pb1pl1pr1"},
    {"groups with C/G != K/G", "g2mb2ic4id3ih4iw5oc6kd2kh3kw2sd2pfr1pl1"},
    {"D, H and W all different", "mb1ic2id2ih3iw6oc2kd2kh2kw3sw2"},
    {"everything at once", "g2mb2ic4id5ih6iw7oc6kd3kh2kw3sd2sh2sw3dld2pfr1pbk2pt1pr3"},
};

// Negative padding: crops at the beginning, at the end, on several axes, with stride and dilation.
const std::vector<EdgeConfig> crops_1d = {
    {"crop at the beginning", "mb2ic2iw9oc3kw3pl-2pr1"},
    {"crop at the end with stride", "mb1ic2iw7oc2kw2sw2pl1pr-3"},
};
const std::vector<EdgeConfig> crops_2d = {
    {"crops on both axes", "mb2ic3ih7iw6oc2kh3kw2pt-1pb2pl-2pr-1"},
    {"crop with stride and dilation", "g2mb1ic4ih8iw5oc2kh2kw3sh2dlw2pt-3pr1"},
};
const std::vector<EdgeConfig> crops_3d = {
    {"crops on every axis", "mb1ic2id5ih6iw5oc2kd2kh3kw2pfr-1pbk1pt-2pl1pr-1"},
};

} // namespace

std::vector<EdgeConfig> edge_configs(int64_t ndims, bool crops) {
  const std::vector<EdgeConfig> *shapes[] = {&shapes_1d, &shapes_2d, &shapes_3d};
  const std::vector<EdgeConfig> *crop_shapes[] = {&crops_1d, &crops_2d, &crops_3d};
  const std::vector<std::vector<const char *>> variants = {
      {"", "_nwc", "_nwc_wio", "_nwc_owi", "_wio", "_owi", "_f64"},
      {"", "_nhwc", "_nhwc_hwio", "_nhwc_ohwi", "_hwio", "_ohwi", "_f64"},
      {"", "_ndhwc", "_ndhwc_dhwio", "_ndhwc_odhwi", "_dhwio", "_odhwi", "_f64"},
  };
  std::vector<EdgeConfig> list = *shapes[ndims - 1];
  if (crops) list.insert(list.end(), crop_shapes[ndims - 1]->begin(), crop_shapes[ndims - 1]->end());
  std::vector<EdgeConfig> configs;
  for (const EdgeConfig &shape : list)
    for (const char *variant : variants[static_cast<size_t>(ndims - 1)])
      configs.push_back({shape.name, shape.descriptor + variant});
  return configs;
}

std::vector<EdgeConfig> deconv_edge_configs(int64_t ndims, bool crops) {
  const std::vector<std::vector<EdgeConfig>> own = {
      {{"deconv output padding with end padding", "mb2ic2iw5oc3kw3sw2pl1pr1opw1_deconv"},
       {"deconv output padding below dilation", "mb1ic2iw4oc2kw2dlw3pr1opw2_deconv"}},
      {{"deconv output padding with end padding", "g2mb2ic4ih5iw4oc2kh3kw3sh2sw3pt1pb1pl0pr2oph1opw2_deconv"},
       {"deconv output padding below dilation", "mb1ic2ih3iw4oc2kh2kw2dlh3dlw2pb1pr1oph2opw1_deconv"}},
      {{"deconv output padding with end padding",
        "mb1ic2id3ih3iw4oc2kd2kh3kw2sd2sh2sw2pbk1pb1pr1opd1oph1opw1_deconv"}},
  };
  std::vector<EdgeConfig> configs;
  uint64_t pick = 0;
  for (const EdgeConfig &edge : edge_configs(ndims, crops)) {
    const Problem deconv = transposed(parse_descriptor(edge.descriptor), pick++);
    if (is_valid(deconv)) configs.push_back({"deconv of " + edge.name, format_descriptor(deconv)});
  }
  for (const EdgeConfig &edge : own[static_cast<size_t>(ndims - 1)]) configs.push_back(edge);
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
    const bool not_run = outcome.verdict == Verdict::skipped || outcome.verdict == Verdict::held_back;
    if (outcome.verdict == Verdict::failed || (not_run && !allow_skips))
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
