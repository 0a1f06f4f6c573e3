#!/usr/bin/python3
"""Regenerates the fuzzer's seed corpus, tests/fuzz/seeds/ (docs/hardening.md).

usage: /usr/bin/python3 tests/fuzz/make_seeds.py

seeds/valid/      files every reader must accept: a few small cases copied from corpus/, and h5py-written cases
                  and result files that use what docs/case-format.md allows (fixed-length strings, narrow
                  integers, float16 data, NaN values, recorded results).
seeds/malformed/  files `convcheck repro` must reject with exit status 2 and one line naming the file; each name
                  says what is wrong. tests/fuzz/malformed_seeds.sh checks exactly that.

Both directories are rewritten from scratch, so a removed kind of seed does not linger.
"""
import ctypes
import os
import shutil
import sys

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEEDS = os.path.join(ROOT, "tests", "fuzz", "seeds")
VALID = os.path.join(SEEDS, "valid")
MALFORMED = os.path.join(SEEDS, "malformed")

# Small enough that every seed stays a few KB; with stride 1, a 2x2 kernel and one row and column of padding
# before, P = H and Q = W.
CONFIG = dict(batch=1, groups=1, in_channels=2, out_channels=2, in_height=3, in_width=3, kernel_height=2,
              kernel_width=2, stride_height=1, stride_width=1, dilation_height=1, dilation_width=1, pad_top=1,
              pad_bottom=0, pad_left=1, pad_right=0)
SHAPES = dict(data=(1, 2, 3, 3), weight=(2, 2, 2, 2), grad_output=(1, 2, 3, 3))
VALID_CORPUS_FILES = ["corpus/regression/edge-451ad16ae7e449ee.h5",
                      "corpus/mutants/pad_order-output-7537be42c1b9c3b1.h5"]


def inputs(dtype=np.float32):
    # Small integers: sums stay exact, so a valid seed replays as "all agreed" in any dtype.
    return {name: (np.arange(np.prod(shape)) % 5 - 2).reshape(shape).astype(dtype) for name, shape in SHAPES.items()}


def create_file(path):
    """A new HDF5 file laid out as tightly as HDF5 allows. By default HDF5 hands out metadata and small raw data
    in 2 KB blocks, most of which stays zero in files this small; h5py does not expose the two properties, so they
    are set through ctypes on the very libhdf5 h5py is linked to."""
    hdf5 = ctypes.CDLL("libhdf5_serial.so.103")  # Debian's python3-h5py links the serial build
    fapl = h5py.h5p.create(h5py.h5p.FILE_ACCESS)
    fapl.set_libver_bounds(h5py.h5f.LIBVER_LATEST, h5py.h5f.LIBVER_LATEST)
    for setter in (hdf5.H5Pset_meta_block_size, hdf5.H5Pset_small_data_block_size):
        if setter(ctypes.c_int64(fapl.id), ctypes.c_uint64(0)) < 0:
            sys.exit(f"{setter.__name__} failed")
    fcpl = h5py.h5p.create(h5py.h5p.FILE_CREATE)
    fcpl.set_obj_track_times(False)  # no timestamps anywhere: regenerating gives the same bytes
    return h5py.File(h5py.h5f.create(path.encode(), h5py.h5f.ACC_TRUNC, fcpl=fcpl, fapl=fapl))


def group(f, path):
    """The group at `path` and its parents, created where missing, without timestamps, keeping up to 64
    attributes in the object header (past 8, HDF5 moves them into a separate heap and B-tree: another 2 KB)."""
    parent = f
    for name in path.strip("/").split("/"):
        if name not in parent:
            gcpl = h5py.h5p.create(h5py.h5p.GROUP_CREATE)
            gcpl.set_attr_phase_change(64, 60)
            gcpl.set_obj_track_times(False)
            h5py.h5g.create(parent.id, name.encode(), gcpl=gcpl)
        parent = parent[name]
    return parent


def dataset(f, path, **options):
    """A dataset at `path`, its groups made by group()."""
    parent, _, name = path.rpartition("/")
    return (group(f, parent) if parent else f).create_dataset(name, track_times=False, **options)


def fixed(value):
    """Python strings become fixed-length ones: h5py stores variable-length strings in a global heap collection
    of at least 4 KB, which would make every seed three times larger. The corpus copies cover variable length."""
    return np.bytes_(value.encode()) if isinstance(value, str) else value


def variable(text):
    """A variable-length UTF-8 string attribute, as convcheck itself writes them."""
    return np.array(text, dtype=h5py.string_dtype())


def write_case(path, root_attrs=None, config=None, strings=None, tensors=None, extra=None):
    """Writes a case file; each argument overrides part of a valid one (None in a dict removes that entry)."""
    attrs = {"format": "convcheck-case", "format_version": np.int64(1)}
    attrs.update(root_attrs or {})
    config_attrs = {key: np.int64(value) for key, value in CONFIG.items()}
    config_attrs.update({"data_layout": "NCHW", "weight_layout": "OIHW", "dtype": "float32"})
    config_attrs.update(config or {})
    config_attrs.update(strings or {})
    data = inputs()
    data.update(tensors or {})
    with create_file(path) as f:
        for key, value in attrs.items():
            if value is not None:
                f.attrs[key] = fixed(value)
        config_group = group(f, "config")
        for key, value in config_attrs.items():
            if value is not None:
                config_group.attrs[key] = fixed(value)
        for name, value in data.items():
            if value is not None:
                dataset(f, f"inputs/{name}", data=value)
        if extra:
            extra(f)


def write_results(path, datasets):
    """A result file as an external implementation writes it: root datasets named for directions."""
    with create_file(path) as f:
        for name, value in datasets.items():
            dataset(f, name, data=value)


def valid_seeds():
    for relative in VALID_CORPUS_FILES:
        shutil.copy(os.path.join(ROOT, relative), VALID)
    at = lambda name: os.path.join(VALID, name)
    write_case(at("h5py-minimal.h5"))
    # Fixed-length, space-padded strings and 8/16-bit and unsigned integers: all allowed by the format.
    write_case(at("h5py-fixed-strings-narrow-ints.h5"),
               config={key: np.uint8(value) if i % 2 else np.int16(value) for i, (key, value) in
                       enumerate(CONFIG.items())},
               strings={"data_layout": np.bytes_("NCHW    "), "weight_layout": np.bytes_("OIHW"),
                        "dtype": np.bytes_("float32")})
    write_case(at("h5py-float64-nhwc-hwio.h5"), strings={"dtype": "float64", "data_layout": "nhwc",
                                                          "weight_layout": "HWIO"},
               tensors=inputs(np.float64))
    # Any floating-point class converts on read, half precision included.
    write_case(at("h5py-float16-inputs.h5"), tensors=inputs(np.float16))
    # NaN and infinity are data, not a malformed file: the diff judges them.
    nan_inputs = inputs()
    nan_inputs["data"].flat[0] = np.nan
    nan_inputs["weight"].flat[1] = np.inf
    write_case(at("h5py-nan-inf-inputs.h5"), tensors=nan_inputs)

    def results_and_finding(f):
        dataset(f, "results/mine/output", data=np.zeros((1, 2, 3, 3), np.float32))
        dataset(f, "results/mine/grad_weight", data=np.zeros((5,), np.float64))
        finding = group(f, "finding")
        finding.attrs["strategy"] = fixed("mine")
        finding.attrs["direction"] = fixed("output")
        finding.attrs["problem"] = fixed("recorded by make_seeds.py")
    write_case(at("h5py-results-and-finding.h5"), extra=results_and_finding)
    write_results(at("result-file-all-directions.h5"),
                  {"output": np.ones((1, 2, 3, 3), np.float32), "grad_data": np.ones((1, 2, 3, 3), np.float64),
                   "grad_weight": np.ones((2, 2, 2, 2), np.float16)})


def malformed_seeds():
    at = lambda name: os.path.join(MALFORMED, name)
    # Not HDF5 at all.
    open(at("empty.h5"), "wb").close()
    with open(at("text-not-hdf5.h5"), "w") as f:
        f.write("format = convcheck-case\nformat_version = 1\n")
    # Truncated copies of a valid case: inside the superblock, and halfway through the objects.
    with open(os.path.join(VALID, "h5py-minimal.h5"), "rb") as f:
        whole = f.read()
    for name, size in (("truncated-superblock.h5", 40), ("truncated-half.h5", len(whole) // 2)):
        with open(at(name), "wb") as f:
            f.write(whole[:size])
    # Root attributes.
    create_file(at("hdf5-without-attributes.h5")).close()
    write_case(at("format-wrong-name.h5"), root_attrs={"format": "convcheck-result"})
    write_case(at("format-integer.h5"), root_attrs={"format": np.int64(1)})
    write_case(at("format-empty-dataspace.h5"), root_attrs={"format": h5py.Empty("S14")})
    write_case(at("format-version-2.h5"), root_attrs={"format_version": np.int64(2)})
    write_case(at("format-version-0.h5"), root_attrs={"format_version": np.int64(0)})
    write_case(at("format-version-string.h5"), root_attrs={"format_version": "1"})
    write_case(at("format-version-float.h5"), root_attrs={"format_version": np.float64(1.0)})
    write_case(at("format-version-array.h5"), root_attrs={"format_version": np.array([1, 1], np.int64)})
    write_case(at("format-version-missing.h5"), root_attrs={"format_version": None})
    write_case(at("seed-string.h5"), root_attrs={"seed": "eleven"})
    write_case(at("fill-unknown.h5"), root_attrs={"fill": "uniform"})
    # /config: missing, of the wrong kind, attributes missing, mistyped, out of range or inconsistent.
    write_case(at("config-missing.h5"), config={key: None for key in CONFIG},
               strings={"data_layout": None, "weight_layout": None, "dtype": None},
               extra=lambda f: f.__delitem__("config"))
    write_case(at("config-is-dataset.h5"), extra=lambda f: (f.__delitem__("config"),
                                                             dataset(f, "config", data=np.zeros(3))))
    write_case(at("config-kernel-height-missing.h5"), config={"kernel_height": None})
    write_case(at("config-int-as-string.h5"), config={"in_height": "3"})
    write_case(at("config-int-as-float.h5"), config={"in_height": np.float32(3.0)})
    write_case(at("config-int-as-bool.h5"), config={"in_height": np.bool_(True)})
    write_case(at("config-int-as-array.h5"), config={"in_height": np.array([3, 3], np.int64)})
    write_case(at("config-negative-height.h5"), config={"in_height": np.int64(-3)})
    write_case(at("config-zero-batch.h5"), config={"batch": np.int64(0)})
    write_case(at("config-negative-pad.h5"), config={"pad_top": np.int64(-1)})
    write_case(at("config-zero-stride.h5"), config={"stride_height": np.int64(0)})
    write_case(at("config-uint64-max-width.h5"), config={"in_width": np.uint64(2**64 - 1)})
    write_case(at("config-int64-min-pad.h5"), config={"pad_left": np.int64(-2**63)})
    write_case(at("config-height-2pow40.h5"), config={"in_height": np.int64(2**40)})
    write_case(at("config-over-max-elements.h5"),
               config={"batch": np.int64(2**10), "in_channels": np.int64(2**10), "in_height": np.int64(2**10),
                       "in_width": np.int64(2**10)})
    write_case(at("config-groups-do-not-divide.h5"), config={"groups": np.int64(3)})
    write_case(at("config-kernel-larger-than-input.h5"), config={"kernel_height": np.int64(9)})
    write_case(at("config-huge-dilation.h5"), config={"dilation_height": np.int64(2**30)})
    write_case(at("config-dtype-float16.h5"), strings={"dtype": "float16"})
    write_case(at("config-dtype-integer.h5"), strings={"dtype": np.int64(32)})
    write_case(at("config-dtype-newline.h5"), strings={"dtype": variable("float32\nfloat64")})
    write_case(at("config-dtype-not-utf8.h5"), strings={"dtype": np.bytes_(b"\xff\xfe\x00float32")})
    write_case(at("config-layout-unknown.h5"), strings={"data_layout": "NCWH"})
    write_case(at("config-weight-layout-empty.h5"), strings={"weight_layout": ""})
    write_case(at("config-string-5000-bytes.h5"), strings={"data_layout": np.bytes_(b"N" * 5000)})
    # Inconsistent config: stride 2 declares a 2x2 output, the file holds 3x3 gradients.
    write_case(at("config-stride-disagrees-with-grad-output.h5"), config={"stride_height": np.int64(2),
                                                                            "stride_width": np.int64(2)})
    # /inputs: missing, a member missing, of the wrong kind, rank, shape or class, or unreadable.
    write_case(at("inputs-missing.h5"), tensors={name: None for name in SHAPES})
    write_case(at("inputs-weight-missing.h5"), tensors={"weight": None})
    write_case(at("inputs-data-wrong-shape.h5"), tensors={"data": np.zeros((1, 2, 3, 4), np.float32)})
    write_case(at("inputs-data-rank-3.h5"), tensors={"data": np.zeros((2, 3, 3), np.float32)})
    write_case(at("inputs-data-scalar.h5"), tensors={"data": np.float32(1)})
    write_case(at("inputs-data-integers.h5"), tensors={"data": np.zeros(SHAPES["data"], np.int32)})
    write_case(at("inputs-data-strings.h5"), tensors={"data": np.array([b"x"] * 9).reshape(1, 1, 3, 3)})
    write_case(at("inputs-data-is-group.h5"), tensors={"data": None},
               extra=lambda f: group(f, "inputs/data"))
    write_case(at("inputs-data-soft-link-loop.h5"), tensors={"data": None},
               extra=lambda f: f["inputs"].__setitem__("data", h5py.SoftLink("/inputs/data")))
    write_case(at("inputs-data-external-link.h5"), tensors={"data": None},
               extra=lambda f: f["inputs"].__setitem__("data", h5py.ExternalLink("no-such-file.h5", "/data")))

    def corrupt_chunk(f):
        del f["inputs/data"]
        dataset(f, "inputs/data", data=np.ones(SHAPES["data"], np.float32), chunks=SHAPES["data"], compression="gzip")
    path = at("inputs-data-corrupt-gzip-chunk.h5")
    write_case(path, extra=corrupt_chunk)
    with h5py.File(path, "r") as f:
        offset = f["inputs/data"].id.get_chunk_info(0).byte_offset
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(b"\xde\xad\xbe\xef" * 4)
    # /results: a member that is not a group, of the wrong class, over the element limit, or declaring a zero-size
    # shape whose other extents multiply past 2^63.
    write_case(at("results-entry-is-dataset.h5"),
               extra=lambda f: dataset(f, "results/mine", data=np.zeros(3)))
    write_case(at("results-output-integers.h5"),
               extra=lambda f: dataset(f, "results/mine/output", data=np.zeros((1, 2, 3, 3), np.int8)))
    write_case(at("results-output-unwritten-2pow30-elements.h5"),
               extra=lambda f: dataset(f, "results/mine/output", shape=(2**15, 2**15), dtype="f4", chunks=(1, 64)))
    write_case(at("results-output-2pow40-by-2pow40-by-0.h5"),
               extra=lambda f: dataset(f, "results/mine/output", shape=(2**40, 2**40, 0), dtype="f4"))
    write_case(at("results-output-rank-9.h5"),
               extra=lambda f: dataset(f, "results/mine/output", shape=(1,) * 9, dtype="f4"))
    write_case(at("finding-strategy-integer.h5"),
               extra=lambda f: group(f, "finding").attrs.__setitem__("strategy", np.int64(7)))
    # Result files (read_result_file) that are also not case files.
    write_results(at("result-file-output-integers.h5"), {"output": np.zeros((1, 2, 3, 3), np.int32)})
    with create_file(at("result-file-output-2pow40-by-2pow40-by-0.h5")) as f:
        dataset(f, "output", shape=(2**40, 2**40, 0), dtype="f8")


def main():
    for directory in (VALID, MALFORMED):
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
    valid_seeds()
    malformed_seeds()
    total = sum(os.path.getsize(os.path.join(d, name)) for d in (VALID, MALFORMED) for name in os.listdir(d))
    print(f"{len(os.listdir(VALID))} valid, {len(os.listdir(MALFORMED))} malformed seeds, {total} bytes",
          file=sys.stderr)


if __name__ == "__main__":
    main()
