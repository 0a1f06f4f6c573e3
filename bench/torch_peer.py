#!/usr/bin/python3
"""The peer of issue 6's benchmark: what a user would write today to check conv2d with PyTorch.

usage: torch_peer.py BATCH_FILE [--plain] [--passes P] [--per-case] [--threads N] [--seed S] [--rtol R] [--atol A]

For every config of BATCH_FILE (convcheck native descriptors, one per line, `#` comments and blank lines
ignored) it draws deterministic standard-normal inputs, runs torch.nn.functional.conv2d forward and autograd
backward once in float32 and once in float64, and requires each float32 result (output, grad_data,
grad_weight) to satisfy torch.allclose(float32_result, float64_result, rtol=1e-4, atol=1e-5). That is a
fixed tolerance, not convcheck's per-element bound: it is what such a harness typically uses, and it is cheaper
than a bound, which would need a second convolution of absolute values per direction.

Config semantics follow convcheck (core/problem/descriptor.hpp): dilation 1 means none; padding is top, bottom, left,
right and is applied with F.pad (a negative one crops there too), so asymmetric padding needs no special case; `nhwc` runs data, weight and
grad_output in torch.channels_last; `ohwi` is the weight's channels_last, `oihw`/`hwio` keep the default
weight format (PyTorch has no HWIO memory format). The dtype word is ignored: the peer always checks float32
against float64, one implementation per case, which is its whole point of comparison with convcheck.

--passes P goes through the list P times (default 1), as `convcheck check` does when given the same --batch P
times: case i of pass p is case p * n + i, with its own inputs. By default the cases are driven as a Hypothesis
property over case indexes (st.integers(0, P * n - 1), max_examples = P * n, derandomize, no database, no
deadline); Hypothesis repeats some indexes and leaves others out, so `cases` counts the DISTINCT cases it verified
and `examples` the property calls. --plain instead loops over every case exactly once, the fairest comparison.
With --plain, --per-case first prints one line per config, `case DESCRIPTOR MILLISECONDS`, the fastest of its passes
(bench/at_size.sh reads them). Either way the last line of stdout is one JSON object: {"harness", "cases", "seconds", "cases_per_s",
"cpu_seconds", "failures", ...}, where `seconds` is the verification loop only (after imports and parsing) and
`cpu_seconds` that loop's thread CPU time (with one torch thread, all of its work). Exit status 0 all agreed, 1 a mismatch, 2 bad input.

Run it with Debian's /usr/bin/python3 (python3-torch, python3-hypothesis, numpy).
"""
import argparse
import importlib
import json
import re
import sys
import time

import torch
import torch.nn.functional as F

KEYS = ("g", "mb", "ic", "ih", "iw", "oc", "kh", "kw", "sh", "sw", "dlh", "dlw", "pt", "pb", "pl", "pr")
WORDS = ("nchw", "nhwc", "oihw", "hwio", "ohwi", "f32", "f64")


class InputError(Exception):
    pass


def parse_descriptor(text):
    """A dict of the 16 keys plus data_layout, weight_layout, dtype, filled with convcheck's defaults."""
    values, words = {}, {}
    for token in re.findall(r"f32|f64|[a-z]+-?[0-9]*|.", text):
        if token == "_":
            continue
        match = re.fullmatch(r"([a-z]+)(-?[0-9]+)", token)  # padding may be negative: a crop, which F.pad does too
        if token in WORDS:
            kind = "dtype" if token[0] == "f" else "data_layout" if token.startswith("n") else "weight_layout"
            words[kind] = token
        elif match and match.group(1) in KEYS:
            if match.group(1) in values:
                raise InputError(f"key '{match.group(1)}' given twice in descriptor '{text}'")
            values[match.group(1)] = int(match.group(2))
        else:
            raise InputError(f"unexpected '{token}' in descriptor '{text}'")
    for required in ("ic", "oc", "ih", "kh"):
        if required not in values:
            raise InputError(f"missing key '{required}' in descriptor '{text}'")
    config = {"g": 1, "mb": 1, "sh": 1, "sw": 1, "dlh": 1, "dlw": 1, "pt": 0, "pb": 0, "pl": 0, "pr": 0,
              "iw": values["ih"], "kw": values["kh"], "data_layout": "nchw", "weight_layout": "oihw", "dtype": "f32"}
    config.update(values)
    config.update(words)
    config["text"] = text
    validate(config)
    return config


def validate(c):
    """The subset of convcheck's validate() that keeps torch from failing: positive sizes, whole groups, an
    output of at least one element."""
    for key in ("g", "mb", "ic", "ih", "iw", "oc", "kh", "kw", "sh", "sw", "dlh", "dlw"):
        if c[key] < 1:
            raise InputError(f"'{key}' must be positive in descriptor '{c['text']}'")
    if c["ic"] % c["g"] or c["oc"] % c["g"]:
        raise InputError(f"ic and oc must be multiples of g in descriptor '{c['text']}'")
    if min(output_size(c["ih"], c["pt"], c["pb"], c["kh"], c["dlh"], c["sh"]),
           output_size(c["iw"], c["pl"], c["pr"], c["kw"], c["dlw"], c["sw"])) < 1:
        raise InputError(f"the dilated kernel is larger than the padded input in descriptor '{c['text']}'")


def read_batch(path):
    configs = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if text:
                try:
                    configs.append(parse_descriptor(text))
                except InputError as error:
                    raise InputError(f"{path}:{number}: {error}") from None
    if not configs:
        raise InputError(f"batch file {path} has no config")
    return configs


def output_size(extent, pad_before, pad_after, kernel, dilation, stride):
    return (extent + pad_before + pad_after - dilation * (kernel - 1) - 1) // stride + 1


def make_inputs(c, seed, index):
    """Standard-normal float64 data, weight and grad_output; the same for a (seed, index) on every run."""
    generator = torch.Generator().manual_seed(seed * 1_000_003 + index)
    oh = output_size(c["ih"], c["pt"], c["pb"], c["kh"], c["dlh"], c["sh"])
    ow = output_size(c["iw"], c["pl"], c["pr"], c["kw"], c["dlw"], c["sw"])
    shapes = ((c["mb"], c["ic"], c["ih"], c["iw"]), (c["oc"], c["ic"] // c["g"], c["kh"], c["kw"]),
              (c["mb"], c["oc"], oh, ow))
    return [torch.randn(shape, generator=generator, dtype=torch.float64) for shape in shapes]


def conv_with_grads(c, data, weight, grad_output, dtype):
    """output, grad_data, grad_weight of conv2d in `dtype` (forward plus autograd backward)."""
    data, weight, grad_output = (t.to(dtype) for t in (data, weight, grad_output))
    if c["data_layout"] == "nhwc":
        data, grad_output = (t.contiguous(memory_format=torch.channels_last) for t in (data, grad_output))
    if c["data_layout"] == "nhwc" or c["weight_layout"] == "ohwi":
        weight = weight.contiguous(memory_format=torch.channels_last)
    data.requires_grad_()
    weight.requires_grad_()
    padded = F.pad(data, (c["pl"], c["pr"], c["pt"], c["pb"]))
    output = F.conv2d(padded, weight, stride=(c["sh"], c["sw"]), dilation=(c["dlh"], c["dlw"]), groups=c["g"])
    output.backward(grad_output)
    return output.detach(), data.grad, weight.grad


def verify(c, seed, index, rtol, atol):
    """The names of the directions whose float32 result is not allclose to the float64 one."""
    inputs = make_inputs(c, seed, index)
    single = conv_with_grads(c, *inputs, torch.float32)
    double = conv_with_grads(c, *inputs, torch.float64)
    return [name for name, got, expected in zip(("output", "grad_data", "grad_weight"), single, double)
            if not torch.allclose(got.double(), expected, rtol=rtol, atol=atol)]


def run_plain(configs, args, failed):
    fastest = [float("inf")] * len(configs)
    for index in range(args.passes * len(configs)):
        start = time.perf_counter()
        bad = verify(configs[index % len(configs)], args.seed, index, args.rtol, args.atol)
        fastest[index % len(configs)] = min(fastest[index % len(configs)], time.perf_counter() - start)
        if bad:
            failed[index] = bad
    if args.per_case:
        for config, seconds in zip(configs, fastest):
            print(f"case {config['text']} {1000 * seconds:.4f}")
    return args.passes * len(configs), args.passes * len(configs)


def run_hypothesis(configs, args, failed):
    from hypothesis import given, settings, strategies as st  # imported before the clock starts, see main

    seen = set()
    calls = [0]

    cases = args.passes * len(configs)

    @settings(max_examples=cases, database=None, deadline=None, derandomize=True)
    @given(st.integers(0, cases - 1))
    def conv2d_float32_matches_float64(index):
        calls[0] += 1
        seen.add(index)
        config = configs[index % len(configs)]
        bad = verify(config, args.seed, index, args.rtol, args.atol)
        if bad:
            failed[index] = bad
        assert not bad, f"{config['text']}: {', '.join(bad)} not allclose to float64"

    try:
        conv2d_float32_matches_float64()
    except AssertionError as error:  # Hypothesis stops at the first failure, after shrinking the index
        print(f"torch_peer: hypothesis: {error}", file=sys.stderr)
    return len(seen), calls[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("batch", help="file of convcheck native descriptors, one per line")
    parser.add_argument("--plain", action="store_true", help="a plain loop over every case exactly once")
    parser.add_argument("--passes", type=int, default=1, help="times through the list (default 1)")
    parser.add_argument("--per-case", action="store_true",
                        help="with --plain, print each config's fastest milliseconds over the passes")
    parser.add_argument("--threads", type=int, default=1, help="torch intra-op threads (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the inputs")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    args = parser.parse_args()
    if args.threads < 1:
        parser.error(f"threads {args.threads} must be >= 1")
    if args.passes < 1:
        parser.error(f"passes {args.passes} must be >= 1")
    try:
        configs = read_batch(args.batch)
    except (InputError, OSError) as error:
        print(f"torch_peer: error: {error}", file=sys.stderr)
        return 2
    if not args.plain:
        importlib.import_module("hypothesis")  # importing it, like torch, is not part of `seconds`
    torch.set_num_threads(args.threads)
    failed = {}
    start, cpu_start = time.perf_counter(), time.thread_time()
    cases, examples = (run_plain if args.plain else run_hypothesis)(configs, args, failed)
    seconds, cpu_seconds = time.perf_counter() - start, time.thread_time() - cpu_start
    for index, directions in sorted(failed.items()):
        text = configs[index % len(configs)]["text"]
        print(f"torch_peer: mismatch: case {index} {text}: {', '.join(directions)}", file=sys.stderr)
    print(json.dumps({"harness": "torch-plain" if args.plain else "torch-hypothesis", "cases": cases,
                      "examples": examples, "seconds": round(seconds, 4), "cases_per_s": round(cases / seconds, 2),
                      "cpu_seconds": round(cpu_seconds, 4),
                      "failures": len(failed), "threads": args.threads,
                      "tolerance": f"allclose rtol={args.rtol:g} atol={args.atol:g}"}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
