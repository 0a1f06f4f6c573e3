#include "cmd/run_options.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cmd/exit_codes.hpp"
#include "core/input_error.hpp"
#include "core/run/judged.hpp"
#include "core/run/cost_plan.hpp"
#include "core/run/known_bug.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "oracles/outside/adapter.hpp"
#include "oracles/outside/external.hpp"
#include "oracles/outside/external_server.hpp"
#include "oracles/outside/plugin.hpp"

namespace convcheck {

namespace {

/// The ops of --external-ops ("conv,deconv"); a deconv needs case format 2 (v1 holds convs only).
std::vector<Op> external_op_list(const std::string &text, int case_format) {
  std::vector<Op> ops;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const Op op = parse_op(text.substr(start, comma - start), "external-ops");
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
    start = comma + 1;
  }
  if (case_format < 2 && std::find(ops.begin(), ops.end(), Op::deconv) != ops.end())
    throw InputError("external-ops deconv needs --external-case-format 2 (format v1 holds convs only)");
  return ops;
}

/// The names of a --strategies list that are named outside implementations (oracles/outside/adapter.hpp).
std::vector<std::string> adapter_names(const std::string &list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (find_adapter(name) != nullptr && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  return names;
}

/// `list` without the adapters' names; "," (no built-in, as an empty list would be the default set) when only
/// adapters were named.
std::string builtin_names(const std::string &list) {
  std::string builtin;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty() && find_adapter(name) == nullptr) builtin += (builtin.empty() ? "" : ",") + name;
  return builtin.empty() && !adapter_names(list).empty() ? "," : builtin;
}

} // namespace

std::vector<Strategy> RunOptions::selected() const {
  require_at_least("threads", threads, 0);
  require_at_least("max-elements", max_elements, 1);
  if (external_case_format != 1 && external_case_format != 2)
    throw InputError(fmt::format("external-case-format {} must be 1 or 2", external_case_format));
  if (!(external_timeout_s > 0))
    throw InputError(fmt::format("external-timeout {} must be > 0 seconds", external_timeout_s));
  if (!(case_timeout_s > 0)) throw InputError(fmt::format("case-timeout {} must be > 0 seconds", case_timeout_s));
  require_at_least("external-server-max-cases", external_server_max_cases, 0);
  require_at_least("worker-max-cases", recycling.max_cases, 0);
  require_at_least("worker-max-rss", recycling.max_rss_mib, 0);
  if (!(external_server_start_timeout_s > 0))
    throw InputError(
        fmt::format("external-server-start-timeout {} must be > 0 seconds", external_server_start_timeout_s));
  std::vector<Strategy> selected = select_strategies(builtin_names(strategies), inject);
  const auto add = [&](const char *option, const std::string &name, const auto &make) {
    for (const Strategy &strategy : selected)
      if (strategy.name == name) throw InputError(fmt::format("{} name '{}' given twice", option, name));
    selected.push_back(make());
  };
  for (const std::string &name : adapter_names(strategies)) {
    const Adapter &adapter = *find_adapter(name);
    if (const AdapterStatus status = adapter_status(adapter); !status.missing.empty())
      throw InputError(fmt::format("strategy '{}' is {}", name, status.missing));
    ServerSpec spec{name, adapter_command(adapter)};
    spec.timeout_s = external_timeout_s;
    spec.max_elements = max_elements;
    spec.max_cases = external_server_max_cases;
    spec.start_timeout_s = external_server_start_timeout_s;
    add("strategies", name, [&] { return server_strategy(spec); });
  }
  for (const std::string &text : externals) {
    ExternalSpec spec = parse_external(text);
    spec.timeout_s = external_timeout_s;
    spec.case_format = external_case_format;
    spec.ops = external_op_list(external_ops, external_case_format);
    spec.max_elements = max_elements;
    add("external", spec.name, [&] { return external_strategy(spec); });
  }
  for (const std::string &text : external_servers) {
    ServerSpec spec = parse_external_server(text);
    spec.timeout_s = external_timeout_s;
    spec.max_elements = max_elements;
    spec.max_cases = external_server_max_cases;
    spec.start_timeout_s = external_server_start_timeout_s;
    add("external-server", spec.name, [&] { return server_strategy(spec); });
  }
  for (const std::string &text : plugins) {
    const PluginSpec spec = parse_plugin(text);
    add("plugin", spec.name, [&] { return plugin_strategy(spec); });
  }
  for (Strategy &strategy : selected) {
    if (full_check) strategy.cost_planned = false;
    strategy.run_held_back = held_back;
  }
  for (const auto &[setting, values] : drawn_values) set_drawn_values(setting, values);
  return selected;
}

std::vector<std::string> RunOptions::named() const {
  std::vector<std::string> names;
  for (size_t start = 0; start <= strategies.size();) {
    const size_t comma = std::min(strategies.find(',', start), strategies.size());
    if (std::string name = strategies.substr(start, comma - start); !name.empty() && name != "all")
      names.push_back(name);
    start = comma + 1;
  }
  names.insert(names.end(), inject.begin(), inject.end());
  for (const std::vector<std::string> *specs : {&externals, &external_servers, &plugins})
    for (const std::string &spec : *specs) names.push_back(spec.substr(0, spec.find('=')));
  return names;
}

double RunOptions::run_timeout_s() const {
  if (!external_servers.empty() || !adapter_names(strategies).empty())
    return std::max(case_timeout_s, external_server_start_timeout_s + external_timeout_s + 5);
  return externals.empty() ? case_timeout_s : std::max(case_timeout_s, external_timeout_s + 5);
}

void add_run_options(po::options_description &description, RunOptions &options) {
  description.add_options()
      ("strategies", po::value(&options.strategies), "comma-separated strategies to run (default: the default set; all: every real one)")
      ("inject", po::value(&options.inject)->composing(),
       "also run this deliberately broken strategy (repeatable; see `convcheck strategies`)")
      ("external", po::value(&options.externals)->composing(),
       "NAME=COMMAND: also check an outside implementation (repeatable; see docs/external.md)")
      ("external-timeout", po::value(&options.external_timeout_s)->default_value(60),
       "seconds an external command or server may take per case")
      ("external-case-format", po::value(&options.external_case_format)->default_value(1),
       "newest case-file format the external commands read: 1 (2-D problems only) or 2 (every problem)")
      ("external-ops", po::value(&options.external_ops)->default_value("conv"),
       "comma-separated ops the external commands compute: conv, deconv (deconv needs --external-case-format 2)")
      ("external-server", po::value(&options.external_servers)->composing(),
       "NAME=COMMAND: also check an outside implementation that stays up and answers cases over a pipe "
       "(repeatable; see docs/external.md)")
      ("external-server-max-cases", po::value(&options.external_server_max_cases)->default_value(0),
       "restart each server after this many cases (0: never), for a server that leaks")
      ("external-server-start-timeout", po::value(&options.external_server_start_timeout_s)->default_value(60),
       "seconds a server may take from its start to its hello")
      ("plugin", po::value(&options.plugins)->composing(),
       "NAME=PATH: also check a shared library with convcheck's plugin ABI (repeatable; see docs/external.md)")
      ("case-timeout", po::value(&options.case_timeout_s)->default_value(60),
       "seconds one strategy may take on one direction of a case; longer is a timeout finding")
      ("threads", po::value(&options.threads)->default_value(0), "worker processes (0: one per core)")
      ("max-elements", po::value(&options.max_elements)->default_value(default_max_elements),
       "largest tensor (in elements) accepted from any input")
      ("full-check", po::bool_switch(&options.full_check),
       fmt::format("run every strategy on every case: over {:.0e} multiply-adds the cost plan otherwise runs the "
                   "loop strategies on a share of cases only, and reports them skipped on the rest",
                   static_cast<double>(cost_plan_full_limit))
           .c_str())
      ("worker-max-cases", po::value(&options.recycling.max_cases)->default_value(options.recycling.max_cases),
       "replace a worker after this many cases (0: never), so what libraries keep per process cannot grow all "
       "night; verdicts do not change")
      ("worker-max-rss", po::value(&options.recycling.max_rss_mib)->default_value(options.recycling.max_rss_mib),
       "replace a worker after the case that took its peak resident set past this many MiB (0: never)")
      ("run-held-back", po::bool_switch(&options.held_back),
       "also run what strategies hold back for known library bugs (`convcheck strategies` names them); each is "
       "then a finding again");
  for (const DispatchSetting *setting : dispatch_settings())
    if (!setting->option.empty())
      description.add_options()(setting->option.c_str(), po::value(&options.drawn_values[setting->name]),
                                fmt::format("comma-separated values of the {} ({}) to run cases under, each drawn "
                                            "alike per case (default: {}; `convcheck strategies` lists what the host "
                                            "has)",
                                            setting->kind,
                                            setting->variable.empty() ? setting->library + ", per primitive"
                                                                      : setting->variable,
                                            setting->shares)
                                    .c_str());
}

po::variables_map parse_arguments(const std::vector<std::string> &args, const po::options_description &description,
                                  const po::positional_options_description &positional) {
  po::variables_map map;
  try {
    po::store(po::command_line_parser(args).options(description).positional(positional).run(), map);
    po::notify(map);
  } catch (const po::error &error) {
    throw InputError(error.what());
  }
  return map;
}

void require_at_least(const char *name, int64_t value, int64_t min) {
  if (value < min) throw InputError(fmt::format("{} {} must be >= {}", name, value, min));
}

int unjudged_replay_exit(const RunOptions &run, const std::vector<std::vector<Outcome>> &outcomes, int status) {
  const std::vector<JudgedShortfall> unjudged = unjudged_named(run.named(), outcomes);
  for (const JudgedShortfall &shortfall : unjudged) spdlog::error("{}", describe(shortfall, 0));
  return unjudged.empty() ? status : exit_bad_input;
}

} // namespace convcheck
