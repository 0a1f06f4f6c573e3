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
#include "core/run/strategy.hpp"

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

} // namespace

int strategies_command(const std::vector<std::string> &args) {
  po::options_description description("convcheck strategies\n\nLists the strategies and injectable bugs");
  description.add_options()("help", "show this help");
  if (parse_arguments(args, description).count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  // The support table: what each strategy declares (core/run/strategy.hpp); a problem outside it is skipped with
  // the reason, never computed.
  fmt::print("{:<26} {:<9} {:<11} {:<12} {:<9} {:<5} {}\n", "name", "kind", "ops", "ranks", "formats", "crops",
             "combinations");
  for (const Strategy *strategy : registered_strategies())
    fmt::print("{:<26} {:<9} {:<11} {:<12} {:<9} {:<5} {}\n", strategy->name,
               strategy->injected ? "inject" : strategy->in_default_set ? "strategy" : "optional",
               listing(strategy->supports.ops, [](Op op) { return to_string(op); }),
               listing(strategy->supports.ranks, [](int64_t rank) { return fmt::format("{}-D", rank); }),
               listing(strategy->supports.dtypes, [](DType dtype) { return info(dtype).word; }),
               strategy->supports.crops ? "yes" : "no", combinations(strategy->supports.precisions));
  for (const UnbuiltStrategy &unbuilt : unbuilt_strategies())
    fmt::print("{:<26} {:<9} not built: {}\n", unbuilt.name, "absent", unbuilt.reason);
  fmt::print("\n");
  for (const Strategy *strategy : registered_strategies()) fmt::print("{}: {}\n", strategy->name, strategy->description);
  print_isa_caps();
  fmt::print("\nranks: spatial dimensions; formats: problems whose tensors and accumulation share one of them; crops:\n"
             "negative padding; combinations: the mixed rows of the precision table it computes besides (src:weight:dst:acc\n"
             "in the descriptor: bf16_f32acc is bf16:bf16:bf16:f32, bf16_to_f32 bf16:bf16:f32:f32). Every strategy computes\n"
             "output, grad_data and grad_weight unless its description says otherwise; problems outside a strategy's\n"
             "support are reported as skipped with the reason. Kinds: strategy (runs by default); optional (runs when\n"
             "named in --strategies, or with --strategies all); absent (not in this build, with the reason); inject (a\n"
             "deliberately broken variant: --inject NAME).\n");
  return exit_agreed;
}

} // namespace convcheck
