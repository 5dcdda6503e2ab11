"""`.npy` files read as data, bounded before anything is allocated.

The header (magic, shape, dtype, order) is read and checked first: a header that declares a shape of 21.8 TiB,
a shape the file's size cannot hold, a dtype outside the ones asked for or more elements than the stated
limit is a usage error naming the file; only then is the array mapped (never pickled, never copied whole
before the caller asks for a block).
"""

from __future__ import annotations

import os

import numpy as np

from verifier.errors import UsageError
from verifier.using.inputs.csv_text import refuse_binary

MAX_ELEMENTS = 20_000_000  # values per file (160 MB of float64); larger inputs are split by the user


def open_npy(path: str, what: str, kinds: tuple[str, ...], ndims: tuple[int, ...]) -> np.ndarray:
    """The array of `path` as a read-only memory map, after its header has been checked: dtype kind in `kinds`
    ('b' bool, 'i'/'u' integers, 'f' floats), number of dimensions in `ndims`, at most MAX_ELEMENTS values,
    and a data section that the file really holds."""
    try:
        with open(path, "rb") as handle:
            major, _ = np.lib.format.read_magic(handle)
            read = {1: np.lib.format.read_array_header_1_0, 2: np.lib.format.read_array_header_2_0}.get(major)
            if read is None:
                raise ValueError(f"version {major} of the .npy format")
            shape, fortran, dtype = read(handle, max_header_size=10_000)
            offset = handle.tell()
    except (ValueError, OSError, SyntaxError, TypeError) as exc:
        refuse_binary(path, what)  # a .npz, a gzip or a pickle named *.npy: say what it is
        raise UsageError(f"{what} {path}: not a readable .npy array ({_short(exc)})") from None
    if dtype.hasobject or dtype.kind not in kinds or dtype.fields is not None:
        raise UsageError(f"{what} {path}: dtype {dtype}, expected {_kinds(kinds)} (pickled objects are never "
                         "read)")
    if any(not isinstance(n, int) or n < 0 for n in shape):  # numpy's header reader lets (-1, 3) through
        raise UsageError(f"{what} {path}: the header declares the shape {tuple(shape)}, with a negative "
                         "dimension; expected a .npy array written by numpy.save (every dimension 0 or more)")
    if len(shape) not in ndims:
        raise UsageError(f"{what} {path}: an array of {len(shape)} dimension(s) {tuple(shape)}, expected "
                         f"{' or '.join(str(n) for n in ndims)}")
    count = 1
    for n in shape:
        count *= n
    if count <= MAX_ELEMENTS < max(shape, default=0):  # (0, 10**20): no value, but numpy cannot make the array
        raise UsageError(f"{what} {path}: the header declares the shape {tuple(shape)}, a dimension beyond the "
                         f"{MAX_ELEMENTS:,} values one file may hold; expected an array written by numpy.save")
    if count > MAX_ELEMENTS:
        raise UsageError(f"{what} {path}: shape {tuple(shape)} holds {count:,} values, more than the "
                         f"{MAX_ELEMENTS:,} one file may hold; split it into several files")
    size = os.path.getsize(path)
    if offset + count * dtype.itemsize > size:
        raise UsageError(f"{what} {path}: the header declares {count:,} values of {dtype.itemsize} bytes, but the "
                         f"file holds only {size - offset:,} bytes of data (truncated?)")
    if count == 0:
        return np.zeros(shape, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=tuple(shape),
                     order="F" if fortran else "C")


def _kinds(kinds: tuple[str, ...]) -> str:
    words = {"b": "a boolean mask", "i": "integers", "u": "integers", "f": "floats (float64 or float32)"}
    return " or ".join(dict.fromkeys(words[k] for k in kinds))


def _short(exc: Exception) -> str:
    text = str(exc).replace("\n", " ")
    return text if len(text) <= 120 else text[:117] + "..."
