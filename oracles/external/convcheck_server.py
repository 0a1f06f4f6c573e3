"""convcheck's server protocol, version 1, for servers written in Python (docs/external.md, "The server protocol").

    from convcheck_server import Unsupported, serve

    def compute(problem, tensors):
        # problem: the fields of a v2 case file's /config ("ndims", "groups", "stride": [...], "src_dtype", ...)
        # tensors: the inputs by role ("data", "weight", "grad_output"), NumPy arrays in canonical layouts
        return {"output": ..., "grad_data": ..., "grad_weight": Skipped("why not")}   # any subset
        # or raise Unsupported(reason): every direction skipped

    serve(compute, name="mine 1.0", supports={"ranks": [1, 2, 3], "dtypes": ["float32", "float64"]})

serve() answers convcheck's hello, then each case, until convcheck closes stdin. An exception from compute is sent
back as an error (a finding with its message) and the server goes on. Only frames go to stdout: serve() points
sys.stdout at stderr, so a stray print() cannot break a frame.
"""
import json
import struct
import sys

import numpy as np

PROTOCOL = 1
MAGIC = b"CCKF"
PREFIX = struct.Struct("<4sIQ")  # magic, header bytes, payload bytes; then the JSON header, then the payload


class Unsupported(Exception):
    """Raised by compute for a problem it cannot run: every direction is reported as skipped with the reason."""


class Skipped(str):
    """A value of compute's results: that direction is reported as skipped, with this reason."""


def read_frame(stream):
    """(header dict, payload bytes), or None when convcheck closed the pipe."""
    prefix = stream.read(PREFIX.size)
    if len(prefix) < PREFIX.size:
        return None
    magic, header_bytes, payload_bytes = PREFIX.unpack(prefix)
    if magic != MAGIC:
        raise ValueError(f"not a convcheck frame: {prefix!r}")
    header = json.loads(stream.read(header_bytes))
    return header, stream.read(payload_bytes)


def write_frame(stream, header, arrays=()):
    """One frame: the header as JSON, then each array's bytes (C order, little-endian as on x86 and ARM)."""
    body = json.dumps(header).encode()
    payload = b"".join(np.ascontiguousarray(array).tobytes() for array in arrays)
    stream.write(PREFIX.pack(MAGIC, len(body), len(payload)) + body + payload)
    stream.flush()


def inputs(header, payload):
    """The request's tensors by role, as read-only NumPy views of the payload."""
    tensors, offset = {}, 0
    for entry in header["tensors"]:
        try:
            dtype = np.dtype(entry["dtype"])
        except TypeError:
            raise Unsupported(f"NumPy has no {entry['dtype']}")
        count = int(np.prod(entry["shape"], dtype=np.int64))
        tensors[entry["role"]] = np.frombuffer(payload, dtype, count, offset).reshape(entry["shape"])
        offset += count * dtype.itemsize
    return tensors


def answer(header, payload, compute):
    """The reply to one case: (header, arrays)."""
    reply = {"id": header.get("id", 0)}
    if header.get("type") != "case":  # docs/external.md: an unknown frame is answered with an error, not obeyed
        return dict(reply, type="error", message=f"unknown frame type {header.get('type')!r}"), ()
    try:
        results = compute(header["problem"], inputs(header, payload))
    except Unsupported as reason:
        return dict(reply, type="unsupported", reason=str(reason)), ()
    except Exception as error:  # a finding with the message, not the end of the server
        return dict(reply, type="error", message=f"{type(error).__name__}: {error}"), ()
    skipped = {name: reason for name, reason in results.items() if isinstance(reason, Skipped)}
    arrays = {name: array for name, array in results.items() if name not in skipped}
    entries = [{"direction": name, "dtype": str(array.dtype), "shape": list(array.shape)}
               for name, array in arrays.items()]
    return dict(reply, type="results", results=entries, skipped=skipped), list(arrays.values())


def serve(compute, name="", supports=None, algorithm=None):
    """Answers convcheck's hello with `name`, `supports` (docs/external.md: ops, ranks, dtypes, data_layouts,
    weight_layouts, crops, kernels, strides, dilations; leave a key out to support all) and `algorithm` (the class
    every result is judged under: "winograd:4", "fft"; None: direct), then every case, until stdin closes."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    frame = read_frame(stdin)
    if frame is None:
        return
    hello = {"type": "hello", "protocol": PROTOCOL, "name": name}
    if supports is not None:
        hello["supports"] = supports
    if algorithm is not None:
        hello["algorithm"] = algorithm
    write_frame(stdout, hello)
    while (frame := read_frame(stdin)) is not None:
        write_frame(stdout, *answer(*frame, compute))
