#include "core/numerics/dispatch_setting.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/numerics/host_features.hpp"
#include "core/problem/mix64.hpp"

namespace convcheck {

namespace {

struct Registered {
  DispatchSetting setting;
  std::vector<std::string> slots; ///< the draw in force; empty until first asked (the row's default)
};

std::map<std::string, std::unique_ptr<Registered>> &registry() {
  static std::map<std::string, std::unique_ptr<Registered>> settings;
  return settings;
}

Registered *find_registered(const std::string &name) {
  const auto found = registry().find(name);
  return found == registry().end() ? nullptr : found->second.get();
}

const std::vector<std::string> &slots_of(Registered &registered) {
  if (registered.slots.empty()) {
    registered.slots = registered.setting.slots(registered.setting.host_values());
    if (registered.slots.empty()) registered.slots = {""};
  }
  return registered.slots;
}

} // namespace

const DispatchValue *DispatchSetting::find(const std::string &value) const {
  for (const DispatchValue &known : values)
    if (known.name == value) return &known;
  return nullptr;
}

std::string DispatchSetting::unknown(const std::string &value) const {
  std::string known;
  for (const DispatchValue &each : values) known += (known.empty() ? "" : ", ") + each.name;
  return fmt::format("unknown {} '{}' (known: {})", kind, value, known);
}

std::string DispatchSetting::host_lacks(const std::string &value) const {
  if (value.empty()) return "";
  const DispatchValue *known = find(value);
  if (known == nullptr) return unknown(value);
  for (const std::string &feature : known->needs)
    if (!host_has(feature)) return fmt::format("this host cannot run {}{} kernels: it lacks {}", kernels, value, feature);
  return "";
}

std::vector<std::string> DispatchSetting::host_values() const {
  std::vector<std::string> host;
  for (const DispatchValue &value : values)
    if (host_lacks(value.name).empty()) host.push_back(value.name);
  return host;
}

std::string DispatchSetting::assignment(const std::string &value) const {
  const DispatchValue *known = find(value);
  return known == nullptr || variable.empty() ? "" : fmt::format("{}={}", variable, known->environment);
}

DispatchSettingRegistration::DispatchSettingRegistration(DispatchSetting setting) {
  if (find_registered(setting.name) != nullptr) { // in every build: a second row would never be asked
    std::fprintf(stderr, "convcheck: two dispatch settings are called %s: each is registered once\n",
                 setting.name.c_str());
    std::abort();
  }
  const std::string name = setting.name;
  registry()[name] = std::make_unique<Registered>(Registered{std::move(setting), {}});
}

std::vector<const DispatchSetting *> dispatch_settings() {
  std::vector<const DispatchSetting *> all;
  for (const auto &[name, registered] : registry()) all.push_back(&registered->setting);
  return all;
}

const DispatchSetting *find_dispatch_setting(const std::string &name) {
  const Registered *registered = find_registered(name);
  return registered == nullptr ? nullptr : &registered->setting;
}

std::string drawn_setting(const std::string &name, uint64_t seed, uint64_t case_index) {
  Registered *registered = find_registered(name);
  if (registered == nullptr) return "";
  const std::vector<std::string> &slots = slots_of(*registered);
  return slots[mix64(mix64(seed ^ registered->setting.salt) ^ case_index) % slots.size()];
}

std::vector<std::pair<std::string, double>> drawn_shares(const std::string &name) {
  std::vector<std::pair<std::string, double>> shares;
  Registered *registered = find_registered(name);
  if (registered == nullptr) return shares;
  const std::vector<std::string> &slots = slots_of(*registered);
  for (const std::string &slot : slots) {
    auto same = std::find_if(shares.begin(), shares.end(), [&](const auto &share) { return share.first == slot; });
    if (same == shares.end()) same = shares.insert(shares.end(), {slot, 0.0});
    same->second += 1.0 / static_cast<double>(slots.size());
  }
  return shares;
}

void set_drawn_values(const std::string &name, const std::string &values) {
  Registered *registered = find_registered(name);
  if (registered == nullptr) throw InputError(fmt::format("no dispatch setting is called {} in this build", name));
  if (values.empty()) {
    registered->slots.clear();
    return;
  }
  std::vector<std::string> slots;
  for (size_t begin = 0; begin <= values.size();) {
    const size_t end = std::min(values.find(',', begin), values.size());
    const std::string value = values.substr(begin, end - begin);
    if (const std::string lacks = value.empty() ? registered->setting.unknown(value)
                                                : registered->setting.host_lacks(value);
        !lacks.empty())
      throw InputError(fmt::format("--{} {}: {}", registered->setting.option, values, lacks));
    slots.push_back(value);
    begin = end + 1;
  }
  registered->slots = slots;
}

std::string setting_of(const Case &conv_case, const std::string &name) {
  const auto carried = conv_case.settings.find(name);
  return carried != conv_case.settings.end() ? carried->second
                                             : drawn_setting(name, conv_case.seed, conv_case.case_index);
}

Settings settings_of(const Case &conv_case) {
  Settings all = conv_case.settings;
  for (const auto &[name, registered] : registry())
    if (all.count(name) == 0) all[name] = drawn_setting(name, conv_case.seed, conv_case.case_index);
  return all;
}

} // namespace convcheck
