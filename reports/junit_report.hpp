#pragma once
// JUnit XML (--junit FILE.xml) for CI dashboards (Jenkins, GitLab): one <testsuite> "convcheck", one <testcase>
// per strategy x direction (classname = strategy, name = direction). A testcase fails when any case failed; its
// <failure> lists the failures with their descriptors and repro commands. A testcase whose cases were all skipped
// is <skipped/>.

#include <string>

#include "core/run/campaign.hpp"

namespace convcheck {

/// The report as JUnit XML text.
std::string junit_report(const CampaignReport &report);

/// Writes it atomically; throws InputError naming the path when it cannot.
void write_junit_report(const std::string &path, const CampaignReport &report);

} // namespace convcheck
