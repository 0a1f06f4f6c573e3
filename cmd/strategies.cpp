// `convcheck strategies`: what can run, and what each supports.

#include <iostream>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/problem/precision_table.hpp"
#include "core/problem/spelling.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/run/known_bug.hpp"
#include "core/run/strategy.hpp"
#include "oracles/outside/adapter.hpp"

namespace convcheck {

namespace {

// "1-D,2-D" from a declared list.
template <class T, class Spell> std::string listing(const std::vector<T> &items, Spell spell) {
  return joined(items, ",", spell, "-");
}

// The names of the mixed rows of the precision table among `precisions` ("bf16_f32acc,f16_f32acc"), "-" for none.
std::string combinations(const std::vector<Precision> &precisions) {
  return listing(precisions, [](const Precision &p) {
    const PrecisionRow *row = find_precision_row(p);
    return row != nullptr ? std::string(row->name) : precision_words(p);
  });
}

// The same, "all" when they are every mixed row of the precision table.
std::string combinations_in_short(const std::vector<Precision> &precisions) {
  size_t mixed_rows = 0;
  for (const PrecisionRow &row : precision_table()) mixed_rows += !row.precision.single();
  return precisions.size() == mixed_rows && mixed_rows > 0 ? fmt::format("all {}", mixed_rows) : combinations(precisions);
}

// Each dispatch setting (core/numerics/dispatch_setting.hpp) with its values' shares of a campaign's cases on this
// host, and the values the host cannot run with the reason.
void print_dispatch_settings() {
  fmt::print("\nDispatch settings (each case runs under a value of each, drawn per case; a case file keeps them):\n");
  for (const DispatchSetting *setting : dispatch_settings()) {
    const std::string how = setting->variable.empty() ? "set per primitive" : setting->variable;
    const std::string where = setting->server.empty()
                                  ? "every value runs in the worker's own process"
                                  : "a case of another value than its worker's runs in a server, " + setting->server;
    fmt::print("{}: the {} of {} ({}{}; {})\n  by default {}:\n", setting->name, setting->kind, setting->runs, how,
               setting->option.empty() ? "" : ", --" + setting->option, where, setting->shares);
    const auto shares = drawn_shares(setting->name);
    const auto share = [&](const std::string &value) {
      for (const auto &[drawn, fraction] : shares)
        if (drawn == value) return fraction;
      return 0.0;
    };
    if (share("") > 0)
      fmt::print("  {:<17} {:>5.1f}% of cases ({} unset: {}'s own choice)\n", "own choice", 100 * share(""),
                 setting->variable.empty() ? setting->kind : setting->variable, setting->library);
    for (const DispatchValue &value : setting->values) {
      if (const std::string lacks = setting->host_lacks(value.name); !lacks.empty())
        fmt::print("  {:<17} skipped: {}\n", value.name, lacks);
      else if (const std::string set = setting->assignment(value.name); share(value.name) == 0)
        fmt::print("  {:<17} with --{}{}\n", value.name, setting->option, set.empty() ? "" : " (" + set + ")");
      else
        fmt::print("  {:<17} {:>5.1f}% of cases{}\n", value.name, 100 * share(value.name),
                   set.empty() ? "" : " (" + set + ")");
    }
  }
}

std::string kind_of(const Strategy &strategy) {
  return strategy.injected ? "inject" : strategy.in_default_set ? "strategy" : "optional";
}

// The README's table (ctest readme_strategies compares the two): one line per real strategy of this build.
void print_markdown() {
  fmt::print("| strategy | runs | ops | ranks | formats | crops | mixed-format rows |\n");
  fmt::print("| --- | --- | --- | --- | --- | --- | --- |\n");
  int64_t injected = 0;
  for (const Strategy *strategy : registered_strategies()) {
    if (strategy->injected) {
      ++injected;
      continue;
    }
    fmt::print("| `{}` | {} | {} | {} | {} | {} | {} |\n", strategy->name,
               strategy->in_default_set ? "by default" : "when named",
               listing(strategy->supports.ops, [](Op op) { return to_string(op); }),
               listing(strategy->supports.ranks, [](int64_t rank) { return fmt::format("{}-D", rank); }),
               listing(strategy->supports.dtypes, [](DType dtype) { return info(dtype).word; }),
               strategy->supports.crops ? "yes" : "no", combinations_in_short(strategy->supports.precisions));
  }
  // What an outside server takes it declares in its hello, when it starts: the table says where it comes from, one
  // row per install set.
  std::map<std::string, std::vector<std::string>> by_set;
  for (const Adapter *adapter : adapters()) by_set[adapter->install_set].push_back("`" + adapter->name + "`");
  for (const auto &[set, names] : by_set)
    fmt::print("| {} | when named (server{}; install set `{}`) | as its hello declares |||||\n",
               fmt::join(names, ", "), names.size() > 1 ? "s" : "", set);
  fmt::print("\nand {} injected bugs (`--inject NAME`); `convcheck strategies` describes each.\n", injected);
}

// Every known library bug (core/run/known_bug.hpp): what it holds back, for which versions, and whether the version
// here is one of them.
void print_known_bugs() {
  for (const KnownBugTable *table : known_bug_tables()) {
    const std::string version = table->version ? table->version() : "";
    fmt::print("{} (here: {})\n", table->library, version.empty() ? "version unknown" : version);
    for (const KnownBug &bug : table->rows) {
      const bool holds = bug.versions.contains(version);
      fmt::print("  {}\n    {}\n", bug.id, bug.reason);
      fmt::print("    versions {}: {}\n", bug.versions.describe(),
                 holds ? "held back here (--run-held-back runs it)" : "this version is outside: it runs");
      fmt::print("    holds back {} on {}\n", joined(bug.strategies, ", ", [](const std::string &s) { return s; }, "-"),
                 joined(bug.directions, ", ", [](Direction d) { return to_string(d); }, "-"));
      fmt::print("    upstream: {}\n    docs: {}\n", bug.upstream, bug.docs);
      fmt::print("    corpus: {}\n", bug.corpus_case.empty() ? "none: " + bug.why_no_case : bug.corpus_case);
    }
  }
}

} // namespace

int strategies_command(const std::vector<std::string> &args) {
  po::options_description description("convcheck strategies\n\nLists the strategies and injectable bugs");
  description.add_options()("help", "show this help")(
      "known-bugs", "list the known library bugs held back, with their versions and references")(
      "markdown", "print the strategy table as Markdown (the README's)")(
      "names", "print each strategy's name and kind, one a line, asking no environment for its version (for scripts)");
  const po::variables_map given = parse_arguments(args, description);
  if (given.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  if (given.count("known-bugs")) {
    print_known_bugs();
    return exit_agreed;
  }
  if (given.count("markdown")) {
    print_markdown();
    return exit_agreed;
  }
  if (given.count("names")) {
    for (const Strategy *strategy : registered_strategies()) fmt::print("{} {}\n", strategy->name, kind_of(*strategy));
    for (const Adapter *adapter : adapters()) fmt::print("{} server\n", adapter->name);
    return exit_agreed;
  }
  // The support table: what each strategy declares (core/run/strategy.hpp); a problem outside it is skipped with
  // the reason, never computed.
  fmt::print("{:<26} {:<9} {:<11} {:<12} {:<9} {:<5} {}\n", "name", "kind", "ops", "ranks", "formats", "crops",
             "combinations");
  for (const Strategy *strategy : registered_strategies())
    fmt::print("{:<26} {:<9} {:<11} {:<12} {:<9} {:<5} {}\n", strategy->name,
               kind_of(*strategy),
               listing(strategy->supports.ops, [](Op op) { return to_string(op); }),
               listing(strategy->supports.ranks, [](int64_t rank) { return fmt::format("{}-D", rank); }),
               listing(strategy->supports.dtypes, [](DType dtype) { return info(dtype).word; }),
               strategy->supports.crops ? "yes" : "no", combinations(strategy->supports.precisions));
  for (const UnbuiltStrategy &unbuilt : unbuilt_strategies())
    fmt::print("{:<26} {:<9} not built: {}\n", unbuilt.name, "absent", unbuilt.reason);
  for (const Adapter *adapter : adapters()) { // each asks its environment: a second or two for a framework
    const AdapterStatus status = adapter_status(*adapter);
    fmt::print("{:<26} {:<9} {}\n", adapter->name, "server", status.missing.empty() ? status.version : status.missing);
  }
  fmt::print("\n");
  for (const Strategy *strategy : registered_strategies()) fmt::print("{}: {}\n", strategy->name, strategy->description);
  for (const Adapter *adapter : adapters())
    fmt::print("{}: {} (runs `{}`)\n", adapter->name, adapter->description, adapter_command(*adapter));
  print_dispatch_settings();
  fmt::print("\nranks: spatial dimensions; formats: problems whose tensors and accumulation share one of them; crops:\n"
             "negative padding; combinations: the mixed rows of the precision table it computes besides (src:weight:dst:acc\n"
             "in the descriptor: bf16_f32acc is bf16:bf16:bf16:f32, bf16_to_f32 bf16:bf16:f32:f32, the training rows\n"
             "bf16_f32data f32:bf16:bf16:f32 and bf16_f32weight bf16:f32:bf16:f32, as benchdnn's --dt spells them\n"
             "for BWD_D and BWD_W; f16 the same). Every strategy computes\n"
             "output, grad_data and grad_weight unless its description says otherwise; problems outside a strategy's\n"
             "support are reported as skipped with the reason. Kinds: strategy (runs by default); optional (runs when\n"
             "named in --strategies, or with --strategies all); server (an outside implementation the project ships,\n"
             "run as an external server when named in --strategies, not by all; what it takes, its hello declares);\n"
             "absent (not in this build, with the reason); inject (a\n"
             "deliberately broken variant: --inject NAME).\n");
  return exit_agreed;
}

} // namespace convcheck
