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
(a byte order mark is dropped, as spreadsheet programs write one). :func:`write_text` and
:func:`write_bytes` write to a temporary file in the target's folder and rename it over the
target, so that a write that fails part way (a full disk) leaves the old file as it was.
"""

import contextlib
import os
import stat
import tempfile

MIB = 1 << 20
_KINDS = ((stat.S_ISDIR, 'a directory'), (stat.S_ISFIFO, 'a FIFO'),
          (stat.S_ISCHR, 'a character device'), (stat.S_ISBLK, 'a block device'),
          (stat.S_ISSOCK, 'a socket'))


def read_bytes(path, what, max_bytes):
    """
    Return the bytes of the regular file ``path``, at most ``max_bytes`` of them.

    Raises
    ------
    ValueError
        Naming the file and ``what`` it is read as: it cannot be opened, it is not a regular
        file, or it is larger than ``max_bytes``.

    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO without a writer: at once
    except OSError as error:
        raise ValueError(f'{path}: cannot read the {what}: {error.strerror}') from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((kind for test, kind in _KINDS if test(mode)), 'a special file')
            raise ValueError(f'{path}: cannot read the {what}: it is {kind}, not a regular '
                             'file')
        if os.fstat(fd).st_size > max_bytes:  # said before reading any of it (a sparse file)
            raise ValueError(f'{path}: the {what} is larger than {_size(max_bytes)}, which no '
                             f'{what} needs')
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
