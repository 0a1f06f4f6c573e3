# The driver of a reproducer `convcheck repro CASE --emit ROOM` writes for a server room (cmd/emit_server.cpp): the
# script starts with the case's constants (STRATEGY, SERVER_SCRIPT, SERVER_ARGUMENTS, REQUEST, PAYLOAD, BOUNDS) and
# SOURCES, the room's server code and convcheck's server helper as they were when the script was written, then
# this text. It runs the server's own compute on the request convcheck would send it, in a child process (a crash or
# a hang of the stack is the bug showing, not the end of the script), computes the float64 reference in NumPy
# (numpy_reference.py) and judges each result under convcheck's bound of the case, carried in BOUNDS.
#   exit 0: every result within its bound; 1: the bug shows (a value over its bound, a wrong shape, an error raised,
#   the process killed or past --timeout); 2: the stack declined the problem (unsupported, every direction skipped).
import argparse
import base64
import importlib.abc
import importlib.util
import json
import os
import pickle
import signal
import sys

import numpy as np


class Inlined(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the modules of SOURCES from their text in this script, before anything on sys.path."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in SOURCES else None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(SOURCES[module.__name__], f"{module.__name__}.py (inlined)", "exec"), module.__dict__)


sys.meta_path.insert(0, Inlined())
import convcheck_server  # noqa: E402  (inlined above)
from numpy_reference import reference  # noqa: E402


def as_float64(array, format_name):
    """A result or input as float64; a bfloat16 one arrives as the uint16 bits of its elements."""
    array = np.asarray(array)
    if format_name == "bfloat16":
        return (array.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return array.astype(np.float64)


def run_server():
    """What the room's server answers to the request: starts its script as `python SCRIPT ARGUMENTS...` does, with
    convcheck's serve() replaced by one that keeps the compute function, then answers the request as serve() would."""
    served = {}

    def capture(compute, name="", supports=None, algorithm=None, version=None):
        served.update(compute=compute, name=" ".join(part for part in (name, version) if part),
                      algorithm=algorithm or "direct")

    convcheck_server.serve = capture
    sys.argv = [SERVER_SCRIPT] + SERVER_ARGUMENTS
    module = os.path.splitext(os.path.basename(SERVER_SCRIPT))[0]
    exec(compile(SOURCES[module], SERVER_SCRIPT + " (inlined)", "exec"), {"__name__": "__main__", "__file__": SERVER_SCRIPT})
    if "compute" not in served:
        raise RuntimeError(f"{SERVER_SCRIPT} {' '.join(SERVER_ARGUMENTS)} never called serve()")
    reply, arrays = convcheck_server.answer(json.loads(REQUEST), base64.b64decode(PAYLOAD), served["compute"])
    return reply, [np.array(array) for array in arrays], served["name"], served["algorithm"]


def in_child(timeout):
    """run_server() in a forked child: ("reply", reply, arrays, name, algorithm), ("raised", message) or ("killed",
    why)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(timeout)  # its default action ends the child: reported as past the timeout
        try:
            outcome = ("reply",) + run_server()
        except BaseException as error:  # noqa: B036 (SystemExit of a server's usage check included)
            outcome = ("raised", f"{type(error).__name__}: {error}")
        with os.fdopen(write, "wb") as pipe:
            pickle.dump(outcome, pipe)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        return ("killed", f"ran past --timeout {timeout} s" if number == signal.SIGALRM
                else f"killed by {signal.Signals(number).name}")
    return pickle.loads(data) if data else ("killed", f"exited with status {os.WEXITSTATUS(status)}, no answer")


def over_bound(got, expected, entry):
    """(elements or signals over convcheck's bound, the largest error): per element, or per signal of
    entry["signal_size"] consecutive elements judged by its error's 2-norm (an FFT's class)."""
    bound = np.frombuffer(base64.b64decode(entry["values"]), "<f8")
    error = np.abs(got - expected).ravel()
    broken = ~np.isfinite(got.ravel()) & np.isfinite(expected.ravel())
    size = int(entry["signal_size"])
    if size:
        norms = np.sqrt(np.sum(np.square(error.reshape(-1, size)), axis=1))
        over = ~(norms <= bound) | broken.reshape(-1, size).any(axis=1)
    else:
        over = ~(error <= bound.reshape(error.shape)) | broken
    return int(over.sum()), float(np.nanmax(error)) if error.size else 0.0


def main():
    parser = argparse.ArgumentParser(description=f"reproduces a {STRATEGY} finding (exit 1 when the bug shows)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds the stack may take (default 600)")
    timeout = parser.parse_args().timeout
    request = json.loads(REQUEST)
    outcome = in_child(timeout)
    if outcome[0] != "reply":
        print(f"{STRATEGY}: the stack {'raised ' if outcome[0] == 'raised' else ''}{outcome[1]}: the bug shows")
        return 1
    _, reply, arrays, name, declared = outcome
    print(f"{STRATEGY}: {name}")
    if reply["type"] == "unsupported":
        print(f"{STRATEGY} declined the problem: {reply['reason']}")
        return 2
    if reply["type"] == "error":
        print(f"{STRATEGY} failed: {reply['message']}: the bug shows")
        return 1
    tensors = convcheck_server.inputs(request, base64.b64decode(PAYLOAD))
    formats = {entry["role"]: entry["dtype"] for entry in request["tensors"]}
    expected = reference(request["problem"], {role: as_float64(tensor, formats[role]) for role, tensor in tensors.items()})
    got = {entry["direction"]: as_float64(array, entry["dtype"]) for entry, array in zip(reply["results"], arrays)}
    bug, judged = False, 0
    for direction in request["directions"]:
        if direction not in got:
            print(f"{direction}: skipped: {reply['skipped'].get(direction, 'not returned')}")
            continue
        entry = BOUNDS[direction]
        if "unjudgeable" in entry:
            print(f"{direction}: not judged: {entry['unjudgeable']}")
            continue
        judged += 1
        algorithm = next((result.get("algorithm") for result in reply["results"] if result["direction"] == direction),
                         None) or declared
        if algorithm != entry["algorithm"]:
            print(f"{direction}: the server says it computed it by {algorithm}, the bound is that of {entry['algorithm']}"
                  " (the class the finding was judged under): a value over it may be that algorithm's rounding")
        if got[direction].shape != expected[direction].shape:
            print(f"{direction}: shape {list(got[direction].shape)}, expected {list(expected[direction].shape)}")
            bug = True
            continue
        over, largest = over_bound(got[direction], expected[direction], entry)
        unit = "signals" if int(entry["signal_size"]) else "elements"
        print(f"{direction}: max |error| {largest:g}, {over} {unit} over convcheck's bound ({entry['judged_under']})")
        bug |= over > 0
    if not judged:
        print(f"{STRATEGY} computed none of {', '.join(request['directions'])}")
        return 2
    print("the bug shows" if bug else "agreed")
    return 1 if bug else 0


sys.exit(main())
