#pragma once
// Any implementation outside convcheck as a shared library with the C ABI of include/convcheck/plugin.h
// (docs/external.md, "The plugin ABI"). `--plugin NAME=PATH` makes it a strategy called NAME that computes one
// direction per call, in the process that runs the case, like a built-in strategy: a crash or a hang inside it
// costs that run's verdict (a crash or timeout finding), the case workers see to that.

#include <string>

#include "core/run/strategy.hpp"

namespace convcheck {

struct PluginSpec {
  std::string name;
  std::string path;
};

/// Parses `--plugin NAME=PATH` (the name rules of --external); throws InputError.
PluginSpec parse_plugin(const std::string &text);

/// The strategy that calls the plugin. Loads it once here, in a forked child, to read its description (its
/// support becomes the strategy's Support); each process that runs cases loads it again on first use. Throws
/// InputError naming the plugin when it cannot be loaded, exports no entry, speaks another ABI version, or crashes
/// or hangs while loading.
Strategy plugin_strategy(const PluginSpec &spec);

} // namespace convcheck
