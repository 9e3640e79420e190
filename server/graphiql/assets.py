"""The files GraphiQL's page needs: which npm package each comes from, and its digest.

They are fetched from the npm registry by `make install` (`server.graphiql.fetch`) into a
git-ignored directory, never committed and never loaded from a CDN; the page's `integrity`
attributes make the browser refuse any file that is not byte for byte the one named here.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DIR = Path(__file__).resolve().parent / "static"
"""Inside the package (git-ignored), so an editable install finds what `make` fetched."""


@dataclass(frozen=True)
class Asset:
    name: str
    """Served at `/graphiql/<name>`; the name carries the version, so it is cached for good."""
    package: str
    """An npm package spec, `name@version`."""
    member: str
    """The file's path inside the package's tarball."""
    integrity: str
    """Subresource Integrity value, `sha384-…` (the digests unpkg serves as well)."""

    @property
    def is_css(self) -> bool:
        return self.name.endswith(".css")


ASSETS: tuple[Asset, ...] = (
    Asset(
        "react-18.2.0.production.min.js",
        "react@18.2.0",
        "package/umd/react.production.min.js",
        "sha384-tMH8h3BGESGckSAVGZ82T9n90ztNXxvdwvdM6UoR56cYcf+0iGXBliJ29D+wZ/x8",
    ),
    Asset(
        "react-dom-18.2.0.production.min.js",
        "react-dom@18.2.0",
        "package/umd/react-dom.production.min.js",
        "sha384-bm7MnzvK++ykSwVJ2tynSE5TRdN+xL418osEVF2DE/L/gfWHj91J2Sphe582B1Bh",
    ),
    Asset(
        "graphiql-3.8.3.min.js",
        "graphiql@3.8.3",
        "package/graphiql.min.js",
        "sha384-HbRVEFG0JGJZeAHCJ9Xm2+tpknBQ7QZmNlO/DgZtkZ0aJSypT96YYGRNod99l9Ie",
    ),
    Asset(
        "graphiql-3.8.3.min.css",
        "graphiql@3.8.3",
        "package/graphiql.min.css",
        "sha384-Mq3vbRBY71jfjQAt/DcjxUIYY33ksal4cgdRt9U/hNPvHBCaT2JfJ/PTRiPKf0aM",
    ),
    Asset(
        "graphiql-plugin-explorer-1.0.2.umd.js",
        "@graphiql/plugin-explorer@1.0.2",
        "package/dist/index.umd.js",
        "sha384-2oonKe47vfHIZnmB6ZZ10vl7T0Y+qrHQF2cmNTaFDuPshpKqpUMGMc9jgj9MLDZ9",
    ),
    Asset(
        "graphiql-plugin-explorer-1.0.2.css",
        "@graphiql/plugin-explorer@1.0.2",
        "package/dist/style.css",
        "sha384-5DFJlDPW2tSATRbM8kzoP1j194jexLswuNmClWoRr2Q0x7R68JIQzPHZ02Faktwi",
    ),
)
BY_NAME = {asset.name: asset for asset in ASSETS}


def integrity_of(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def missing(directory: Path) -> list[Asset]:
    """The assets not (yet) in `directory`."""
    return [asset for asset in ASSETS if not (directory / asset.name).is_file()]
