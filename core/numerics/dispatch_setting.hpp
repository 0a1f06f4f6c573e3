#pragma once
// Dispatch settings, as rows. A library that picks its kernel family once per process (oneDNN's ISA cap, ATen's CPU
// capability; XLA's, OpenVINO's and IREE's flags next) tests one family only unless convcheck chooses: each such
// setting is a row its library registers (oracles/<library>/), naming its values, what each needs of the host, the
// environment variable that sets it, how a campaign's cases share the values, and the server that runs a case whose
// value is not its worker's.
//
// Each case has a value of every setting: drawn from (seed, case index) by the row's shares, so that shrinking and
// every case remade from a finding keep it; carried, once a case file, a shrink or a neighbour table pinned it
// (`Case::settings`). A case file keeps each value as a root attribute named after its setting (`isa_cap`,
// `aten_capability`), written when not "" and read as "" when absent: "" is the library's own choice, as every case
// ran before the setting existed.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/numerics/case.hpp"

namespace convcheck {

/// One value of a setting, lowest first.
struct DispatchValue {
  std::string name;               ///< "avx2": as case files, options and reports spell it
  std::string environment;        ///< what the setting's variable takes for it: "AVX2"
  std::vector<std::string> needs; ///< host features it needs (core/numerics/host_features.hpp), all of them
};

struct DispatchSetting {
  std::string name;     ///< "isa_cap": the key of Case::settings and the case-file attribute
  std::string library;  ///< "oneDNN"
  std::string kind;     ///< "ISA cap": what one value is called in messages
  std::string runs;     ///< who runs under it, for `repro`: "oneDNN"; "torch and torch_native"
  std::string kernels;  ///< whose kernels a value names, for messages: "" (the value says it), "ATen's "
  std::string variable; ///< the environment variable a process reads it from: "ONEDNN_MAX_CPU_ISA"; "" when the
                        ///< library takes it per call (oneDNN's accumulation mode, a primitive attribute)
  std::string option;   ///< the run option that picks the values drawn, each alike ("isa-caps"), or ""
  std::string server;   ///< where a case whose value is not its worker's runs: "oracles/onednn/isa_server.hpp"; ""
                        ///< when every value runs in the worker's own process
  std::vector<DispatchValue> values;
  uint64_t salt = 0; ///< mixed into the draw, one per setting; never changed, or every saved draw changes
  /// The default draw: the values of a campaign's slots, given the values this host can run (lowest first); a case
  /// takes slot hash(seed, case index) mod the slot count. "" is the library's own choice.
  std::function<std::vector<std::string>(const std::vector<std::string> &host)> slots;
  std::string shares; ///< why the default draw is what it is, one sentence for `convcheck strategies`

  /// The value called `value`, or nullptr.
  const DispatchValue *find(const std::string &value) const;
  /// "unknown ISA cap 'avx9000' (known: sse41, avx2, ...)".
  std::string unknown(const std::string &value) const;
  /// Why this host cannot run `value` ("" when it can): "this host cannot run avx512_core kernels: it lacks
  /// avx512bw"; an unknown value says so. "" (the library's own choice) needs nothing.
  std::string host_lacks(const std::string &value) const;
  /// The values this host can run, lowest first.
  std::vector<std::string> host_values() const;
  /// "ONEDNN_MAX_CPU_ISA=AVX2" for `value`, "" for "" and for a setting with no variable.
  std::string assignment(const std::string &value) const;
};

/// File-static registration token of a setting (a second one of the same name stops the program, saying so).
struct DispatchSettingRegistration {
  explicit DispatchSettingRegistration(DispatchSetting setting);
};

/// Every registered setting, by name.
std::vector<const DispatchSetting *> dispatch_settings();

/// The setting called `name`, or nullptr.
const DispatchSetting *find_dispatch_setting(const std::string &name);

/// The value of setting `name` drawn for case `case_index` of a campaign seeded `seed` ("" for a setting not
/// registered in this build).
std::string drawn_setting(const std::string &name, uint64_t seed, uint64_t case_index);

/// The share of a campaign's cases that draw each value of `name` (in [0, 1]; "" the library's own choice).
std::vector<std::pair<std::string, double>> drawn_shares(const std::string &name);

/// Makes the values of `name` drawn, process-wide, each alike: `values` comma-separated ("" restores the row's
/// default). Set before workers are forked. Throws InputError naming the option and a value that is unknown or
/// that this host cannot run.
void set_drawn_values(const std::string &name, const std::string &values);

/// The case's value of setting `name`: the one it carries, else the drawn one.
std::string setting_of(const Case &conv_case, const std::string &name);

/// Every registered setting's value for the case, carried or drawn: what pins them when a case is remade.
Settings settings_of(const Case &conv_case);

} // namespace convcheck
