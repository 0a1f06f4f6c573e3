#pragma once
// The one error type for bad input from a user or a file. Its message is a single lowercase line that names
// the thing at fault and its value ("groups 3 does not divide in_channels 4"); main() prints it and exits 2.
// Programming errors are asserts, never this.

#include <stdexcept>
#include <string>

namespace convcheck {

/// Thrown for any bad input (CLI value, descriptor, case file, external program output).
class InputError : public std::runtime_error {
public:
  explicit InputError(const std::string &message) : std::runtime_error(message) {}
};

} // namespace convcheck
