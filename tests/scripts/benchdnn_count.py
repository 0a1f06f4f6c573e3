#!/usr/bin/env python3
"""An independent count of the runs benchdnn makes from a batch file and of those in convcheck's scope: every
combination of every option's values enumerated one by one (convcheck's reader, core/problem/benchdnn_file.cpp,
multiplies list sizes instead), with its own tokenizer, tag and row tables. It does not know convcheck's element cap,
so its in-scope figure is convcheck's plus the runs convcheck skips as "a tensor over --max-elements".
The expected figures of tests/core/problem/benchdnn_file_test.cpp come from it.
Usage: benchdnn_count.py FILE (a file in a oneDNN checkout's tests/benchdnn/inputs/conv or deconv, or tests/data/benchdnn/)"""
import itertools, os, re, sys

ROWS = {"f32", "f64", "bf16", "f16", "f32:f32:f32", "f64:f64:f64", "bf16:bf16:bf16", "f16:f16:f16",
        "bf16:bf16:f32", "f16:f16:f32", "f32:bf16:bf16", "bf16:f32:bf16", "f32:f16:f16", "f16:f32:f16"}
NO_EFFECT = {"alg", "skip-impl", "impl", "attr-scratchpad", "attr-deterministic", "ctx-init", "ctx-exe",
             "allow-enum-tags-only", "cpu-isa-hints", "check-ref-impl", "perf-template", "mode", "max-ms-per-prb",
             "fix-times-per-prb", "canonical", "summary", "mem-check", "cold-cache", "start", "verbose"}
SINGLE = {"skip-impl", "impl", "match", "allow-enum-tags-only", "cpu-isa-hints", "check-ref-impl", "perf-template",
          "mode", "max-ms-per-prb", "fix-times-per-prb", "canonical", "summary", "mem-check", "cold-cache", "start",
          "verbose"}
DEFAULTS = {"bia-dt": {"undef"}, "strides": {"", "::"}, "attr-fpmath": {"", "strict"}, "attr-acc-mode": {"", "strict"},
            "inplace": {"", "false"}}

def fresh():
    return {"dir": ["FWD_B"], "dt": ["f32"], "stag": ["any"], "wtag": ["any"], "dtag": ["any"], "mb": ["0"], "match": None,
            "others": {}}

def ndims(desc):
    d = desc.split("n")[0] if 'n"' in desc else desc
    keys = re.findall(r"([a-z]+)\d+", d.replace("_", ""))
    if any(k in ("id", "od", "kd", "sd", "pd", "dd") for k in keys): return 3
    if any(k in ("ih", "oh", "kh", "sh", "ph", "dh") for k in keys): return 2
    return 1

def data_tag_ok(tag, nd):
    tag = letters(tag, nd)
    return tag in ("any", "abx", "axb") or tag in ({1: ("abc", "acb"), 2: ("abcd", "acdb"), 3: ("abcde", "acdeb")}[nd])

def letters(tag, nd):
    sp = "dhw"[3 - nd:]
    canon = "goi" + sp if "g" in tag else "oi" + sp if "o" in tag else "nc" + sp
    if len(tag) != len(canon) or any(c not in canon for c in tag): return tag
    return "".join(chr(97 + canon.index(c)) for c in tag)

def words(path):
    out = []; cont = False
    for line in open(path):
        for w in line.split():
            if w.startswith("#"): break
            if cont and out: w = out.pop() + w
            cont = w.endswith("\\")
            if cont: w = w[:-1]
            if w: out.append(w)
    return out

total = 0; inscope = 0; reasons = {}
def skip(r):
    reasons[r] = reasons.get(r, 0) + 1

def run_file(path, s):
    global total, inscope
    for w in words(path):
        if w.startswith("--batch="):
            run_file(os.path.join(os.path.dirname(path), w[8:]), s); continue
        if w.startswith("-"):
            name, _, val = w.lstrip("-").partition("=")
            if name == "reset": s.clear(); s.update(fresh()); continue
            if name in ("dir", "dt", "stag", "wtag", "dtag", "mb", "cfg"):
                key = "dt" if name == "cfg" else name
                s[key] = val.split(",") if val else fresh()[key]; continue
            if name == "match": s["match"] = val or None; continue
            s["others"][name] = [val] if (name in SINGLE or (name not in NO_EFFECT and name not in DEFAULTS
                                  and not name.startswith("attr-") and name not in ("bia-dt", "strides"))) else val.split(",")
            continue
        if s["match"] and not re.fullmatch(s["match"], w): continue
        nd = ndims(w)
        names = list(s["others"].keys())
        lists = [s["dir"], s["dt"], s["stag"], s["wtag"], s["dtag"], s["mb"]] + [s["others"][n] for n in names]
        for combo in itertools.product(*lists):
            total += 1
            dr, dt, st, wt, dg, mb = combo[:6]
            reason = None
            for n, v in zip(names, combo[6:]):
                if n in NO_EFFECT: continue
                known = n in DEFAULTS or n.startswith("attr-") or n in ("bia-dt", "strides")
                if not known: reason = f"--{n} (unknown)"; break
                if v not in DEFAULTS.get(n, {""}): reason = f"--{n}"; break
            if reason is None and dt not in ROWS: reason = f"--dt={dt}"
            if reason is None and not data_tag_ok(st, nd): reason = f"--stag={st}"
            if reason is None and not data_tag_ok(dg, nd): reason = f"--dtag={dg}"
            if reason is None and wt != "any" and letters(wt, nd) not in ("abcde"[:nd + 2], "abcdef"[:nd + 3]):
                reason = f"--wtag={wt}"
            if reason is None and st not in ("any",) and dg not in ("any",) and \
                    (letters(st, nd) in ("axb", "acb", "acdb", "acdeb")) != (letters(dg, nd) in ("axb", "acb", "acdb", "acdeb")):
                reason = "stag/dtag differ"
            if reason: skip(reason)
            else: inscope += 1

s = fresh(); run_file(sys.argv[1], s)
print(f"{os.path.basename(sys.argv[1])}: total {total} in_scope {inscope} skipped {total - inscope}: " +
      ", ".join(f"{k} ({v})" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])))
