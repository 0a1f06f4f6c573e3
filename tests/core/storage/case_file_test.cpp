// Case files round-trip, and every class of malformed file is rejected with one line naming file and problem.

#include "core/storage/case_file.hpp"

#include <filesystem>
#include <fstream>
#include <cstring>
#include <functional>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/storage/hdf5_handle.hpp"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

class CaseFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() /
                 ("convcheck-case-file-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                  "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  std::string path(const std::string &name) const { return (directory_ / name).string(); }

  // A valid case file, then `mutate` applied to it through the HDF5 C API.
  std::string valid_file(const std::function<void(hid_t)> &mutate = {},
                         const std::string &descriptor = "g2mb2ic4ih5iw6oc6kh3kw2pt1pr2") {
    const std::string file = path("case.h5");
    CaseFile case_file{make_case(parse_descriptor(descriptor), FillMode::normal, 5, 9), {}, {}};
    case_file.results["naive"][Direction::output] = case_file.conv_case[Role::grad_output].clone();
    write_case_file(file, case_file);
    if (mutate) {
      const hid_t handle = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      mutate(handle);
      H5Fclose(handle);
    }
    return file;
  }

  std::string error_of(const std::string &file, int64_t max_elements = default_max_elements) {
    try {
      read_case_file(file, max_elements);
    } catch (const InputError &error) {
      return error.what();
    }
    return "";
  }

  fs::path directory_;
};

void replace_int_attribute(hid_t file, const char *object, const char *name, hid_t type, int64_t value) {
  const hid_t group = H5Oopen(file, object, H5P_DEFAULT);
  H5Adelete(group, name);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, H5T_NATIVE_INT64, &value);
  H5Aclose(attribute);
  H5Sclose(space);
  H5Oclose(group);
}

void replace_fixed_string_attribute(hid_t file, const char *object, const char *name, const std::string &value) {
  const hid_t group = H5Oopen(file, object, H5P_DEFAULT);
  H5Adelete(group, name);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size());
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, type, value.c_str());
  H5Aclose(attribute);
  H5Sclose(space);
  H5Tclose(type);
  H5Oclose(group);
}

void replace_dataset(hid_t file, const char *name, std::vector<hsize_t> dims, hid_t type) {
  H5Ldelete(file, name, H5P_DEFAULT);
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t dataset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dclose(dataset);
  H5Sclose(space);
}

// A dataset `name` of `dims` in file type `type` holding `values` (converted by HDF5 from double).
void write_dataset(hid_t file, const char *name, std::vector<hsize_t> dims, hid_t type, const std::vector<double> &values) {
  H5Ldelete(file, name, H5P_DEFAULT);
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t dataset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(dataset);
  H5Sclose(space);
}

TEST_F(CaseFileTest, RoundTripsConfigInputsResultsAndFinding) {
  const std::string file = path("round.h5");
  CaseFile original{make_case(parse_descriptor("g2mb2ic4ih5iw6oc6kh3kw2pt1pr2_nhwc_ohwi_f64"), FillMode::exact, 5, 9),
                    {},
                    FindingRecord{"pad_order", Direction::output, "error 1 exceeds bound 0", "ref:any"}};
  original.results["naive"][Direction::grad_weight] = original.conv_case[Role::weight].clone();
  write_case_file(file, original);
  const CaseFile read = read_case_file(file);
  EXPECT_EQ(read.conv_case.problem, original.conv_case.problem);
  EXPECT_EQ(read.conv_case.seed, 5u);
  EXPECT_EQ(read.conv_case.case_index, 9u);
  EXPECT_EQ(read.conv_case.fill, FillMode::exact);
  for (int64_t i = 0; i < original.conv_case[Role::data].size(); ++i)
    ASSERT_EQ(read.conv_case[Role::data].get(i), original.conv_case[Role::data].get(i));
  ASSERT_EQ(read.results.at("naive").at(Direction::grad_weight).shape(), original.conv_case[Role::weight].shape());
  ASSERT_TRUE(read.finding.has_value());
  EXPECT_EQ(read.finding->implementation, "ref:any");
  // No temporary is left beside it.
  EXPECT_EQ(std::distance(fs::directory_iterator(directory_), fs::directory_iterator()), 1);
}

// A dispatch setting of this test only (core/numerics/dispatch_setting.hpp; the libraries' own, oneDNN's `isa_cap`
// and ATen's `aten_capability`, are tested in their rooms): half the cases draw "high", half the library's choice.
const DispatchSettingRegistration test_level{{"test_level", "TestLib", "test level", "TestLib", "", "TEST_LEVEL", "",
                                              "no server", {{"low", "LOW", {}}, {"high", "HIGH", {}}},
                                              0x7465737400000001ULL,
                                              [](const std::vector<std::string> &) {
                                                return std::vector<std::string>{"", "high"};
                                              },
                                              "half and half"}};

// A case keeps each dispatch setting it ran under as a root attribute named after the setting: the drawn value when
// the case carries none, its own otherwise; a file without the attribute (every file from before the setting) reads
// as "" (the library's own choice), and an unknown value is refused naming the attribute.
TEST_F(CaseFileTest, KeepsEachDispatchSettingAndReadsAFileWithoutOneAsTheLibrarysChoice) {
  uint64_t index = 0;
  while (drawn_setting("test_level", 5, index) != "high") ++index;
  CaseFile drawn{make_case(parse_descriptor("mb1ic2ih5oc2kh3"), FillMode::exact, 5, index), {}, {}};
  ASSERT_TRUE(drawn.conv_case.settings.empty());
  write_case_file(path("drawn.h5"), drawn);
  EXPECT_EQ(read_case_file(path("drawn.h5")).conv_case.settings.at("test_level"), "high");
  drawn.conv_case.settings["test_level"] = "low";
  write_case_file(path("low.h5"), drawn);
  EXPECT_EQ(read_case_file(path("low.h5")).conv_case.settings.at("test_level"), "low");
  const std::string old = [&] {
    write_case_file(path("old.h5"), drawn);
    Hdf5Handle file(H5Fopen(path("old.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    H5Adelete(file.get(), "test_level");
    return path("old.h5");
  }();
  EXPECT_EQ(read_case_file(old).conv_case.settings.at("test_level"), "");
  {
    Hdf5Handle file(H5Fopen(old.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    replace_fixed_string_attribute(file.get(), "/", "test_level", "medium");
  }
  EXPECT_EQ(error_of(old),
            fmt::format("case file {}: unknown test level 'medium' (known: low, high) in attribute /test_level", old));
}

// A finding keeps its failing region (/finding/neighbours, issue 25); a file without it (every file from before)
// reads as an empty table, and a malformed row is refused naming the attribute and the row.
TEST_F(CaseFileTest, KeepsTheNeighbourTableAndReadsAFileWithoutOneAsEmpty) {
  CaseFile found{make_case(parse_descriptor("mb1ic1iw1oc17kw1"), FillMode::exact, 5, 9), {},
                 FindingRecord{"oc_tail_fwd", Direction::output, "error 4 exceeds bound 0", ""}};
  write_case_file(path("plain.h5"), found);
  ASSERT_TRUE(read_case_file(path("plain.h5")).finding.has_value());
  EXPECT_TRUE(read_case_file(path("plain.h5")).finding->neighbours.empty());
  found.finding->neighbours = {{"passed", "out_channels 16", "mb1ic1iw1oc16kw1"},
                               {"fails", "out_channels 18", "mb1ic1iw1oc18kw1"}};
  const std::string file = path("region.h5");
  write_case_file(file, found);
  EXPECT_EQ(read_case_file(file).finding->neighbours, found.finding->neighbours);
  const hid_t handle = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  replace_fixed_string_attribute(handle, "/finding", "neighbours",
                                 "passed\tout_channels 16\tmb1ic1iw1oc16kw1\nfails out_channels 18");
  H5Fclose(handle);
  EXPECT_EQ(error_of(file), fmt::format("case file {}: attribute /finding/neighbours: row 2 is not verdict, change and "
                                        "descriptor separated by tabs: 'fails out_channels 18'",
                                        file));
}

// A finding's direction and kind are read once, as a Direction and a FailureKind: an unknown name is refused naming
// the file and the attribute; a file from before kinds were recorded (no /finding/kind) reads as a mismatch.
TEST_F(CaseFileTest, ReadsAFindingsDirectionAndKindTypedAndRefusesUnknownNames) {
  const CaseFile found{make_case(parse_descriptor("mb1ic1iw1oc17kw1"), FillMode::exact, 5, 9), {},
                       FindingRecord{.strategy = "oc_tail_fwd", .direction = Direction::grad_weight,
                                     .problem = "crashed", .kind = FailureKind::crash}};
  const std::string file = path("typed.h5");
  write_case_file(file, found);
  EXPECT_EQ(read_case_file(file).finding->direction, Direction::grad_weight);
  EXPECT_EQ(read_case_file(file).finding->kind, FailureKind::crash);

  const auto mutated = [&](const char *name, const std::function<void(hid_t)> &mutate) {
    const std::string copy = path(name);
    fs::copy_file(file, copy, fs::copy_options::overwrite_existing);
    const hid_t handle = H5Fopen(copy.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    mutate(handle);
    H5Fclose(handle);
    return copy;
  };
  const std::string old = mutated("old.h5", [](hid_t f) {
    const hid_t group = H5Gopen2(f, "/finding", H5P_DEFAULT);
    H5Adelete(group, "kind");
    H5Gclose(group);
  });
  EXPECT_EQ(read_case_file(old).finding->kind, FailureKind::mismatch);
  const std::string sideways =
      mutated("sideways.h5", [](hid_t f) { replace_fixed_string_attribute(f, "/finding", "direction", "sideways"); });
  EXPECT_EQ(error_of(sideways), fmt::format("case file {}: attribute /finding/direction 'sideways' is not output, "
                                            "grad_data or grad_weight",
                                            sideways));
  const std::string melted =
      mutated("melted.h5", [](hid_t f) { replace_fixed_string_attribute(f, "/finding", "kind", "melted"); });
  EXPECT_EQ(error_of(melted), fmt::format("case file {}: attribute /finding/kind: unknown failure kind 'melted' "
                                          "(mismatch, crash or timeout)",
                                          melted));
}

TEST_F(CaseFileTest, AcceptsOtherIntegerTypesAndFixedLengthStrings) {
  const std::string file = valid_file([](hid_t handle) {
    replace_int_attribute(handle, "/config", "batch", H5T_STD_U8LE, 2);
    replace_int_attribute(handle, "/", "format_version", H5T_STD_I32BE, 1);
    replace_fixed_string_attribute(handle, "/config", "dtype", "float32");
    replace_fixed_string_attribute(handle, "/", "format", "convcheck-case");
  });
  EXPECT_EQ(error_of(file), "");
}

void replace_int_array_attribute(hid_t file, const char *object, const char *name, std::vector<int64_t> values) {
  const hid_t group = H5Oopen(file, object, H5P_DEFAULT);
  H5Adelete(group, name);
  const hsize_t count = values.size();
  const hid_t space = H5Screate_simple(1, &count, nullptr);
  const hid_t attribute = H5Acreate2(group, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, H5T_NATIVE_INT64, values.data());
  H5Aclose(attribute);
  H5Sclose(space);
  H5Oclose(group);
}

int64_t version_of(const std::string &file) {
  const hid_t handle = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t attribute = H5Aopen(handle, "format_version", H5P_DEFAULT);
  int64_t version = 0;
  H5Aread(attribute, H5T_NATIVE_INT64, &version);
  H5Aclose(attribute);
  H5Fclose(handle);
  return version;
}

TEST_F(CaseFileTest, WritesV1WhenTheProblemFitsAndV2Otherwise) {
  const std::vector<std::pair<std::string, int64_t>> problems = {
      {"g2mb2ic4ih5iw6oc6kh3kw2pt1pr2_nhwc_ohwi_f64", 1},
      {"mb2ic3iw9oc4kw3pl2_nwc_wio", 2},
      {"g2mb1ic4id4ih5iw3oc2kd2kh3kw2sd2dlh2pfr1pbk2_ndhwc_dhwio", 2},
      {"mb1ic2ih6iw5oc3kh3kw2pt-1pr-2", 2},
      {"mb1ic2ih6iw5oc3kh3kw2_f32:f32:f32:f64", 2},
  };
  for (const auto &[descriptor, version] : problems) {
    const std::string file = path("round-trip.h5");
    CaseFile original{make_case(parse_descriptor(descriptor), FillMode::exact, 3, 4), {}, {}};
    original.results["naive"][Direction::grad_data] = original.conv_case[Role::data].clone();
    write_case_file(file, original);
    EXPECT_EQ(version_of(file), version) << descriptor;
    const CaseFile read = read_case_file(file);
    EXPECT_EQ(format_descriptor(read.conv_case.problem), descriptor);
    for (Role role : input_roles) EXPECT_EQ(read.conv_case[role].shape(), original.conv_case[role].shape());
    EXPECT_EQ(read.results.at("naive").at(Direction::grad_data).shape(), original.conv_case[Role::data].shape());
  }
}

TEST_F(CaseFileTest, RejectsEveryMalformedV2Class) {
  const std::string descriptor = "g2mb1ic4id4ih5iw3oc2kd2kh3kw2sd2pfr1pl-1";
  struct Mutation {
    std::function<void(hid_t)> mutate;
    std::string message;
  };
  const std::vector<Mutation> mutations = {
      {[](hid_t f) { replace_int_array_attribute(f, "/config", "stride", {2, 1}); },
       "attribute /config/stride has 2 values, expected ndims 3"},
      {[](hid_t f) { replace_int_attribute(f, "/config", "ndims", H5T_STD_I64LE, 4); },
       "/config/ndims 4 must be 1, 2 or 3"},
      {[](hid_t f) { replace_int_array_attribute(f, "/config", "in_size", {4, -5, 3}); },
       "in_height -5 must be >= 1"},
      {[](hid_t f) { replace_int_array_attribute(f, "/config", "pad_end", {0, 0, -3}); },
       "output width is empty: in_width 3 + pad_left -1 + pad_right -3 < dilated kernel width 2"},
      {[](hid_t f) { replace_fixed_string_attribute(f, "/config", "op", "transpose"); }, "/config/op 'transpose' is not conv or deconv"},
      {[](hid_t f) { replace_fixed_string_attribute(f, "/config", "data_layout", "NCHW"); },
       "/config/data_layout 'NCHW' is not NCDHW or NDHWC"},
      {[](hid_t f) { replace_fixed_string_attribute(f, "/config", "acc_dtype", "bf8"); },
       "/config/acc_dtype 'bf8' is not float32, float64, bfloat16 or float16"},
      {[](hid_t f) { replace_fixed_string_attribute(f, "/config", "acc_dtype", "bf16"); },
       "acc_dtype bfloat16 is a storage format only: sums accumulate in float32 or float64"},
      {[](hid_t f) { replace_dataset(f, "/inputs/data", {1, 4, 4, 5}, H5T_IEEE_F32LE); },
       "dataset /inputs/data has shape [1, 4, 4, 5], expected [1, 4, 4, 5, 3]"},
  };
  for (const Mutation &mutation : mutations) {
    const std::string broken = valid_file(mutation.mutate, descriptor);
    EXPECT_EQ(error_of(broken), "case file " + broken + ": " + mutation.message);
  }
}

TEST_F(CaseFileTest, RejectsEveryMalformedClass) {
  const std::string missing = path("missing.h5");
  EXPECT_EQ(error_of(missing), "cannot open case file " + missing + ": no such file");

  const std::string text = path("text.h5");
  std::ofstream(text) << "not hdf5 at all";
  EXPECT_EQ(error_of(text), "case file " + text + ": not an HDF5 file");

  const std::string file = valid_file();
  const std::string truncated = path("truncated.h5");
  fs::copy_file(file, truncated);
  fs::resize_file(truncated, fs::file_size(truncated) / 2);
  EXPECT_NE(error_of(truncated), "");
  EXPECT_EQ(error_of(truncated).rfind("case file " + truncated + ": ", 0), 0u) << error_of(truncated);

  struct Mutation {
    std::function<void(hid_t)> mutate;
    std::string message;
  };
  const std::vector<Mutation> mutations = {
      {[](hid_t f) { H5Adelete(f, "format"); }, "attribute /format is missing"},
      {[](hid_t f) { replace_fixed_string_attribute(f, "/", "format", "other"); },
       "attribute /format is not 'convcheck-case'"},
      {[](hid_t f) { replace_int_attribute(f, "/", "format_version", H5T_STD_I64LE, 3); },
       "format_version 3 is not supported (this convcheck reads 1 to 2)"},
      {[](hid_t f) { H5Ldelete(f, "/config", H5P_DEFAULT); }, "group /config is missing"},
      {[](hid_t f) {
         const hid_t g = H5Gopen2(f, "/config", H5P_DEFAULT);
         H5Adelete(g, "kernel_width");
         H5Gclose(g);
       },
       "attribute /config/kernel_width is missing"},
      {[](hid_t f) { replace_fixed_string_attribute(f, "/config", "groups", "2"); },
       "attribute /config/groups is not an integer"},
      {[](hid_t f) { replace_int_attribute(f, "/config", "dtype", H5T_STD_I64LE, 32); },
       "attribute /config/dtype is not a string"},
      {[](hid_t f) { replace_fixed_string_attribute(f, "/config", "data_layout", "NCDHW"); },
       "/config/data_layout 'NCDHW' is not NCHW or NHWC"},
      {[](hid_t f) { replace_int_attribute(f, "/config", "groups", H5T_STD_I64LE, 3); },
       "groups 3 does not divide in_channels 4"},
      {[](hid_t f) { replace_int_attribute(f, "/config", "batch", H5T_STD_I64LE, int64_t{1} << 29); },
       "data tensor has 64424509440 elements, more than the limit 268435456 (see --max-elements)"},
      {[](hid_t f) { replace_int_attribute(f, "/config", "in_height", H5T_STD_I64LE, -5); },
       "in_height -5 must be >= 1"},
      {[](hid_t f) { H5Ldelete(f, "/inputs/weight", H5P_DEFAULT); }, "dataset /inputs/weight cannot be opened"},
      {[](hid_t f) { replace_dataset(f, "/inputs/data", {2, 4, 30}, H5T_IEEE_F32LE); },
       "dataset /inputs/data has shape [2, 4, 30], expected [2, 4, 5, 6]"},
      {[](hid_t f) { replace_dataset(f, "/inputs/weight", {6, 2, 3, 3}, H5T_IEEE_F32LE); },
       "dataset /inputs/weight has shape [6, 2, 3, 3], expected [6, 2, 3, 2]"},
      {[](hid_t f) { replace_dataset(f, "/inputs/grad_output", {2, 6, 7, 7}, H5T_STD_I32LE); },
       "dataset /inputs/grad_output is not floating point"},
  };
  for (const Mutation &mutation : mutations) {
    const std::string broken = valid_file(mutation.mutate);
    EXPECT_EQ(error_of(broken), "case file " + broken + ": " + mutation.message);
  }
  EXPECT_EQ(error_of(valid_file(), 100),
            "case file " + path("case.h5") +
                ": data tensor has 240 elements, more than the limit 100 (see --max-elements)");
}

TEST_F(CaseFileTest, ResultsOfAnyShapeAreKeptForTheDiffToJudge) {
  const std::string file = valid_file([](hid_t f) {
    replace_dataset(f, "/results/naive/output", {3, 3}, H5T_IEEE_F64LE);
  });
  const CaseFile read = read_case_file(file);
  EXPECT_EQ(read.results.at("naive").at(Direction::output).shape(), (Shape{3, 3}));
}

// Found by the sanitizer run (tests/fuzz/seeds/malformed/results-output-2pow40-by-2pow40-by-0.h5): a zero extent
// kept the element count at 0, so the huge extents beside it reached Shape and overflowed element_count.
TEST_F(CaseFileTest, RejectsHugeExtentsBesideAZeroOne) {
  const std::string file = valid_file([](hid_t f) {
    replace_dataset(f, "/results/naive/output", {hsize_t{1} << 40, hsize_t{1} << 40, 0}, H5T_IEEE_F32LE);
  });
  EXPECT_EQ(error_of(file), "case file " + file +
                                ": dataset /results/naive/output has an extent of 1099511627776, more than the limit "
                                "268435456");
  const std::string results = path("results.h5");
  const hid_t handle = H5Fcreate(results.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  replace_dataset(handle, "grad_data", {0, hsize_t{1} << 40, hsize_t{1} << 40}, H5T_IEEE_F64LE);
  H5Fclose(handle);
  try {
    read_result_file(results, parse_descriptor("ic1oc1ih1kh1"));
    ADD_FAILURE() << "read_result_file accepted a [0, 2^40, 2^40] dataset";
  } catch (const InputError &error) {
    EXPECT_EQ(std::string(error.what()), "case file " + results +
                                             ": dataset /grad_data has an extent of 1099511627776, more than the "
                                             "limit 268435456");
  }
}

// Found by tests/fuzz/malformed_seeds.sh: a newline inside a value split the error over two lines, and an unknown
// fill mode was reported without the file's name.
TEST_F(CaseFileTest, ErrorsAboutValuesStayOneLineAndNameTheFile) {
  const std::string newline = valid_file(
      [](hid_t f) { replace_fixed_string_attribute(f, "/config", "dtype", "float32\nfloat64"); });
  EXPECT_EQ(error_of(newline),
            "case file " + newline + ": /config/dtype 'float32\\x0afloat64' is not float32, float64, bfloat16 or float16");
  const std::string fill = valid_file([](hid_t f) { replace_fixed_string_attribute(f, "/", "fill", "uniform"); });
  EXPECT_EQ(error_of(fill), "case file " + fill + ": fill mode 'uniform' is not normal, exact, witness or mixed");
}

} // namespace
} // namespace convcheck

namespace convcheck {
namespace {

// bfloat16 and float16 tensors: stored as IEEE binary32 and binary16 (docs/case-format.md), read back bit for bit;
// a dataset its format contradicts, a value the format cannot hold and an unknown format name are rejected.
TEST_F(CaseFileTest, LowPrecisionTensorsRoundTripInTheirFileTypes) {
  for (const char *precision : {"bf16:bf16:bf16:f32", "f16:f16:f16:f32", "bf16:bf16:f32:f32"}) {
    const std::string file = path("low.h5");
    CaseFile original{make_case(parse_descriptor(std::string("mb2ic3ih5oc2kh3_") + precision), FillMode::normal, 7, 1),
                      {}, {}};
    original.results["naive"][Direction::output] = original.conv_case[Role::grad_output].clone();
    write_case_file(file, original);
    const CaseFile read = read_case_file(file);
    EXPECT_EQ(read.conv_case.problem, original.conv_case.problem) << precision;
    for (Role role : input_roles) {
      const Tensor &a = original.conv_case[role], &b = read.conv_case[role];
      ASSERT_EQ(b.dtype(), a.dtype());
      ASSERT_EQ(b.byte_size(), a.byte_size());
      EXPECT_EQ(std::memcmp(a.bytes(), b.bytes(), a.byte_size()), 0) << precision << " " << to_string(role);
    }
    const hid_t handle = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t dataset = H5Dopen2(handle, "/inputs/weight", H5P_DEFAULT);
    const hid_t type = H5Dget_type(dataset);
    EXPECT_EQ(H5Tget_size(type), precision[0] == 'b' ? 4u : 2u) << precision;
    H5Tclose(type);
    H5Dclose(dataset);
    H5Fclose(handle);
  }
}

TEST_F(CaseFileTest, RejectsLowPrecisionDatasetsTheirFormatContradicts) {
  const std::string descriptor = "mb1ic2ih4oc2kh3_bf16:bf16:bf16:f32";
  const std::vector<hsize_t> weight_dims{2, 2, 3, 3};
  std::vector<double> weights(36, 0.5);
  weights[3] = 0.1; // 0.1 has no 8-bit significand
  const std::string unrepresentable = valid_file(
      [&](hid_t f) { write_dataset(f, "/inputs/weight", weight_dims, H5T_IEEE_F32LE, weights); }, descriptor);
  EXPECT_EQ(error_of(unrepresentable), "case file " + unrepresentable +
                                           ": dataset /inputs/weight element 3 holds 0.10000000149011612, which is not representable "
                                           "in bfloat16");
  weights[3] = 0.5;
  const std::string wide = valid_file(
      [&](hid_t f) { write_dataset(f, "/inputs/weight", weight_dims, H5T_IEEE_F64LE, weights); }, descriptor);
  EXPECT_EQ(error_of(wide), "case file " + wide +
                                ": dataset /inputs/weight holds 64-bit floats, but bfloat16 is stored as 32-bit IEEE "
                                "floats");
  const std::string half = valid_file(
      [&](hid_t f) { write_dataset(f, "/inputs/weight", weight_dims, H5T_IEEE_F32LE, weights); },
      "mb1ic2ih4oc2kh3_f16:f16:f16:f32");
  EXPECT_EQ(error_of(half), "case file " + half +
                                ": dataset /inputs/weight holds 32-bit floats, but float16 is stored as 16-bit IEEE "
                                "floats");
  const std::string unknown = valid_file(
      [](hid_t f) { replace_fixed_string_attribute(f, "/config", "src_dtype", "bfloat8"); }, descriptor);
  EXPECT_EQ(error_of(unknown), "case file " + unknown +
                                   ": /config/src_dtype 'bfloat8' is not float32, float64, bfloat16 or float16");
}

// A deconv keeps its op and output_padding (an array attribute like every per-axis field), and its tensors under
// the deconv's own shapes (weight [C_in, C_out/G, k...]).
TEST_F(CaseFileTest, RoundTripsADeconvWithOutputPadding) {
  const std::string file = path("deconv.h5");
  const CaseFile original{make_case(parse_descriptor("g2mb2ic4ih5iw6oc6kh3kw2sh2sw3oph1opw2_deconv"), FillMode::exact,
                                    5, 9),
                          {}, {}};
  write_case_file(file, original);
  const CaseFile read = read_case_file(file);
  EXPECT_EQ(read.conv_case.problem, original.conv_case.problem);
  EXPECT_EQ(read.conv_case[Role::weight].shape(), (Shape{4, 3, 3, 2}));
  const hid_t handle = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t config = H5Gopen2(handle, "config", H5P_DEFAULT);
  EXPECT_GT(H5Aexists(config, "output_padding"), 0);
  H5Gclose(config);
  H5Fclose(handle);
}

// v2 files written by main before output_padding existed (tests/core/storage/v2/, from `convcheck check ...
// --inject group_interleave` at d36fb9e) read with the neutral value: a field added later never makes a stored
// file unreadable.
TEST(CaseFileVersions, V2FilesFromBeforeOutputPaddingReadAsConvsWithNone) {
  const std::string directory = std::string(CONVCHECK_SOURCE_DIR) + "/tests/core/storage/v2/";
  const CaseFile one = read_case_file(directory + "main-d36fb9e-1d-grouped.h5");
  EXPECT_EQ(format_descriptor(one.conv_case.problem), "g2mb2ic4iw7oc4kw3pl1");
  const CaseFile three = read_case_file(directory + "main-d36fb9e-3d-crop.h5");
  EXPECT_EQ(format_descriptor(three.conv_case.problem), "g2mb1ic4id3ih4iw5oc2kd2kh2kw3sw2pr-1");
  for (const CaseFile *file : {&one, &three}) {
    EXPECT_EQ(file->conv_case.problem.op, Op::conv);
    for (const SpatialAxis &axis : file->conv_case.problem.axes) EXPECT_EQ(axis.output_padding, 0);
    ASSERT_TRUE(file->finding.has_value());
    EXPECT_EQ(file->finding->strategy, "group_interleave");
  }
}

} // namespace
} // namespace convcheck
