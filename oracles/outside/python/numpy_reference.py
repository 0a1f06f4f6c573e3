"""The float64 reference of every direction of a conv or a deconv in NumPy, for the reproducers `convcheck repro
--emit ROOM` writes (oracles/outside/python/reproducer.py): numpy_server.py's sums with nothing rounded, a deconv
computed as its equivalent conv (core/problem/op.hpp): the conv whose data is the deconv's output, whose output is
the deconv's input, with the same weight tensor and the end padding less the output padding; the deconv's output is
that conv's data gradient, its data gradient the conv's output, its weight gradient the conv's weight gradient with
the roles of data and output gradient exchanged."""
import numpy as np

from numpy_server import compute

WIDE = {"src_dtype": "float64", "weight_dtype": "float64", "dst_dtype": "float64"}


def reference(problem, tensors):
    """Every direction of `problem` on `tensors` (inputs by role, any real dtype), in float64, unrounded."""
    data, weight, grad_output = (np.asarray(tensors[role], np.float64) for role in ("data", "weight", "grad_output"))
    if problem.get("op", "conv") == "conv":
        return compute(dict(problem, **WIDE), {"data": data, "weight": weight, "grad_output": grad_output})
    output_padding = problem.get("output_padding", [0] * int(problem["ndims"]))
    conv = dict(problem, op="conv", pad_end=[end - extra for end, extra in zip(problem["pad_end"], output_padding)],
                **WIDE)
    as_conv = compute(conv, {"data": grad_output, "weight": weight, "grad_output": data})
    return {"output": as_conv["grad_data"], "grad_data": as_conv["output"], "grad_weight": as_conv["grad_weight"]}
