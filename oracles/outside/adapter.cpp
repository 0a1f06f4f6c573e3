#include "oracles/outside/adapter.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "core/process/subprocess.hpp"

namespace convcheck {

namespace {

std::vector<std::unique_ptr<Adapter>> &registry() {
  static std::vector<std::unique_ptr<Adapter>> registered;
  return registered;
}

// A framework's first import (torch's ~290 libraries) can take seconds on a cold disk.
constexpr double probe_timeout_s = 60;

} // namespace

AdapterRegistration::AdapterRegistration(Adapter adapter) {
  if (find_adapter(adapter.name) != nullptr) { // in every build
    std::fprintf(stderr, "convcheck: two adapters are called %s: each name is registered once\n", adapter.name.c_str());
    std::abort();
  }
  registry().push_back(std::make_unique<Adapter>(std::move(adapter)));
}

std::vector<const Adapter *> adapters() {
  std::vector<const Adapter *> all;
  for (const auto &adapter : registry()) all.push_back(adapter.get());
  std::sort(all.begin(), all.end(), [](auto *a, auto *b) { return a->name < b->name; });
  return all;
}

const Adapter *find_adapter(const std::string &name) {
  for (const auto &adapter : registry())
    if (adapter->name == name) return adapter.get();
  return nullptr;
}

std::string in_source_tree(const std::string &path) {
  return path.empty() || path.front() == '/' ? path : std::string(CONVCHECK_SOURCE_DIR) + "/" + path;
}

std::string adapter_command(const Adapter &adapter) {
  std::string command = in_source_tree(adapter.interpreter) + " " + in_source_tree(adapter.script);
  return adapter.arguments.empty() ? command : command + " " + adapter.arguments;
}

AdapterStatus adapter_status(const Adapter &adapter) {
  const std::string install = fmt::format("scripts/install-deps.sh {}", adapter.install_set);
  const std::string interpreter = in_source_tree(adapter.interpreter);
  if (access(interpreter.c_str(), X_OK) != 0)
    return {"", fmt::format("not installed: {} (no interpreter {})", install, interpreter)};
  std::string scratch = (std::filesystem::temp_directory_path() / "convcheck-probe-XXXXXX").string(); // honours TMPDIR
  const int fd = mkstemp(scratch.data());
  if (fd < 0) return {"", fmt::format("cannot make a scratch file for the version probe ({})", scratch)};
  close(fd);
  const ProcessResult probe = run_process({interpreter, "-c", adapter.version_probe}, probe_timeout_s, scratch);
  std::ifstream in(scratch);
  std::stringstream printed;
  printed << in.rdbuf();
  std::filesystem::remove(scratch);
  if (!probe.termination.succeeded())
    return {"", fmt::format("not installed: {} ({})", install, probe.describe())};
  std::string version = printed.str();
  while (!version.empty() && (version.back() == '\n' || version.back() == ' ')) version.pop_back();
  return {version, ""};
}

std::string adapter_package_version(const std::string &name, const std::string &package) {
  static std::mutex mutex;
  static std::map<std::string, std::string> printed; // by adapter: its probe's line
  std::lock_guard lock(mutex);
  if (!printed.contains(name)) {
    const Adapter *adapter = find_adapter(name);
    printed[name] = adapter != nullptr ? adapter_status(*adapter).version : "";
  }
  std::istringstream words(printed[name]);
  for (std::string word, version; words >> word;)
    if (word == package) return words >> version ? version : "";
  return "";
}

} // namespace convcheck
