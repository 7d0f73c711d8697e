"""Writing results without losing work: folders checked before the work, files written atomically."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


class OutputError(OSError):
    """An output or cache location cannot be written; the message names it and what to change."""


def writable_folder(path: str | os.PathLike[str], what: str) -> Path:
    """Create ``path`` (and parents) if needed and check that a file can be written in it; OutputError otherwise."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as error:
        blocking = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
        reason = ("it is a file" if blocking == folder else f"{blocking} is a file, not a folder: it is a file"
                  if blocking else f"{type(error).__name__}: {error.strerror or error}")
        raise OutputError(f"cannot write the {what} in {folder} ({reason}); choose another folder") from error
    return folder


def writable_file(path: str | os.PathLike[str], what: str, inputs: tuple[object, ...] = ()) -> Path:
    """Check before the work that ``path`` can be written: not a folder, not one of ``inputs``, its folder writable.

    The folder is created if missing; OutputError naming ``what`` and the reason otherwise.
    """
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"cannot write the {what} to {target}: it is a folder; name a file")
    for given in inputs:
        if given and target.exists() and Path(str(given)).exists() and os.path.samefile(target, str(given)):
            raise OutputError(f"cannot write the {what} to {target}: it is the input {given}, which would be "
                              "overwritten; choose another file")
    writable_folder(target.parent if str(target.parent) else Path("."), f"{what} ({target.name})")
    return target


def _umask() -> int:
    """The process's umask (read by setting it and restoring it at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike[str], write: Callable[[Path], object]) -> Path:
    """Call ``write(temporary path)`` beside ``path``, then rename it to ``path``: the file is complete or absent.

    A failure (e.g. a full disk) removes the temporary file and raises OutputError naming ``path``. The file's mode
    follows the umask (0644 under the usual 022), as for files written with ``open``.
    """
    target = Path(path)
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(handle)
    temporary = Path(name)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp creates 0600: give the mode a plain open() would
        os.replace(temporary, target)
    except OSError as error:
        raise OutputError(f"could not write {target} ({type(error).__name__}: {error}); nothing was written "
                          "there: free space or choose another folder") from error
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return target


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))
