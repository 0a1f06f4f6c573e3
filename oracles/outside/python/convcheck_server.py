"""convcheck's server protocol, version 1, for servers written in Python (docs/external.md, "The server protocol").

    from convcheck_server import Unsupported, serve

    def compute(problem, tensors):
        # problem: the fields of a v2 case file's /config ("ndims", "groups", "stride": [...], "src_dtype", ...)
        # tensors: the inputs by role ("data", "weight", "grad_output"), NumPy arrays in canonical layouts
        #          (a bfloat16 tensor as the uint16 bits of its elements: NumPy has no bfloat16)
        return {"output": ..., "grad_data": ..., "grad_weight": Skipped("why not")}   # any subset
        # def compute(problem, tensors, directions): also given the directions convcheck asks for ("output", ...)
        # a result in bfloat16: InFormat(uint16 bits, "bfloat16")
        # or raise Unsupported(reason): every direction skipped

    serve(compute, name="mine 1.0", supports={"ranks": [1, 2, 3], "dtypes": ["float32", "float64"]})

serve() answers convcheck's hello, then each case, until convcheck closes stdin. An exception from compute is sent
back as an error (a finding with its message) and the server goes on. Only frames go to stdout: serve() points
sys.stdout at stderr, so a stray print() cannot break a frame.
"""
import inspect
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


class InFormat:
    """A value of compute's results: an array sent as the named format, for one NumPy has no dtype for
    ("bfloat16": the array holds its uint16 bits)."""

    def __init__(self, array, format_name):
        self.array, self.format = array, format_name


# Formats NumPy has no dtype for, read as the unsigned integers of their bits (a bfloat16 is a float32's upper half).
BITS = {"bfloat16": np.dtype(np.uint16)}


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
            dtype = BITS.get(entry["dtype"]) or np.dtype(entry["dtype"])
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
        arguments = (header["problem"], inputs(header, payload))
        if len(inspect.signature(compute).parameters) == 3:  # a compute that asks which directions are wanted
            arguments += (header.get("directions", ["output", "grad_data", "grad_weight"]),)
        results = compute(*arguments)
    except Unsupported as reason:
        return dict(reply, type="unsupported", reason=str(reason)), ()
    except Exception as error:  # a finding with the message, not the end of the server
        return dict(reply, type="error", message=f"{type(error).__name__}: {error}"), ()
    skipped = {name: reason for name, reason in results.items() if isinstance(reason, Skipped)}
    arrays = {name: result for name, result in results.items() if name not in skipped}
    entries = [{"direction": name, "dtype": result.format if isinstance(result, InFormat) else str(result.dtype),
                "shape": list(result.array.shape if isinstance(result, InFormat) else result.shape)}
               for name, result in arrays.items()]
    return (dict(reply, type="results", results=entries, skipped=skipped),
            [result.array if isinstance(result, InFormat) else result for result in arrays.values()])


def serve(compute, name="", supports=None, algorithm=None, version=None):
    """Answers convcheck's hello with `name`, `supports` (docs/external.md: ops, ranks, dtypes, data_layouts,
    weight_layouts, crops, kernels, strides, dilations, directions; leave a key out to support all), `algorithm` (the class
    every result is judged under: "winograd:4", "fft"; None: direct) and `version` (a string, where the name does
    not hold it), then every case, until stdin closes."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    frame = read_frame(stdin)
    if frame is None:
        return
    hello = {"type": "hello", "protocol": PROTOCOL, "name": name}
    if version is not None:
        hello["version"] = version
    if supports is not None:
        hello["supports"] = supports
    if algorithm is not None:
        hello["algorithm"] = algorithm
    write_frame(stdout, hello)
    while (frame := read_frame(stdin)) is not None:
        write_frame(stdout, *answer(*frame, compute))
