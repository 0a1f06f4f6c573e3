// `convcheck strategies`: what can run, and what each supports.

#include <iostream>
#include <map>

#include <fmt/format.h>

#include "core/problem/precision_table.hpp"
#include "core/problem/spelling.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/numerics/isa_cap.hpp"
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

// The ISA caps oneDNN runs cases under on this host (core/numerics/isa_cap.hpp), each with its share of a campaign's
// cases, and those the host cannot run with the reason.
void print_isa_caps() {
  constexpr int slots = 1 << 12;
  std::map<std::string, int> drawn;
  for (uint64_t index = 0; index < slots; ++index) ++drawn[drawn_isa_cap(1, index)];
  fmt::print("\nISA caps (onednn runs each case under one, drawn per case, --isa-caps to choose; a case file keeps it):\n");
  for (const IsaCap &cap : isa_caps()) {
    const std::string lacks = host_lacks(cap.name);
    if (!lacks.empty()) fmt::print("  {:<17} skipped: {}\n", cap.name, lacks);
    else if (drawn[cap.name] == 0) fmt::print("  {:<17} with --isa-caps (ONEDNN_MAX_CPU_ISA={})\n", cap.name, cap.onednn_value);
    else fmt::print("  {:<17} {:>4.1f}% of cases (ONEDNN_MAX_CPU_ISA={})\n", cap.name, 100.0 * drawn[cap.name] / slots,
                    cap.onednn_value);
  }
}

// ATen's CPU capabilities the torch strategies run cases under (core/numerics/isa_cap.hpp), likewise.
void print_aten_capabilities() {
  constexpr int slots = 1 << 12;
  std::map<std::string, int> drawn;
  for (uint64_t index = 0; index < slots; ++index) ++drawn[drawn_aten_capability(1, index)];
  fmt::print("\nATen CPU capabilities (torch and torch_native run each case under one, drawn per case; torch also "
             "under the case's ISA cap, for the oneDNN beneath it; a case file keeps both):\n");
  fmt::print("  {:<17} {:>4.1f}% of cases (ATEN_CPU_CAPABILITY unset: ATen's own choice)\n", "ATen's choice",
             100.0 * drawn[""] / slots);
  for (const std::string &capability : aten_capabilities()) {
    if (const std::string lacks = host_lacks_aten(capability); !lacks.empty())
      fmt::print("  {:<17} skipped: {}\n", capability, lacks);
    else
      fmt::print("  {:<17} {:>4.1f}% of cases (ATEN_CPU_CAPABILITY={})\n", capability,
                 100.0 * drawn[capability] / slots, capability);
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
  // What an outside server takes it declares in its hello, when it starts: the table says where it comes from.
  for (const Adapter *adapter : adapters())
    fmt::print("| `{}` | when named (a server; install set `{}`) | as its hello declares |||||\n", adapter->name,
               adapter->install_set);
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
      "markdown", "print the strategy table as Markdown (the README's)");
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
  print_isa_caps();
  print_aten_capabilities();
  fmt::print("\nranks: spatial dimensions; formats: problems whose tensors and accumulation share one of them; crops:\n"
             "negative padding; combinations: the mixed rows of the precision table it computes besides (src:weight:dst:acc\n"
             "in the descriptor: bf16_f32acc is bf16:bf16:bf16:f32, bf16_to_f32 bf16:bf16:f32:f32). Every strategy computes\n"
             "output, grad_data and grad_weight unless its description says otherwise; problems outside a strategy's\n"
             "support are reported as skipped with the reason. Kinds: strategy (runs by default); optional (runs when\n"
             "named in --strategies, or with --strategies all); server (an outside implementation the project ships,\n"
             "run as an external server when named in --strategies, not by all; what it takes, its hello declares);\n"
             "absent (not in this build, with the reason); inject (a\n"
             "deliberately broken variant: --inject NAME).\n");
  return exit_agreed;
}

} // namespace convcheck
