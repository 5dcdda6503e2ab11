"""Arrays from whatever library holds them, as numpy, without importing that library: numpy arrays, lists,
pandas (Series, DataFrame), polars (Series, DataFrame), pyarrow (Array, ChunkedArray, Table, RecordBatch), and
anything with `__array__` or `__dlpack__` (a CPU torch tensor, a JAX array).

A matrix (`as_matrix`: rows of probabilities or logits) keeps the column names a frame gives, so that the caller
can map them onto the spec's classes by name; a column (`as_column`: true classes, predicted sets, scores) is a
list of Python values, whatever the library's element type (a polars or pyarrow list column of sets becomes a
list of lists). Whatever cannot be read is a `UsageError` naming the argument and what was expected, never a
library's own exception.

Owns: `is_matrix`, `as_matrix`, `as_column`, `column_names`, `library_of`. May import: `errors`, `numbers`.
"""

from __future__ import annotations

import numpy as np

from verifier.errors import UsageError
from verifier.numbers import shown


def library_of(value) -> str:
    """The top-level package a value's type comes from ("pandas", "polars", "pyarrow", "numpy", "builtins")."""
    return type(value).__module__.split(".")[0]


def column_names(frame) -> list | None:
    """A data frame's column names (pandas and polars: `columns`; pyarrow: `column_names`), None for no frame."""
    if library_of(frame) == "pyarrow":
        return list(frame.column_names) if hasattr(frame, "column_names") else None
    if library_of(frame) in ("pandas", "polars") and hasattr(frame, "columns") and not hasattr(frame, "dtype"):
        return list(frame.columns)
    return None


def is_matrix(values) -> bool:
    """Whether `values` holds many rows (a 2-D array, a list of rows, a frame, a column of lists) rather than one
    row (text, a dict, a list of numbers) — read without converting it."""
    if values is None or isinstance(values, (str, bytes, dict)):
        return False
    if column_names(values) is not None:
        return True
    library = library_of(values)
    if library in ("pyarrow", "polars"):  # a column of lists is rows; a column of numbers one row
        kind = str(getattr(values, "type", getattr(values, "dtype", ""))).lower()
        return "list" in kind or "array" in kind
    ndim = getattr(values, "ndim", None)
    if not isinstance(ndim, int) and (hasattr(values, "__array__") or hasattr(values, "__dlpack__")):
        ndim = np.asarray(values).ndim if hasattr(values, "__array__") else np.from_dlpack(values).ndim
    if isinstance(ndim, int):
        return ndim >= 2  # (N, K); more dimensions are refused by shape
    if isinstance(values, (list, tuple)):
        return bool(values) and all(isinstance(row, (list, tuple)) or getattr(row, "ndim", 0) == 1 for row in values)
    return False


def as_matrix(values, where: str, what: str = "probabilities") -> tuple[np.ndarray, list | None]:
    """`values` as a 2-D float64 array, and the column names of a frame (None for an unnamed array). A float32
    array widens exactly; integers and booleans become the floats they equal (exactly, below 2^53)."""
    names = column_names(values)
    try:
        array = _as_numpy_2d(values, names)
    except UsageError:
        raise
    except Exception:  # a library's own error on what it cannot convert: the user's input, named
        raise UsageError(f"{where}: expected an (N, K) array of {what} (numpy, a list of rows, a data frame of one "
                         f"column per class, or an array of fixed-size lists), got {shown(values)}") from None
    if array.dtype == object or array.dtype.kind not in "fiub":
        raise UsageError(f"{where}: expected numbers, got an array of {array.dtype}")
    if array.dtype.kind in "iu" and array.size and int(np.abs(array).max()) >= 2 ** 53:
        raise UsageError(f"{where}: an integer of magnitude 2^53 or more is not exactly a float64")
    return np.asarray(array, dtype=np.float64), names


def _as_numpy_2d(values, names: list | None) -> np.ndarray:
    library = library_of(values)
    if names is not None and library == "pyarrow":  # a Table or RecordBatch: one column per class
        columns = [_arrow_numeric(values.column(i)) for i in range(len(names))]
        return np.column_stack(columns) if columns else np.zeros((values.num_rows, 0))
    if names is not None:  # pandas and polars frames
        return values.to_numpy()
    if library == "pyarrow":  # an Array or ChunkedArray of fixed-size lists (or lists) of numbers
        return _arrow_rows(values)
    if library == "polars":  # a Series of Array or List elements
        return np.asarray(values.to_list(), dtype=np.float64)
    if library == "pandas":
        return values.to_numpy()
    if not isinstance(values, np.ndarray) and not hasattr(values, "__array__") and hasattr(values, "__dlpack__"):
        return np.from_dlpack(values)
    return np.asarray(values)


def _arrow_numeric(column) -> np.ndarray:
    """One numeric pyarrow column as numpy; a null is refused (numpy would make it nan or an object)."""
    if column.null_count:
        raise UsageError(f"a column holds {column.null_count:,} missing values (nulls)")
    return column.to_numpy()


def _arrow_rows(values) -> np.ndarray:
    """Rows held as pyarrow lists: fixed-size lists by their flat values (no Python object per value). Read by
    duck typing: pyarrow is the caller's, never imported here."""
    if hasattr(values, "combine_chunks"):  # a ChunkedArray
        values = values.combine_chunks()
    if values.null_count:
        raise UsageError(f"{values.null_count:,} rows are missing (nulls)")
    size = getattr(values.type, "list_size", None)  # a fixed-size list type
    if size is not None:
        flat = values.flatten()
        if flat.null_count:
            raise UsageError(f"{flat.null_count:,} values are missing (nulls)")
        return flat.to_numpy().reshape(len(values), size)
    return np.asarray(values.to_pylist())


def as_column(values, where: str) -> list:
    """One value per instance as a list of Python values (a list column's elements as lists); what is not a
    sequence (text, a dict, a number, a frame of several columns) is refused by name."""
    library = library_of(values)
    if column_names(values) is not None:
        raise UsageError(f"{where}: expected one column (one value per instance), got a data frame")
    try:
        if library in ("polars", "pyarrow"):
            return values.to_pylist() if library == "pyarrow" else values.to_list()
        if library == "pandas" or (not isinstance(values, np.ndarray) and hasattr(values, "to_numpy")):
            values = values.to_numpy()  # pandas, and frames alike (their columns' `to_numpy`)
    except Exception:
        raise UsageError(f"{where}: expected a sequence (a list, an array or a column), got {shown(values)}") from None
    if isinstance(values, (list, tuple, range)):
        return list(values)
    if isinstance(values, (str, bytes, dict)):
        raise UsageError(f"{where}: expected a sequence (a list, an array or a column), got {shown(values)}")
    if isinstance(values, np.ndarray) or hasattr(values, "__array__") or hasattr(values, "__dlpack__"):
        return _listed_array(values, where)  # a tensor's elements as numbers, not 0-d tensors
    if not hasattr(values, "__iter__"):
        raise UsageError(f"{where}: expected a sequence (a list, an array or a column), got {shown(values)}")
    return list(values)


def _listed_array(values, where: str) -> list:
    array = np.asarray(values) if hasattr(values, "__array__") else np.from_dlpack(values)
    if array.ndim == 0:
        raise UsageError(f"{where}: expected a sequence (a list, an array or a column), got one value "
                         f"{shown(array.item())}")
    return array.tolist() if array.ndim == 1 else list(array)  # rows of a 2-D array stay arrays (masks)
