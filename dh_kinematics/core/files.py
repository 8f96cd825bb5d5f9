# Copyright 2026 The dh_kinematics authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Every file the package reads or writes goes through here: one guarded reader, one writer.

:func:`read_text` opens only a regular file (a FIFO, a device or a socket is refused at once:
it could block forever or never end), reads at most a given number of bytes and decodes UTF-8
(a byte order mark is dropped, as spreadsheet programs write one); :func:`open_text` opens one
the same way as a stream of lines, for a file too large to hold as text. :func:`write_text` and
:func:`write_bytes` write to a temporary file in the target's folder and rename it over the
target, so that a write that fails part way (a full disk) leaves the old file as it was.
"""

import contextlib
import os
import pathlib
import shutil
import stat
import tempfile

MIB = 1 << 20
_KINDS = ((stat.S_ISDIR, 'a directory'), (stat.S_ISFIFO, 'a FIFO'),
          (stat.S_ISCHR, 'a character device'), (stat.S_ISBLK, 'a block device'),
          (stat.S_ISSOCK, 'a socket'))


def _open(path, what, max_bytes):
    """Return a descriptor of the regular file ``path`` of at most ``max_bytes``; see below."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO without a writer: at once
    except OSError as error:
        raise ValueError(f'{path}: cannot read the {what}: {error.strerror}') from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((kind for test, kind in _KINDS if test(info.st_mode)), 'a special file')
            raise ValueError(f'{path}: cannot read the {what}: it is {kind}, not a regular '
                             'file')
        if info.st_size > max_bytes:  # said before reading any of it (a sparse file)
            raise ValueError(f'{path}: the {what} is larger than {_size(max_bytes)}, which no '
                             f'{what} needs')
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path, what, max_bytes):
    """
    Return the bytes of the regular file ``path``, at most ``max_bytes`` of them.

    Raises
    ------
    ValueError
        Naming the file and ``what`` it is read as: it cannot be opened, it is not a regular
        file, or it is larger than ``max_bytes``.

    """
    fd = _open(path, what, max_bytes)
    try:
        data = b''
        while len(data) <= max_bytes:  # a read may return less than asked
            chunk = os.read(fd, max_bytes + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as error:
        raise ValueError(f'{path}: cannot read the {what}: {error.strerror}') from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise ValueError(f'{path}: the {what} is larger than {_size(max_bytes)}, which no '
                         f'{what} needs')
    return data


def open_text(path, what, max_bytes):
    """
    Return the UTF-8 text stream of ``path`` (a BOM dropped), checked as :func:`read_bytes`.

    For a file read a line at a time, in memory bounded by its lines, not its size. A byte
    that is not UTF-8 raises UnicodeDecodeError as it is read.
    """
    fd = _open(path, what, max_bytes)
    os.set_blocking(fd, True)
    return open(fd, encoding='utf-8-sig', newline=None)


def read_text(path, what, max_bytes):
    """Return the UTF-8 text of ``path`` as :func:`read_bytes` reads it, without a BOM."""
    data = read_bytes(path, what, max_bytes)
    try:
        return data.decode('utf-8-sig')
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b'\n') + 1
        raise ValueError(f'{path}: line {line}: not UTF-8 text (byte {error.start})') from None


def _size(size):
    return f'{size >> 20} MiB' if size >= MIB else f'{size >> 10} kiB'


def write_bytes(path, data):
    """
    Write ``data`` to ``path`` whole or not at all: a temporary file, then a rename.

    A new file gets the mode the umask allows (as ``open`` gives); a replaced file keeps its
    mode. Raises OSError (naming ``path``) when it cannot be written; nothing is left behind.
    """
    path = os.fspath(path)
    folder = os.path.dirname(path) or '.'
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    except OSError as error:
        raise OSError(error.errno, error.strerror, path) from None
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f'.{os.path.basename(path)}.',
                                         suffix='.tmp')
    except OSError as error:
        raise OSError(error.errno, error.strerror, path) from None
    done = False
    try:
        with os.fdopen(fd, 'wb') as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
        done = True
    except OSError as error:
        raise OSError(error.errno, error.strerror, path) from None
    finally:
        if not done:  # a failed write, or Ctrl-C: the target is as it was, no temporary left
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def write_text(path, text):
    """Write ``text`` (UTF-8) to ``path`` whole or not at all, as :func:`write_bytes`."""
    write_bytes(path, text.encode('utf-8'))


def check_new_folder(folder, option):
    """Raise ValueError unless ``folder`` is new or an empty folder, naming ``option``."""
    folder = pathlib.Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ValueError(f'{option}: {folder} exists and is not an empty folder: give a new '
                         'one (nothing in it is replaced)')


@contextlib.contextmanager
def staged_folder(folder, option):
    """
    Yield a folder to write a report into; it becomes ``folder`` whole, or nothing does.

    ``folder`` must be new or empty (:func:`check_new_folder`): a user's files are never
    written over. The staging folder is beside it and renamed onto it at the end; a failure or
    Ctrl-C removes it. An OSError on the way is a ValueError naming ``folder``.
    """
    folder = pathlib.Path(folder)
    check_new_folder(folder, option)
    try:
        parent = folder.resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        staging = pathlib.Path(tempfile.mkdtemp(prefix=f'.{folder.name}.', dir=parent))
    except OSError as error:
        raise ValueError(f'{option}: {folder}: cannot write the report: {error.strerror}'
                         ) from None
    try:
        yield staging
        if folder.exists():
            folder.rmdir()
        os.replace(staging, folder)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise ValueError(f'{option}: {folder}: cannot write the report: {error.strerror}'
                         ) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
