#!/usr/bin/env bash
# deploy/k8s-nightly.yaml as far as a machine without a cluster can check it: rendered by deploy/k8s-nightly.sh,
# both Jobs are read by kubectl (client-side dry run, against a stub that only answers API discovery), and their
# semantics are those of the Slurm path: the shards' Job is Indexed with one completion per shard, a failed shard
# fails its own index only; and the pods' own commands, run here with the index Kubernetes would give, make a
# campaign whose merge exits 1 and equals the unsharded run, a shard whose binary is missing fails, and a merge
# without one shard report is refused (exit 2).
#   usage: k8s_nightly.sh CONVCHECK SOURCE_DIR WORK_DIR        exit 77 (skipped) without kubectl
set -euo pipefail
convcheck=$1 root=$2 work=$3
command -v kubectl >/dev/null || { echo "kubectl not found: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
seed=20261124 cases=240 shards=4
fuzz_args="--strategies naive,im2col --inject pad_order --case-timeout 10"

IMAGE=registry.example/convcheck:test CONVCHECK="$convcheck" SEED=$seed SHARDS=$shards BUDGET="--cases $cases" \
  CPUS=1 FUZZ_ARGS="$fuzz_args" RUN=test-run "$root/deploy/k8s-nightly.sh" render >"$work/rendered.yaml"
! grep -nE '\$\{[A-Z_]+\}' "$work/rendered.yaml" || fail "fields left unfilled"

# kubectl reads the manifests as it would for `kubectl create`, with only API discovery to answer it.
/usr/bin/python3 - "$work/port" <<'PY' &
import json, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
group = {"groupVersion": "batch/v1", "version": "v1"}
answers = {
    "/api": {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []},
    "/api/v1": {"kind": "APIResourceList", "groupVersion": "v1", "resources": []},
    "/apis": {"kind": "APIGroupList", "apiVersion": "v1",
              "groups": [{"name": "batch", "versions": [group], "preferredVersion": group}]},
    "/apis/batch/v1": {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "batch/v1",
                       "resources": [{"name": "jobs", "singularName": "job", "namespaced": True, "kind": "Job",
                                      "verbs": ["create", "get", "list"]}]},
}
class Discovery(BaseHTTPRequestHandler):
    def do_GET(self):
        answer = answers.get(self.path.split("?")[0])
        self.send_response(200 if answer else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps(answer or {"kind": "Status", "apiVersion": "v1", "code": 404}).encode())
    def log_message(self, *args):
        pass
server = HTTPServer(("127.0.0.1", 0), Discovery)
open(sys.argv[1], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
stub=$!
trap 'kill $stub' EXIT
for _ in $(seq 50); do [[ -s "$work/port" ]] && break; sleep 0.1; done
KUBECONFIG=/dev/null kubectl --server="http://127.0.0.1:$(cat "$work/port")" create --dry-run=client \
  --validate=false -o json -f "$work/rendered.yaml" >"$work/jobs.json" || fail "kubectl cannot read the manifests"

# The Jobs as Kubernetes would run them, and their pods' commands run here.
/usr/bin/python3 - "$work" "$root" "$convcheck" "$seed" "$cases" "$shards" "$fuzz_args" <<'PY' || fail "see above"
import json, os, shutil, subprocess, sys
work, root, convcheck, seed, cases, shards, fuzz_args = sys.argv[1:]
shards = int(shards)
text, jobs, at = open(f"{work}/jobs.json").read(), [], 0
while at < len(text.rstrip()):
    job, at = json.JSONDecoder().raw_decode(text, at)
    jobs.append(job)
    while at < len(text) and text[at].isspace():
        at += 1
shard_job, merge_job = jobs
assert [j["kind"] for j in jobs] == ["Job", "Job"]
spec = shard_job["spec"]
assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"] == shards, spec
assert spec["backoffLimitPerIndex"] == 0 and spec["maxFailedIndexes"] == shards, spec
assert spec["template"]["spec"]["restartPolicy"] == "Never"
assert merge_job["spec"]["backoffLimit"] == 0

def pod_command(job, **environment):
    container = job["spec"]["template"]["spec"]["containers"][0]
    env = {e["name"]: e["value"] for e in container["env"]}
    env.update(environment)
    for name, value in env.items():  # /shared is the claim's mount: here a scratch directory
        env[name] = value.replace("/shared", f"{work}/shared")
    return lambda: subprocess.run(container["command"] + container["args"], env={**os.environ, **env},
                                  capture_output=True, text=True)

for index in range(shards):
    ended = pod_command(shard_job, JOB_COMPLETION_INDEX=str(index))()
    assert ended.returncode == 0, f"shard {index} exited {ended.returncode}: {ended.stderr}"
merged = pod_command(merge_job)()
assert merged.returncode == 1, f"merge exited {merged.returncode}, not 1 (findings): {merged.stderr}"
run_dir = f"{work}/shared/runs/test-run"
alone = subprocess.run([convcheck, "fuzz", "--seed", seed, "--cases", cases, "--threads", "1", *fuzz_args.split(),
                        "--corpus", f"{work}/alone", "--report", f"{work}/alone.json"], capture_output=True)
assert alone.returncode == 1, alone
subprocess.run([sys.executable, f"{root}/tests/deploy/same_campaign.py", f"{work}/alone.json",
                f"{run_dir}/merged.json", str(shards)], check=True)

broken = pod_command(shard_job, JOB_COMPLETION_INDEX="1", CONVCHECK="/nonexistent/convcheck")()
assert broken.returncode not in (0, 1), f"a shard without its binary exited {broken.returncode}"
os.remove(f"{run_dir}/reports/shard-2.json")
refused = pod_command(merge_job)()
assert refused.returncode == 2 and "shard 2/4 is missing" in refused.stderr, refused
print(f"a shard without its binary exits {broken.returncode}; without shard 2 the merge exits 2: "
      f"{refused.stderr.strip()}")
PY
