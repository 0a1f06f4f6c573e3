// The failing region's stored form: rows survive formatting and parsing, a bad row is refused with its number, and
// the summary names the boundary side.

#include "core/storage/neighbour_rows.hpp"

#include <gtest/gtest.h>

#include "core/input_error.hpp"

namespace convcheck {
namespace {

std::string error_of(const std::string &text) {
  try {
    parse_neighbour_rows(text, "x.h5: attribute /finding/neighbours");
  } catch (const InputError &error) {
    return error.what();
  }
  return "";
}

TEST(NeighbourRows, RoundTripAndEmpty) {
  const std::vector<NeighbourRow> rows = {{"passed", "out_channels 16", "mb1ic1iw1oc16kw1"},
                                          {"fails", "data_layout NWC", "mb1ic1iw1oc17kw1_nwc"},
                                          {"skipped", "dtype f64", "mb1ic1iw1oc17kw1_f64"},
                                          {"held_back", "batch 2", "mb2ic1iw1oc17kw1"}};
  EXPECT_EQ(format_neighbour_rows(rows),
            "passed\tout_channels 16\tmb1ic1iw1oc16kw1\nfails\tdata_layout NWC\tmb1ic1iw1oc17kw1_nwc\n"
            "skipped\tdtype f64\tmb1ic1iw1oc17kw1_f64\nheld_back\tbatch 2\tmb2ic1iw1oc17kw1");
  EXPECT_EQ(parse_neighbour_rows(format_neighbour_rows(rows), "x"), rows);
  EXPECT_EQ(format_neighbour_rows({}), "");
  EXPECT_TRUE(parse_neighbour_rows("", "x").empty());
}

TEST(NeighbourRows, BadRowsAreRefusedByNumber) {
  EXPECT_EQ(error_of("passed\ta\tb\nfailed\tc\td"),
            "x.h5: attribute /finding/neighbours: row 2 has verdict 'failed' (known: fails, passed, skipped, weak, held_back)");
  EXPECT_EQ(error_of("passed\ta\tb\tc"), "x.h5: attribute /finding/neighbours: row 1 is not verdict, change and "
                                         "descriptor separated by tabs: 'passed\ta\tb\tc'");
}

TEST(NeighbourRows, SummaryNamesTheFewSide) {
  std::vector<NeighbourRow> rows = {{"passed", "out_channels 16", "a"}, {"fails", "out_channels 18", "b"},
                                    {"fails", "batch 2", "c"}};
  EXPECT_EQ(neighbour_summary(rows), "2 of 3 neighbours fail; passes with out_channels 16");
  rows.push_back({"passed", "stride_width 1", "d"});
  rows.push_back({"passed", "data_layout NCHW", "e"});
  EXPECT_EQ(neighbour_summary(rows), "2 of 5 neighbours fail; fails with out_channels 18, batch 2");
  EXPECT_EQ(neighbour_summary({}), "0 of 0 neighbours fail");
}

} // namespace
} // namespace convcheck
