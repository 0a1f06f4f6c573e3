#pragma once
// An outside implementation the project ships, as a row: a server script, the interpreter and environment it runs in
// and the install set that provides them. Named in --strategies it is an external server (external_server.hpp) like
// any other, started with the row's command, so `convcheck fuzz --strategies pytorch_server` works as a built-in
// does; `convcheck strategies` lists each with the version its environment has, or how to install it.
// --external, --external-server and --plugin stay for the user's own code.
//
// A row sits in its library's room (oracles/torch/adapters.cpp) or, for implementations that are convcheck's own
// examples, in oracles/outside/python/adapters.cpp:
//
//   const AdapterRegistration pytorch_server{{
//       .name = "pytorch_server", .description = "...",
//       .interpreter = "/usr/bin/python3", .script = "oracles/torch/torch_conv.py", .arguments = "--server",
//       .install_set = "test", .version_probe = "import torch; print('torch', torch.__version__)",
//   }};

#include <string>
#include <vector>

namespace convcheck {

struct Adapter {
  std::string name;        ///< the strategy name: "pytorch_server"
  std::string description; ///< one line
  /// Absolute, or relative to the source tree: a virtual environment of the checkout that scripts/install-deps.sh
  /// makes ("venvs/onnxruntime/bin/python").
  std::string interpreter;
  std::string script;    ///< relative to the source tree
  std::string arguments; ///< after the script: "--server"
  std::string install_set; ///< scripts/install-deps.sh SET installs the interpreter and what the script imports
  /// Python source the interpreter runs to print the implementation's name and version ("torch 1.13.1"); its failure
  /// means the environment is not installed.
  std::string version_probe;
};

/// File-static registration token.
struct AdapterRegistration {
  explicit AdapterRegistration(Adapter adapter);
};

/// Every adapter, sorted by name.
std::vector<const Adapter *> adapters();

/// The adapter called `name`, or nullptr.
const Adapter *find_adapter(const std::string &name);

/// `path` made absolute against the source tree (unchanged when absolute or empty).
std::string in_source_tree(const std::string &path);

/// The command that starts `adapter`'s server, its paths made absolute against the source tree.
std::string adapter_command(const Adapter &adapter);

/// What its environment says of it: ("torch 1.13.1", "") when installed, or ("", "not installed: ...") naming the
/// install set and what failed. Runs the interpreter once (a second or two for a framework's import).
struct AdapterStatus {
  std::string version;
  std::string missing;
};
AdapterStatus adapter_status(const Adapter &adapter);

/// The version of `package` in what adapter `name`'s probe prints: "1.32.0" for ("onnxruntime", "onnxruntime") from
/// "onnxruntime 1.32.0", "0.10.2" for ("jax", "jaxlib") from "jax 0.10.2 jaxlib 0.10.2"; "" when it is not installed.
/// Asked once per process and adapter: what a room's known-bug table compares its rows' versions with.
std::string adapter_package_version(const std::string &name, const std::string &package);

} // namespace convcheck
