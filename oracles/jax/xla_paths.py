"""Which XLA:CPU path runs each convolution of a compiled JAX program, read from its optimized HLO text
(`jax.jit(f).lower(...).compile().as_text()`).

XLA:CPU (jaxlib 0.10.2) has three places a convolution can run, and the optimized HLO tells them apart:
- "ynn": the convolution sits in a fused computation called by a fusion of kind `__ynn_fusion` (the library rewriter
  took it into YNNPACK: xla/backends/cpu/ynn_support.cc, IsConvolutionOpSupportedByYnn);
- "eigen": a top-level convolution that XLA's thunk emitter gives to its ConvolutionThunk, i.e. Eigen's spatial
  convolution. xla/service/cpu/ir_emission_utils.cc, PotentiallyImplementedAsEigenConvolution: f16 or f32, no window
  reversal, 1 to 3 spatial dimensions, dimension labels b<spatial>f_<spatial>io->b<spatial>f, dense row-major
  layouts (the text shows the result's);
- "loops": every other convolution: XLA's elemental LLVM kernel ("a completely un-optimized version of convolution",
  thunk_emitter.cc), e.g. f64, or a kernel XLA reverses in the window (rhs_reversal) rather than in a copy.
The direction a convolution computes is the jax.named_scope jax_server.py opens around it, in the metadata op_name
("jit(all_directions)/grad_weight/transpose(jvp())/conv_general_dilated") of the convolution or, where XLA's
layout passes dropped it there, of the first instruction downstream that has one; failing that, the position of
the result in the program's output tuple (output, grad_data, grad_weight).
"""
import re

# What YNNPACK takes in this XLA (ynn_support.cc), quoted in jax_ynn's skip reasons.
YNN_RULE = ("XLA's IsConvolutionOpSupportedByYnn takes 2-D f32 or f64 convolutions with no batch groups, NHWC/HWIO "
            "dimension labels, more than 16 input or output channels, an output and kernel no larger than the input, "
            "no base (lhs) dilation and no kernel reversal")

DIRECTIONS = ("output", "grad_data", "grad_weight")
COMPUTATION = re.compile(r"^(?:ENTRY )?%(\S+) .*\{$")
CONVOLUTION = re.compile(r"%\S+ = (\w+)\[[^\]]*\](\{[^}]*\})? convolution\(")
FUSION_CALL = re.compile(r"fusion\(.*calls=%([\w.\-]+)")
DIRECTION = re.compile(r'op_name="[^"]*/(output|grad_data|grad_weight)/')
DIM_LABELS = re.compile(r"dim_labels=(\w+)_(\w+)->(\w+)")
METADATA = re.compile(r", metadata=\{[^}]*\}")
DEFINITION = re.compile(r"^(?:ROOT )?%(\S+) = ")
OPERAND = re.compile(r"%([\w.\-]+)")


def eigen_takes(line, element_type, layout):
    """XLA's PotentiallyImplementedAsEigenConvolution and the thunk emitter's layout check, on one HLO line."""
    labels = DIM_LABELS.search(line)
    if element_type not in ("f16", "f32") or "rhs_reversal" in line or labels is None:
        return False
    spatial = "".join(str(axis) for axis in range(len(labels.group(3)) - 2))
    if not 1 <= len(spatial) <= 3:  # a grouped weight gradient XLA rewrote with an extra spatial axis, say
        return False
    if labels.groups() != (f"b{spatial}f", f"{spatial}io", f"b{spatial}f"):
        return False
    axes = [int(axis) for axis in layout.strip("{}").split(",")] if layout else []
    return not axes or axes == sorted(axes, reverse=True)


def downstream_direction(name, entry):
    """The direction of the first instruction that uses `name` (transitively) and carries a scope, or the position
    of `name`'s value in the root tuple."""
    seen, frontier = {name}, [name]
    while frontier:
        current = frontier.pop(0)
        for line in entry:
            defined = DEFINITION.match(line)
            if defined is None or defined.group(1) in seen:
                continue
            operands = OPERAND.findall(line[defined.end():].split(", metadata=")[0])
            if current not in operands:
                continue
            scope = DIRECTION.search(line)
            if scope:
                return scope.group(1)
            if line.startswith("ROOT ") and " tuple(" in line and len(operands) == len(DIRECTIONS):
                return DIRECTIONS[operands.index(current)]
            seen.add(defined.group(1))
            frontier.append(defined.group(1))
    return "unknown"


def convolution_paths(hlo_text):
    """{direction: [{"path": "ynn"|"eigen"|"loops", "hlo": the convolution's line without its metadata}]}."""
    computations, current = {}, None
    for line in hlo_text.splitlines():
        line = line.strip()
        header = COMPUTATION.match(line)
        if header:
            current = header.group(1)
            computations[current] = []
        elif line == "}":
            current = None
        elif current is not None:
            computations[current].append(line)
    entry_name = next((COMPUTATION.match(line).group(1) for line in hlo_text.splitlines()
                       if line.startswith("ENTRY ")), None)
    entry = computations.get(entry_name, [])
    ynn_bodies, fused_bodies, caller = set(), set(), {}
    for lines in computations.values():
        for line in lines:
            call = FUSION_CALL.search(line)
            if call:
                fused_bodies.add(call.group(1))
                if '"__ynn_fusion"' in line:
                    ynn_bodies.add(call.group(1))
                caller[call.group(1)] = line
    paths = {}
    for name, lines in computations.items():
        for line in lines:
            convolution = CONVOLUTION.search(line)
            if convolution is None:
                continue
            if name in ynn_bodies:
                path = "ynn"
            elif name in fused_bodies:
                path = "loops"  # a convolution inside another fusion is emitted with it
            else:
                path = "eigen" if eigen_takes(line, convolution.group(1), convolution.group(2)) else "loops"
            # the instruction that runs in the entry computation: the convolution itself, or the fusion calling it
            runs = line if name == entry_name else caller.get(name, line)
            scope = DIRECTION.search(line) or DIRECTION.search(runs)
            defined = DEFINITION.match(runs)
            direction = (scope.group(1) if scope
                         else downstream_direction(defined.group(1), entry) if defined else "unknown")
            paths.setdefault(direction, []).append({"path": path, "hlo": METADATA.sub("", line)})
    return paths
