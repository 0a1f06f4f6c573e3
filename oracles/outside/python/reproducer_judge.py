"""How a reproducer `convcheck repro --emit` writes judges what the implementation returned: against the float64
NumPy reference of the request's inputs (numpy_reference.py), under convcheck's bound of each direction, which the
script carries in BOUNDS (cmd/emit_python.cpp). Both drivers use it: reproducer.py (a room's server code, run in
the script's own process) and external_reproducer.py (the user's own command or server, run as convcheck runs it).
"""
import base64

import numpy as np

import convcheck_server
from numpy_reference import reference


def as_float64(array, format_name):
    """A result or input as float64; a bfloat16 one arrives as the uint16 bits of its elements."""
    array = np.asarray(array)
    if format_name == "bfloat16":
        return (array.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return array.astype(np.float64)


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


def judge(name, request, payload, got, skipped, algorithms, bounds):
    """Prints a line per asked direction and returns the exit status: 0 every result within its bound, 1 the bug
    shows (a value over its bound, a wrong shape), 2 nothing was judged. got: direction -> (array, format name);
    skipped: direction -> why it was not returned; algorithms: direction -> the class the implementation says it
    computed it by."""
    tensors = convcheck_server.inputs(request, payload)
    formats = {entry["role"]: entry["dtype"] for entry in request["tensors"]}
    expected = reference(request["problem"], {role: as_float64(tensor, formats[role]) for role, tensor in tensors.items()})
    bug, judged = False, 0
    for direction in request["directions"]:
        if direction not in got:
            print(f"{direction}: skipped: {skipped.get(direction, 'not returned')}")
            continue
        entry = bounds[direction]
        if "unjudgeable" in entry:
            print(f"{direction}: not judged: {entry['unjudgeable']}")
            continue
        judged += 1
        algorithm = algorithms.get(direction) or "direct"
        if algorithm != entry["algorithm"]:
            print(f"{direction}: {name} says it computed it by {algorithm}, the bound is that of {entry['algorithm']}"
                  " (the class the finding was judged under): a value over it may be that algorithm's rounding")
        result = as_float64(*got[direction])
        if result.shape != expected[direction].shape:
            print(f"{direction}: shape {list(result.shape)}, expected {list(expected[direction].shape)}")
            bug = True
            continue
        over, largest = over_bound(result, expected[direction], entry)
        unit = "signals" if int(entry["signal_size"]) else "elements"
        print(f"{direction}: max |error| {largest:g}, {over} {unit} over convcheck's bound ({entry['judged_under']})")
        bug |= over > 0
    if not judged:
        print(f"{name} computed none of {', '.join(request['directions'])}")
        return 2
    print("the bug shows" if bug else "agreed")
    return 1 if bug else 0
