#pragma once
// The subcommands. Each takes the arguments after its name, returns an exit code (cmd/exit_codes.hpp) and
// throws InputError for bad usage or input.

#include <string>
#include <vector>

namespace convcheck {

int fuzz_command(const std::vector<std::string> &args);
int repro_command(const std::vector<std::string> &args);
int strategies_command(const std::vector<std::string> &args);
int check_command(const std::vector<std::string> &args);
int shrink_command(const std::vector<std::string> &args);
int corpus_command(const std::vector<std::string> &args);
int configs_command(const std::vector<std::string> &args);
int report_command(const std::vector<std::string> &args);

} // namespace convcheck
