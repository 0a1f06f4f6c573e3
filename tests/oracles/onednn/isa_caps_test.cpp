// The ISA cap a case runs oneDNN under, a dispatch setting: drawn per case from (seed, case index), the host's highest
// for 7/8 of the cases and avx2 for 1/8 by default, each named cap alike with --isa-caps; a cap the host cannot run is
// refused; a case file keeps it as /isa_cap.

#include "oracles/onednn/isa_caps.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <algorithm>

#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/problem/descriptor.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {
namespace {

std::map<std::string, int> shares(int cases) {
  std::map<std::string, int> drawn;
  for (int index = 0; index < cases; ++index) ++drawn[drawn_setting(isa_cap_setting, 7, static_cast<uint64_t>(index))];
  return drawn;
}

TEST(IsaCap, DefaultDrawIsTheHostsHighestAndAvx2) {
  const std::vector<std::string> host = find_dispatch_setting(isa_cap_setting)->host_values();
  if (host.size() < 2 || host.back() == "avx2") GTEST_SKIP() << "this host has no cap above avx2";
  set_drawn_values(isa_cap_setting, "");
  std::map<std::string, int> drawn = shares(8000);
  EXPECT_EQ(drawn.size(), 2u);
  EXPECT_NEAR(drawn[host.back()], 7000, 200);
  EXPECT_NEAR(drawn["avx2"], 1000, 200);
  EXPECT_EQ(drawn_setting(isa_cap_setting, 7, 123), drawn_setting(isa_cap_setting, 7, 123)); // a function of (seed, case index): shrinking keeps it
}

TEST(IsaCap, NamedCapsAreDrawnAlike) {
  if (!host_lacks("avx2").empty() || !host_lacks("sse41").empty()) GTEST_SKIP() << host_lacks("avx2");
  set_drawn_values(isa_cap_setting, "sse41,avx2");
  std::map<std::string, int> drawn = shares(8000);
  set_drawn_values(isa_cap_setting, "");
  EXPECT_EQ(drawn.size(), 2u);
  EXPECT_NEAR(drawn["sse41"], 4000, 250);
  EXPECT_NEAR(drawn["avx2"], 4000, 250);
}

TEST(IsaCap, RefusesAnUnknownCapAndOneTheHostCannotRun) {
  try {
    set_drawn_values(isa_cap_setting, "avx2,avx9000");
    FAIL() << "no error";
  } catch (const InputError &error) {
    EXPECT_STREQ(error.what(), "--isa-caps avx2,avx9000: unknown ISA cap 'avx9000' (known: sse41, avx2, avx2_vnni_2, "
                               "avx512_core, avx512_core_bf16, avx512_core_fp16, avx512_core_amx)");
  }
  for (const DispatchValue &cap : find_dispatch_setting(isa_cap_setting)->values)
    if (!host_lacks(cap.name).empty()) {
      EXPECT_EQ(host_lacks(cap.name).rfind("this host cannot run " + cap.name + " kernels: it lacks ", 0), 0u);
      EXPECT_THROW(set_drawn_values(isa_cap_setting, cap.name), InputError);
    }
  set_drawn_values(isa_cap_setting, "");
}

// A case file keeps the case's cap, drawn or carried, as the root attribute /isa_cap, and refuses an unknown one
// naming the attribute; a file without it reads as "no cap".
TEST(IsaCap, ACaseFileKeepsItAsIsaCap) {
  const std::string file = (std::filesystem::temp_directory_path() / "convcheck-isa-cap-test.h5").string();
  CaseFile drawn{make_case(parse_descriptor("mb1ic2ih5oc2kh3"), FillMode::exact, 5, 9), {}, {}};
  write_case_file(file, drawn);
  EXPECT_EQ(read_case_file(file).conv_case.settings.at(isa_cap_setting), isa_cap_of(drawn.conv_case));
  drawn.conv_case.settings[isa_cap_setting] = "sse41";
  write_case_file(file, drawn);
  const CaseFile read = read_case_file(file);
  EXPECT_EQ(isa_cap_of(read.conv_case), "sse41");
  EXPECT_EQ(read.conv_case.settings.at("aten_capability"), setting_of(drawn.conv_case, "aten_capability"));
  std::filesystem::remove(file);
}

TEST(IsaCap, OnednnValuesAndOrder) {
  EXPECT_EQ(onednn_isa_value("avx512_core_bf16"), "AVX512_CORE_BF16");
  EXPECT_EQ(onednn_isa_value("avx9000"), "");
  // oneDNN 3.x's caps: avx2_vnni_2 a branch of avx2, avx512_core_amx containing avx512_core_fp16.
  EXPECT_EQ(onednn_isa_value("avx2_vnni_2"), "AVX2_VNNI_2");
  EXPECT_EQ(onednn_isa_value("avx512_core_fp16"), "AVX512_CORE_FP16");
  const DispatchSetting &caps = *find_dispatch_setting(isa_cap_setting);
  const auto needs = [&](const char *cap, const char *feature) {
    const std::vector<std::string> &features = caps.find(cap)->needs;
    return std::find(features.begin(), features.end(), feature) != features.end();
  };
  EXPECT_TRUE(needs("avx2_vnni_2", "avx_ne_convert"));
  EXPECT_FALSE(needs("avx512_core", "avx_ne_convert"));
  EXPECT_TRUE(needs("avx512_core_amx", "avx512_fp16"));
  EXPECT_TRUE(needs("avx512_core_amx", "amx_bf16"));
  EXPECT_EQ(find_dispatch_setting(isa_cap_setting)->assignment("avx2"), "ONEDNN_MAX_CPU_ISA=AVX2");
}

} // namespace
} // namespace convcheck

