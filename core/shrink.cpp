#include "core/shrink.hpp"

#include <chrono>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

bool is_valid(const ConvConfig &config) {
  try {
    validate(config);
    return true;
  } catch (const InputError &) {
    return false;
  }
}

using Setter = void (*)(ConvConfig &, int64_t);

// Candidates for one integer knob, from `target` upward (rc::shrink::towards order).
rc::Seq<ConvConfig> knob(const ConvConfig &config, int64_t value, int64_t target, Setter set) {
  return rc::seq::map(rc::shrink::towards<int64_t>(value, target), [config, set](int64_t v) {
    ConvConfig smaller = config;
    set(smaller, v);
    return smaller;
  });
}

template <class Enum> rc::Seq<ConvConfig> reset(const ConvConfig &config, Enum ConvConfig::*member, Enum canonical) {
  if (config.*member == canonical) return rc::Seq<ConvConfig>();
  ConvConfig smaller = config;
  smaller.*member = canonical;
  return rc::seq::just(smaller);
}

} // namespace

rc::Seq<ConvConfig> shrink_config(const ConvConfig &c) {
  // Channel knobs work per group, so shrinking the group count keeps C and K multiples of G.
  const int64_t in_per_group = c.in_channels_per_group(), out_per_group = c.out_channels_per_group();
  return rc::seq::filter(
      rc::seq::concat(
          knob(c, c.groups, 1,
               [](ConvConfig &n, int64_t g) {
                 n.in_channels = n.in_channels_per_group() * g;
                 n.out_channels = n.out_channels_per_group() * g;
                 n.groups = g;
               }),
          knob(c, in_per_group, 1, [](ConvConfig &n, int64_t v) { n.in_channels = n.groups * v; }),
          knob(c, out_per_group, 1, [](ConvConfig &n, int64_t v) { n.out_channels = n.groups * v; }),
          knob(c, c.batch, 1, [](ConvConfig &n, int64_t v) { n.batch = v; }),
          knob(c, c.kernel_height, 1, [](ConvConfig &n, int64_t v) { n.kernel_height = v; }),
          knob(c, c.kernel_width, 1, [](ConvConfig &n, int64_t v) { n.kernel_width = v; }),
          knob(c, c.in_height, 1, [](ConvConfig &n, int64_t v) { n.in_height = v; }),
          knob(c, c.in_width, 1, [](ConvConfig &n, int64_t v) { n.in_width = v; }),
          knob(c, c.stride_height, 1, [](ConvConfig &n, int64_t v) { n.stride_height = v; }),
          knob(c, c.stride_width, 1, [](ConvConfig &n, int64_t v) { n.stride_width = v; }),
          knob(c, c.dilation_height, 1, [](ConvConfig &n, int64_t v) { n.dilation_height = v; }),
          knob(c, c.dilation_width, 1, [](ConvConfig &n, int64_t v) { n.dilation_width = v; }),
          knob(c, c.pad_top, 0, [](ConvConfig &n, int64_t v) { n.pad_top = v; }),
          knob(c, c.pad_bottom, 0, [](ConvConfig &n, int64_t v) { n.pad_bottom = v; }),
          knob(c, c.pad_left, 0, [](ConvConfig &n, int64_t v) { n.pad_left = v; }),
          knob(c, c.pad_right, 0, [](ConvConfig &n, int64_t v) { n.pad_right = v; }),
          reset(c, &ConvConfig::data_layout, DataLayout::nchw),
          reset(c, &ConvConfig::weight_layout, WeightLayout::oihw)),
      is_valid);
}

ShrinkResult shrink(const ConvConfig &config, const std::function<bool(const ConvConfig &)> &still_fails,
                    size_t max_tries, double max_seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
  ShrinkResult result{config, 0, 0};
  rc::Shrinkable<ConvConfig> current = rc::shrinkable::shrinkRecur(config, &shrink_config);
  for (bool progressed = true; progressed && result.tries < max_tries;) {
    progressed = false;
    auto children = current.shrinks();
    while (auto child = children.next()) {
      if (++result.tries > max_tries || std::chrono::steady_clock::now() > deadline) break;
      if (still_fails(child->value())) {
        current = *child;
        result.config = current.value();
        ++result.steps;
        progressed = true;
        break;
      }
    }
  }
  return result;
}

} // namespace convcheck
