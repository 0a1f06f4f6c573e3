#include "reports/identity_json.hpp"

namespace convcheck {

namespace {

template <typename T> nlohmann::json or_null(const std::optional<T> &value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

template <typename T> std::optional<T> optional_at(const nlohmann::json &json, const char *key) {
  if (!json.contains(key) || json.at(key).is_null()) return std::nullopt;
  return json.at(key).get<T>();
}

} // namespace

nlohmann::json identity_json(const CampaignIdentity &identity) {
  nlohmann::json shard = {{"count", identity.shard_count}};
  if (!identity.merged_shards) shard["index"] = identity.shard_index;
  nlohmann::json json = {{"command", identity.command},
                         {"name", identity.name},
                         {"seed", identity.seed},
                         {"shard", shard},
                         {"cases", or_null(identity.cases)},
                         {"time_s", or_null(identity.time_s)},
                         {"planned_cases", or_null(identity.planned_cases)},
                         {"strategies", identity.strategies},
                         {"fill", identity.fill},
                         {"focus", identity.focus},
                         {"shrink", identity.shrink},
                         {"max_saved", identity.max_saved},
                         {"convcheck_version", identity.version}};
  if (identity.merged_shards) {
    json["merged_shards"] = *identity.merged_shards;
    json["saved_beyond_max"] = identity.saved_beyond_max;
    if (!identity.partial.empty())
      json["partial"] = {{"missing_shards", identity.partial.missing_shards},
                         {"incomplete_shards", identity.partial.incomplete_shards}};
  }
  return json;
}

CampaignIdentity identity_from_json(const nlohmann::json &json) {
  CampaignIdentity identity;
  identity.command = json.at("command").get<std::string>();
  identity.name = json.at("name").get<std::string>();
  identity.seed = json.at("seed").get<uint64_t>();
  identity.shard_count = json.at("shard").at("count").get<uint64_t>();
  identity.shard_index = json.at("shard").value("index", uint64_t{0});
  identity.cases = optional_at<int64_t>(json, "cases");
  identity.time_s = optional_at<double>(json, "time_s");
  identity.planned_cases = optional_at<int64_t>(json, "planned_cases");
  identity.strategies = json.at("strategies").get<std::vector<std::string>>();
  identity.fill = json.at("fill").get<std::string>();
  identity.focus = json.value("focus", ""); // older reports have none
  identity.shrink = json.at("shrink").get<bool>();
  identity.max_saved = json.at("max_saved").get<int64_t>();
  identity.version = json.at("convcheck_version").get<std::string>();
  identity.merged_shards = optional_at<uint64_t>(json, "merged_shards");
  identity.saved_beyond_max = json.value("saved_beyond_max", std::vector<std::string>{});
  if (json.contains("partial")) {
    identity.partial.missing_shards = json.at("partial").at("missing_shards").get<std::vector<uint64_t>>();
    identity.partial.incomplete_shards = json.at("partial").at("incomplete_shards").get<std::vector<uint64_t>>();
  }
  return identity;
}

} // namespace convcheck
