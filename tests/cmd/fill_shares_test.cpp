// `configs --stats` prints each fill's and each special kind's share (docs/distribution.md, "Fills"): the default
// draw of 20,000 cases of seed 1 holds each kind near its share, `--fill-special none` none, and a kind named alone
// only that one.

#include <map>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/cmd/convcheck_process.hpp"

namespace {

// The "fills" table of `configs --stats ARGS`: each row's name and its share of the cases, in percent.
std::map<std::string, double> fill_shares(const std::string &args) {
  const convcheck::testing::Invocation run =
      convcheck::testing::run_convcheck("configs --cases 20000 --seed 1 --stats " + args);
  EXPECT_EQ(run.status, 0) << run.output;
  std::map<std::string, double> shares;
  std::istringstream lines(run.output.substr(run.output.find("\nfills (")));
  const std::regex row("^((?:special )?[a-z_]+) +[0-9]+ +([0-9.]+)%.*");
  for (std::string line; std::getline(lines, line);)
    if (std::smatch match; std::regex_match(line, match, row)) shares[match[1]] = std::stod(match[2]);
  return shares;
}

TEST(FillShares, EachKindNearItsShareOfTheDefaultDraw) {
  const std::map<std::string, double> shares = fill_shares("");
  EXPECT_NEAR(shares.at("normal"), 49.3, 1.0);
  EXPECT_NEAR(shares.at("exact"), 36.7, 1.0);
  EXPECT_NEAR(shares.at("witness"), 14.0, 1.0);
  // Of the normal cases 1/8, 1/8 and 1/16, of the exact ones 1/16; tie 1/2 of the exact cases of narrowing rows.
  EXPECT_NEAR(shares.at("special subnormal"), 6.5, 0.5);
  EXPECT_NEAR(shares.at("special near_max"), 6.0, 0.5);
  EXPECT_NEAR(shares.at("special tie"), 5.7, 0.5);
  EXPECT_NEAR(shares.at("special signed_zero"), 5.3, 0.5);
}

TEST(FillShares, NoneDrawsNoKindAndOneKindOnlyItself) {
  for (const auto &[name, share] : fill_shares("--fill-special none"))
    if (name.rfind("special ", 0) == 0) EXPECT_EQ(share, 0.0) << name;
  const std::map<std::string, double> subnormal = fill_shares("--fill-special subnormal");
  EXPECT_NEAR(subnormal.at("special subnormal"), subnormal.at("normal"), 0.05); // every normal case
  EXPECT_EQ(subnormal.at("special tie"), 0.0);
}

TEST(FillShares, ABadKindIsRefused) {
  const convcheck::testing::Invocation run = convcheck::testing::run_convcheck("configs --stats --fill-special tied");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("fill special 'tied' is not none, subnormal, near_max, tie, signed_zero or mixed"),
            std::string::npos)
      << run.output;
}

} // namespace
