#include "oracles/outside/plugin.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include <dlfcn.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/input_error.hpp"
#include "core/problem/op.hpp"
#include "core/process/forked.hpp"
#include "core/process/wire.hpp"
#include "core/tensor/layout.hpp"
#include "include/convcheck/plugin.h"
#include "oracles/outside/external.hpp"
#include "oracles/outside/declared_support.hpp"
#include "oracles/outside/plugin_abi.hpp"

namespace convcheck {

namespace {

constexpr uint32_t oldest_abi_version = 1;
// The first version whose problem carries output_padding: an older plugin is offered no op that has one (deconv).
constexpr uint32_t output_padding_abi_version = 3;

// The plugin's library in this process, opened on first use. A forked child inherits it opened.
class LoadedPlugin {
public:
  explicit LoadedPlugin(PluginSpec spec) : spec_(std::move(spec)) {}

  /// The plugin's description; throws InputError naming what is wrong with the library.
  const convcheck_plugin &get() {
    if (plugin_ == nullptr) plugin_ = load();
    return *plugin_;
  }
  const PluginSpec &spec() const { return spec_; }

private:
  const convcheck_plugin *load() const {
    // RTLD_NOW: a symbol the library lacks is an error here, when it is checked, not a crash in the middle of a run.
    void *library = dlopen(spec_.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) throw InputError(fmt::format("plugin '{}' cannot be loaded: {}", spec_.name, dlerror()));
    const auto entry = reinterpret_cast<convcheck_plugin_entry_fn>(dlsym(library, "convcheck_plugin_entry"));
    if (entry == nullptr)
      throw InputError(fmt::format("plugin '{}' ({}) exports no convcheck_plugin_entry", spec_.name, spec_.path));
    // The newest version first; a plugin built against an older header answers NULL to it and speaks its own.
    uint32_t asked = CONVCHECK_PLUGIN_ABI_VERSION;
    const convcheck_plugin *plugin = entry(asked);
    while (plugin == nullptr && asked > oldest_abi_version) plugin = entry(--asked);
    if (plugin == nullptr)
      throw InputError(fmt::format("plugin '{}' ({}) does not speak any ABI version from {} to {}", spec_.name,
                                   spec_.path, oldest_abi_version, CONVCHECK_PLUGIN_ABI_VERSION));
    if (plugin->abi_version != asked)
      throw InputError(fmt::format("plugin '{}' ({}) is ABI version {}; convcheck speaks {}", spec_.name, spec_.path,
                                   plugin->abi_version, CONVCHECK_PLUGIN_ABI_VERSION));
    if (plugin->run == nullptr)
      throw InputError(fmt::format("plugin '{}' ({}) has no run function", spec_.name, spec_.path));
    return plugin;
  }

  PluginSpec spec_;
  const convcheck_plugin *plugin_ = nullptr;
};

// The names of a NULL-terminated list, or nullopt for a NULL list.
std::optional<std::vector<std::string>> names(const char *const *list) {
  if (list == nullptr) return std::nullopt;
  std::vector<std::string> result;
  for (; *list != nullptr; ++list) result.emplace_back(*list);
  return result;
}

DeclaredSupport declared_by(const convcheck_plugin &plugin) {
  DeclaredSupport declared{names(plugin.ops), names(plugin.dtypes), names(plugin.data_layouts),
                           names(plugin.weight_layouts), std::nullopt, plugin.crops != 0};
  if (plugin.ranks != nullptr) {
    declared.ranks.emplace();
    for (const int32_t *rank = plugin.ranks; *rank != 0; ++rank) declared.ranks->push_back(*rank);
  }
  return declared;
}

// What the probe sends back: name, description, then the declaration (each list: present, count, items).
template <class T> void put_list(WireWriter &out, const std::optional<std::vector<T>> &list) {
  out.put(list.has_value());
  if (!list) return;
  out.put(static_cast<uint64_t>(list->size()));
  for (const T &item : *list) out.put(item);
}

template <class T> std::optional<std::vector<T>> get_list(WireReader &in) {
  if (!in.get<bool>()) return std::nullopt;
  std::vector<T> list(in.get<uint64_t>());
  for (T &item : list) {
    if constexpr (std::is_same_v<T, std::string>) item = in.get_string();
    else item = in.get<T>();
  }
  return list;
}

/// A version-2 list of sizes ending with 0 (NULL: any, the empty list); throws InputError on a size under 0 or a
/// list with no 0 within a bound, rather than reading on through the plugin's memory.
std::vector<int64_t> sizes(const int64_t *list, const char *what, const PluginSpec &spec) {
  constexpr size_t longest = 64;
  std::vector<int64_t> result;
  for (; list != nullptr && *list != 0; ++list) {
    if (*list < 0 || result.size() == longest)
      throw InputError(fmt::format("plugin '{}' ({}) declares {} {}", spec.name, spec.path, what,
                                   *list < 0 ? fmt::format("with size {}", *list)
                                             : fmt::format("with no 0 ending it within {} sizes", longest)));
    result.push_back(*list);
  }
  return result;
}

// What the probe sends back: the ABI version, name, description, the declaration (each list: present, count,
// items), then the version-2 fields (the algorithm class and the kernels, strides and dilations taken; "" and empty
// for version 1).
std::string describe(const convcheck_plugin &plugin, const PluginSpec &spec) {
  const DeclaredSupport declared = declared_by(plugin);
  WireWriter out;
  out.put(plugin.abi_version);
  out.put(std::string(plugin.name ? plugin.name : ""));
  out.put(std::string(plugin.description ? plugin.description : ""));
  for (const auto *list : {&declared.ops, &declared.dtypes, &declared.data_layouts, &declared.weight_layouts})
    put_list(out, *list);
  put_list(out, declared.ranks);
  out.put(*declared.crops);
  // A version-1 description ends at `run`: the fields after it are not the plugin's to read.
  const bool second = plugin.abi_version >= 2;
  out.put(std::string(second && plugin.algorithm != nullptr ? plugin.algorithm : ""));
  for (const auto &[list, what] : {std::pair{second ? plugin.kernels : nullptr, "kernels"},
                                   std::pair{second ? plugin.strides : nullptr, "strides"},
                                   std::pair{second ? plugin.dilations : nullptr, "dilations"}})
    put_list(out, std::optional{sizes(list, what, spec)});
  return out.bytes();
}

Tensor run_direction(LoadedPlugin &loaded, const Case &c, Direction direction) {
  const convcheck_plugin &plugin = loaded.get();
  const Problem &problem = c.problem;
  const DirectionInfo &what = info(direction);
  AbiProblem abi_problem(problem);
  const AbiTensor first(c[what.reads[0]], what.reads[0], layout_of(problem, what.reads[0]));
  const AbiTensor second(c[what.reads[1]], what.reads[1], layout_of(problem, what.reads[1]));
  const convcheck_tensor inputs[2] = {first.abi, second.abi};
  // NaN first: an element the plugin does not write is a finding, not whatever the allocator left there.
  Tensor canonical_result = Tensor::uninitialized(result_dtype(problem, direction), result_shape(problem, direction));
  visit_typed(canonical_result, [&](auto *data) {
    std::fill(data, data + canonical_result.size(), round_to<std::remove_pointer_t<decltype(data)>>(NAN));
  });
  AbiTensor result(canonical_result, what.produces, layout_of(problem, what.produces));
  char message[512] = "";
  convcheck_run run{what.name, inputs, 2, &result.abi, message, sizeof message};
  if (plugin.run(&abi_problem.abi, &run) != CONVCHECK_OK) {
    message[sizeof message - 1] = '\0';
    throw std::runtime_error(fmt::format("the plugin failed: {}", message[0] ? message : "no message"));
  }
  if (result.held.empty()) return canonical_result;
  return is_weight_role(what.produces) ? from_weight_layout(result.held, problem.weight_layout)
                                       : from_data_layout(result.held, problem.data_layout);
}

// Why a plugin of `abi_version` cannot be offered `problem` whatever it declares ("" when it can): before version 3
// its problem struct ends before output_padding, so a deconv would reach it with an output size it cannot explain.
std::string version_refusal(uint32_t abi_version, const Problem &problem) {
  if (abi_version >= output_padding_abi_version || !info(problem.op).has_output_padding) return {};
  return fmt::format("op {} needs plugin ABI version {} (output_padding); the plugin speaks version {}",
                     to_string(problem.op), output_padding_abi_version, abi_version);
}

std::string refusal(LoadedPlugin &loaded, const Problem &problem, Direction direction) {
  const convcheck_plugin &plugin = loaded.get();
  if (plugin.unsupported == nullptr) return {};
  AbiProblem abi_problem(problem);
  char reason[512] = "";
  if (plugin.unsupported(&abi_problem.abi, to_string(direction).c_str(), reason, sizeof reason) == 0) return {};
  reason[sizeof reason - 1] = '\0';
  return fmt::format("unsupported by the plugin: {}", reason[0] ? reason : "no reason given");
}

} // namespace

PluginSpec parse_plugin(const std::string &text) {
  const ExternalSpec parsed = parse_external(text, "plugin", "path");
  return PluginSpec{parsed.name, parsed.command};
}

Strategy plugin_strategy(const PluginSpec &spec) {
  auto loaded = std::make_shared<LoadedPlugin>(spec);
  const ForkedEnd probe = run_forked({[&] { return describe(loaded->get(), spec); }}, 1, 30)[0];
  if (probe.termination.kind == Termination::Kind::threw) throw InputError(probe.termination.message);
  if (!probe.returned())
    throw InputError(fmt::format("plugin '{}' ({}) {} while loading: {}", spec.name, spec.path,
                                 probe.termination.kind == Termination::Kind::timed_out ? "hung" : "crashed",
                                 probe.termination.describe()));
  WireReader in(probe.payload);
  const auto abi_version = in.get<uint32_t>();
  const std::string name = in.get_string(), description = in.get_string();
  DeclaredSupport declared;
  for (auto *list : {&declared.ops, &declared.dtypes, &declared.data_layouts, &declared.weight_layouts})
    *list = get_list<std::string>(in);
  declared.ranks = get_list<int64_t>(in);
  declared.crops = in.get<bool>();
  const std::string algorithm = in.get_string();
  const std::vector<int64_t> kernels = *get_list<int64_t>(in), strides = *get_list<int64_t>(in),
                             dilations = *get_list<int64_t>(in);

  Strategy strategy;
  strategy.outside = true;
  strategy.name = spec.name;
  strategy.description = fmt::format("plugin {}{}{}", spec.path, name.empty() ? "" : ": " + name,
                                     description.empty() ? "" : " (" + description + ")");
  std::vector<std::string> warnings;
  strategy.supports = declared_support(declared, &warnings);
  for (const std::string &warning : warnings) {
    strategy.declaration_warnings.push_back(fmt::format("{}: its description's {}", spec.name, warning));
    spdlog::warn("{}", strategy.declaration_warnings.back());
  }
  strategy.supports.kernels = kernels, strategy.supports.strides = strides, strategy.supports.dilations = dilations;
  // Old (version-1) plugins and those that say nothing are direct summation.
  strategy.algorithm = parse_algorithm(algorithm, fmt::format("algorithm of plugin '{}' ({})", spec.name, spec.path));
  strategy.unsupported = [loaded, abi_version](const Problem &problem, Direction direction) {
    if (std::string refused = version_refusal(abi_version, problem); !refused.empty()) return refused;
    return refusal(*loaded, problem, direction);
  };
  strategy.run = [loaded](const Case &c, Direction direction) { return run_direction(*loaded, c, direction); };
  strategy.implementation = [name](const Case &, Direction) { return name; };
  strategy.identity = [name] { return ImplementationIdentity{name}; };
  return strategy;
}

} // namespace convcheck
