#include "core/run/known_bug.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

namespace convcheck {

namespace {

std::vector<std::string> version_parts(const std::string &version) {
  std::vector<std::string> parts(1);
  for (char c : version)
    if (c == '.' || c == '-' || c == '+') parts.emplace_back();
    else parts.back() += c;
  return parts;
}

bool numeric(const std::string &part) {
  return !part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Tables live as long as the process; registration happens before main() (file-static tokens).
std::vector<std::unique_ptr<KnownBugTable>> &tables() {
  static std::vector<std::unique_ptr<KnownBugTable>> registered;
  return registered;
}

} // namespace

int compare_versions(const std::string &a, const std::string &b) {
  const std::vector<std::string> left = version_parts(a), right = version_parts(b);
  for (size_t i = 0; i < std::max(left.size(), right.size()); ++i) {
    const std::string x = i < left.size() ? left[i] : "0", y = i < right.size() ? right[i] : "0";
    if (numeric(x) && numeric(y)) {
      const unsigned long long p = std::stoull(x), q = std::stoull(y);
      if (p != q) return p < q ? -1 : 1;
    } else if (x != y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

bool VersionRange::contains(const std::string &version) const {
  if (version.empty()) return true;
  if (!first.empty() && compare_versions(version, first) < 0) return false;
  return fixed_in.empty() || compare_versions(version, fixed_in) < 0;
}

std::string VersionRange::describe() const {
  const std::string end = fixed_in.empty() ? "not fixed" : "< " + fixed_in;
  return first.empty() ? end : fmt::format(">= {}, {}", first, end);
}

KnownBugRegistration::KnownBugRegistration(KnownBugTable table) {
  for (KnownBug &row : table.rows) {
    row.library = table.library;
    if (find_known_bug(row.id) != nullptr) { // in every build: a second row would never be asked
      std::fprintf(stderr, "convcheck: two known bugs are called %s: each id is registered once\n", row.id.c_str());
      std::abort();
    }
  }
  tables().push_back(std::make_unique<KnownBugTable>(std::move(table)));
}

std::vector<const KnownBugTable *> known_bug_tables() {
  std::vector<const KnownBugTable *> all;
  for (const auto &table : tables()) all.push_back(table.get());
  std::sort(all.begin(), all.end(), [](auto *a, auto *b) { return a->library < b->library; });
  return all;
}

const KnownBug *find_known_bug(const std::string &id) {
  for (const auto &table : tables())
    for (const KnownBug &row : table->rows)
      if (row.id == id) return &row;
  return nullptr;
}

const KnownBug *held_back_by(const std::string &strategy, const Case &conv_case, Direction direction,
                             const Ran &ran) {
  for (const auto &table : tables()) {
    std::string version; // asked only when a row of this strategy and direction is reached
    bool asked = false;
    for (const KnownBug &row : table->rows) {
      if (std::find(row.strategies.begin(), row.strategies.end(), strategy) == row.strategies.end()) continue;
      if (std::find(row.directions.begin(), row.directions.end(), direction) == row.directions.end()) continue;
      if (!row.reached(conv_case, direction, ran)) continue;
      if (!asked) version = table->version ? table->version() : "", asked = true;
      if (row.versions.contains(version)) return &row;
    }
  }
  return nullptr;
}

std::string held_back_detail(const KnownBug &bug, const std::string &implementation) {
  const KnownBugTable *table = nullptr;
  for (const auto &each : tables())
    if (each->library == bug.library) table = each.get();
  const std::string version = table != nullptr && table->version ? table->version() : "";
  return fmt::format("{}: {} ({}{} {}; {})", bug.id, bug.reason, implementation.empty() ? "" : implementation + "; ",
                     bug.library, version.empty() ? "of unknown version" : version, bug.upstream);
}

std::string held_back_id(const std::string &detail) { return detail.substr(0, detail.find(':')); }

} // namespace convcheck
