#!/usr/bin/python3
"""The float64 NumPy reference the `repro --emit ROOM` scripts judge by (oracles/outside/python/numpy_reference.py),
as a server of every op, direction, rank and crop, each result rounded once to its format: a campaign of it against
convcheck's own reference (ctest numpy_reference) holds the reproducers' reference, deconvs included, to convcheck's.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "oracles" / "outside" / "python"))
from convcheck_server import serve  # noqa: E402
from numpy_reference import reference  # noqa: E402

ROLES = {"output": "dst_dtype", "grad_data": "src_dtype", "grad_weight": "weight_dtype"}


def compute(problem, tensors):
    return {direction: result.astype(problem[ROLES[direction]])
            for direction, result in reference(problem, tensors).items()}


if __name__ == "__main__":
    serve(compute, name="numpy_reference", supports={"ops": ["conv", "deconv"], "dtypes": ["float32", "float64"]})
