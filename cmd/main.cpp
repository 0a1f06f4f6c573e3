// convcheck: finds wrong answers in 1-D, 2-D and 3-D convolution and deconvolution implementations. This file serves
// first when exec'd as a oneDNN or ATen cap server (oracles/onednn/isa_server.hpp, oracles/torch/capability_server.hpp),
// then dispatches; each subcommand lives in its own file. Exit contract: cmd/exit_codes.hpp (0 agreed, 1 mismatch, 2 bad input).

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "core/input_error.hpp"
#include "core/process/orphans.hpp"
#include "oracles/onednn/isa_server.hpp"
#include "oracles/torch/capability_server.hpp"

namespace {

constexpr const char *usage = R"(usage: convcheck <command> [options]

commands:
  fuzz        random configs through every strategy; shrinks and saves failures
  check       a fixed list of configs (descriptors, --batch FILE, --format benchdnn) through every strategy
  repro       replay saved case files (HDF5) and compare every strategy and recorded result
  shrink      re-shrink a saved failing case to a minimal one
  corpus      run, list or add to a regression corpus
  report      merge the JSON reports of a sharded campaign (report merge A.json B.json...)
  configs     print configs of the fuzz distribution, or --stats on how often each corner occurs
  strategies  list the strategies and injectable bugs

`convcheck <command> --help` shows a command's options. Exit status: 0 all agreed, 1 a mismatch was found,
2 bad usage or input.
)";

} // namespace

int main(int argc, char **argv) {
  using namespace convcheck;
  if (const int served = serve_onednn_isa_if_asked(); served >= 0) return served; // started as a cap server
  if (const int served = serve_torch_capability_if_asked(); served >= 0) return served;
  spdlog::set_default_logger(spdlog::stderr_color_st("convcheck")); // logs never mix with results on stdout
  spdlog::set_pattern("convcheck: %l: %v");
  const OrphanReaper reaper; // what an outside program left running ends with convcheck
  const std::vector<std::string> args(argv + std::min(argc, 2), argv + argc);
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "fuzz") return fuzz_command(args);
    if (command == "repro") return repro_command(args);
    if (command == "strategies") return strategies_command(args);
    if (command == "check") return check_command(args);
    if (command == "shrink") return shrink_command(args);
    if (command == "corpus") return corpus_command(args);
    if (command == "configs") return configs_command(args);
    if (command == "report") return report_command(args);
    if (command == "--version") {
      std::cout << "convcheck " << CONVCHECK_VERSION << "\n";
      return exit_agreed;
    }
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << usage;
      return exit_agreed;
    }
    throw InputError(command.empty() ? "no command given (try convcheck --help)"
                                     : "unknown command '" + command + "' (try convcheck --help)");
  } catch (const InputError &error) {
    spdlog::error("{}", error.what());
    return exit_bad_input;
  } catch (const std::exception &error) { // the system refused (fork, pipe, disk): say what, never abort
    spdlog::error("{}", error.what());
    return exit_bad_input;
  }
}
