"""usage: same_campaign.py UNSHARDED.json MERGED.json SHARDS

Exits 0 when MERGED.json, merged from SHARDS shard reports, is the unsharded run's report as a user compares them:
cases, counts per strategy and direction, stats, failures and the findings saved (by file name: the corpus
directories differ); timings and memory figures aside. Prints what differs otherwise."""
import json
import os
import sys


def comparable(path):
    report = json.load(open(path))

    def untimed(value):
        if isinstance(value, dict):
            return {k: untimed(v) for k, v in value.items() if k not in ("seconds", "shrink_s")}
        return value

    failures = []
    for failure in report["failures"]:
        failure = untimed(failure)
        if failure["repro"] is not None:
            failure["repro"] = os.path.basename(failure["repro"])
        failures.append(failure)
    return {"seed": report["seed"], "fill": report["fill"], "cases": report["cases"],
            "strategies": untimed(report["strategies"]), "failures": failures, "stats": report["stats"]}


def main(alone_path, merged_path, shards):
    alone, merged = comparable(alone_path), comparable(merged_path)
    saved = [f["repro"] for f in alone["failures"] if f["repro"]]
    if not saved:
        sys.exit("the unsharded run saved no finding: nothing to compare")
    for key in alone:
        if alone[key] != merged[key]:
            sys.exit(f"{key} differs:\n  unsharded {json.dumps(alone[key])[:600]}\n"
                     f"  merged    {json.dumps(merged[key])[:600]}")
    campaign = json.load(open(merged_path))["campaign"]
    if campaign["merged_shards"] != int(shards) or "partial" in campaign:
        sys.exit(f"merged campaign is not {shards} whole shards: {campaign}")
    print(f"merged report equals the unsharded run: {alone['cases']} cases, {len(alone['failures'])} failures, "
          f"{len(saved)} saved (the shards saved {len(campaign['saved_beyond_max'])} more, listed)")


if __name__ == "__main__":
    main(*sys.argv[1:])
