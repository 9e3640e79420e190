"""Zip members read one at a time, Deflate or stored through `zipfile`, Zstandard by hand.

Inspect AI writes `.eval` members with Zstandard (zip method 93) when `INSPECT_USE_ZSTD`
is set; Python's `zipfile` refuses that method, so such a member's bytes are read from
its local header on and decompressed with the `zstandard` package, CRC checked as
`zipfile` would.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

import zstandard

ZSTD = 93
MAX_MEMBER_BYTES = 256 * 1024 * 1024
"""A member larger than this uncompressed is refused rather than read into memory."""
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_LOCAL_SIGNATURE = b"PK\x03\x04"


class MemberError(Exception):
    """A member that cannot be read: the message says why."""


class ZipMembers:
    """An open zip archive whose members are read whole, one at a time."""

    def __init__(self, path: Path) -> None:
        self._raw: BinaryIO = path.open("rb")
        try:
            self._zip = zipfile.ZipFile(self._raw)
            self._zstd_context = zstandard.ZstdDecompressor()  # reused: one per member is slow
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            self._raw.close()
            raise MemberError(f"not a complete zip archive ({exc})") from None

    def names(self) -> list[str]:
        return self._zip.namelist()

    def read(self, name: str) -> bytes:
        """The member's uncompressed bytes; MemberError if it is missing or damaged."""
        try:
            info = self._zip.getinfo(name)
        except KeyError:
            raise MemberError("is missing") from None
        if info.file_size > MAX_MEMBER_BYTES:
            raise MemberError(f"is larger than {MAX_MEMBER_BYTES // 2**20} MiB uncompressed")
        try:
            if info.compress_type == ZSTD:
                return self._zstd(info)
            return self._zip.read(info)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise MemberError(f"is damaged ({exc})") from None
        except NotImplementedError as exc:
            raise MemberError(f"uses a compression this reader lacks ({exc})") from None

    def _zstd(self, info: zipfile.ZipInfo) -> bytes:
        self._raw.seek(info.header_offset)
        header = self._raw.read(_LOCAL_HEADER.size)
        if len(header) != _LOCAL_HEADER.size or header[:4] != _LOCAL_SIGNATURE:
            raise MemberError("has no valid local header")
        fields = _LOCAL_HEADER.unpack(header)
        name_length, extra_length = fields[-2], fields[-1]
        self._raw.seek(name_length + extra_length, 1)
        compressed = self._raw.read(info.compress_size)
        if len(compressed) != info.compress_size:
            raise MemberError("is truncated")
        try:
            # Inspect splits members over 200 MiB into several frames: read across them.
            reader = self._zstd_context.stream_reader(compressed, read_across_frames=True)
            data = reader.read(info.file_size + 1)
        except zstandard.ZstdError as exc:
            raise MemberError(f"is not valid Zstandard data ({exc})") from None
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            raise MemberError("fails its CRC check")
        return data

    def close(self) -> None:
        self._zip.close()
        self._raw.close()

    def __enter__(self) -> ZipMembers:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
