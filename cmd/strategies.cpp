// `convcheck strategies`: what can run, and what each supports.

#include <iostream>

#include <fmt/format.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

int strategies_command(const std::vector<std::string> &args) {
  po::options_description description("convcheck strategies\n\nLists the strategies and injectable bugs");
  description.add_options()("help", "show this help");
  if (parse_arguments(args, description).count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  fmt::print("{:<26} {:<9} {}\n", "name", "kind", "directions and support");
  for (const Strategy *strategy : registered_strategies())
    fmt::print("{:<26} {:<9} {}\n", strategy->name, strategy->injected ? "inject" : "strategy", strategy->description);
  fmt::print("\nEvery strategy computes output, grad_data and grad_weight unless its line says otherwise;\n"
             "unsupported cases are reported as skipped with the reason. Inject bugs with --inject NAME.\n");
  return exit_agreed;
}

} // namespace convcheck
