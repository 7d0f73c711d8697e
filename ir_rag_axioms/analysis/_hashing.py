"""The one content hash of the package: BLAKE2b over parts joined by NUL bytes, as hex.

Every content address (text keys of the store, item keys, matrix keys, short text digests) and the store's row
checksums are this function; the sizes differ by use (32 bytes for keys, 16 for digests and checksums). A single
part hashes its bytes alone, so ``content_hash(text)`` is the plain BLAKE2b of the text's UTF-8 bytes.
"""

from __future__ import annotations

import hashlib

KEY_BYTES = 32
"""Digest size of content addresses (BLAKE2b-256)."""


def content_hash(*parts: str | bytes, size: int = KEY_BYTES) -> str:
    """Hex BLAKE2b (``size`` bytes) of the parts joined by NUL bytes; strings as UTF-8 with lone surrogates kept.

    Unambiguous as long as no part but the last contains a NUL byte (reprs, hex keys and tags do not).
    """
    digest = hashlib.blake2b(digest_size=size)
    for k, part in enumerate(parts):
        if k:
            digest.update(b"\0")
        digest.update(part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part)
    return digest.hexdigest()
