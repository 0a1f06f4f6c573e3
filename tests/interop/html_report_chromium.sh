#!/usr/bin/env bash
# The HTML report in a real browser: a fuzz run with a planted bug writes --html, headless Chromium renders it to a
# screenshot and to its DOM, and we check what a person would look for: the finding (strategy, shrunk descriptor,
# repro command), the charts, and a picture that is the requested size and not blank. Then `report merge --html`
# of two shards draws the same matrix and charts as the whole run.
# usage: html_report_chromium.sh CONVCHECK WORKDIR
# Exits 77 (ctest: skipped) where /usr/bin/chromium or Debian's python3-pil is missing.
set -euo pipefail
convcheck=$1 workdir=$2
chromium=/usr/bin/chromium
if [[ ! -x $chromium ]] || ! /usr/bin/python3 -c "import PIL" 2>/dev/null; then
  echo "skipped: needs /usr/bin/chromium and /usr/bin/python3 with PIL (apt-get install chromium python3-pil)"
  exit 77
fi
rm -rf "$workdir" && mkdir -p "$workdir"
cd "$workdir"

status=0
"$convcheck" fuzz --seed 3 --cases 300 --threads 2 --inject pad_order --strategies naive --corpus findings \
  --report report.json --html report.html >fuzz.log 2>&1 || status=$?
[[ $status -eq 1 ]] || { echo "fuzz exited $status, expected 1 (pad_order's findings)"; cat fuzz.log; exit 1; }

# --no-sandbox: the suite may run as root (containers); the page has no script and fetches nothing anyway.
# timeout: a browser that hangs must fail this test, not the suite.
browser() {
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking \
    --disable-component-update --no-first-run --user-data-dir="$workdir/profile" "$@" 2>>chromium.log
}
browser --screenshot="$workdir/page.png" --window-size=1280,2400 "file://$workdir/report.html" >/dev/null
browser --dump-dom "file://$workdir/report.html" >dom.html

for shard in 0 1; do
  status=0
  "$convcheck" fuzz --seed 3 --cases 300 --threads 2 --inject pad_order --strategies naive --shard $shard/2 \
    --corpus shard-findings --report shard-$shard.json >/dev/null 2>&1 || status=$?
  [[ $status -eq 1 ]] || { echo "shard $shard exited $status, expected 1"; exit 1; }
done
status=0
"$convcheck" report merge shard-0.json shard-1.json --html merged.html >/dev/null || status=$?
[[ $status -eq 1 ]] || { echo "report merge exited $status, expected 1"; exit 1; }

/usr/bin/python3 - <<'PY'
import json, re
from PIL import Image, ImageStat

report = json.load(open("report.json"))
dom = open("dom.html", encoding="utf-8").read()
saved = [f for f in report["failures"] if f["repro"]]
assert saved, "the run saved no finding"
for finding in saved:
    for expected in (finding["strategy"], finding["shrunk_config"], "convcheck repro " + finding["repro"]):
        assert expected in dom, f"the rendered page lacks {expected!r}"
assert re.search(r'id="verdict">\d+ findings?<small>', dom), "no verdict in the rendered page"

def section(page, name):
    match = re.search(rf'<section id="{name}">(.*?)</section>', page, re.S)
    assert match, f"no section {name}"
    return match.group(1)

# One ratio chart per strategy (naive, pad_order), one chart per config-space grid, each with drawn marks.
charts = {name: re.findall(r"<svg\b.*?</svg>", section(dom, name), re.S) for name in ("ratios", "config-space")}
assert len(charts["ratios"]) == 2, len(charts["ratios"])
assert len(charts["config-space"]) == len(report["stats"]["config_space"]) == 10, len(charts["config-space"])
for svg in charts["ratios"] + charts["config-space"]:
    assert svg.count("<rect") >= 3, svg[:200]

image = Image.open("page.png").convert("RGB")
assert image.size == (1280, 2400), image.size
colors = image.getcolors(maxcolors=1 << 22)
assert len(colors) > 500, f"only {len(colors)} colors: a blank page?"
assert max(ImageStat.Stat(image).stddev) > 20, "hardly any contrast: a blank page?"
red, green, blue = image.getpixel((640, 40))
assert red > green + 60 and red > blue + 60, f"the verdict banner at the top is not red: {(red, green, blue)}"

# The merged shard reports draw what the whole run drew.
merged = open("merged.html", encoding="utf-8").read()
whole = open("report.html", encoding="utf-8").read()
for name in ("matrix", "ratios", "config-space"):
    assert section(merged, name) == section(whole, name), f"merged {name} differs from the whole run's"
print(f"html report: {len(saved)} findings and {sum(map(len, charts.values()))} charts rendered, "
      f"{len(colors)} colors in the screenshot; merged shards draw the same")
PY
