"""Encoded representations kept on disk, so that preparing the same ladder again costs a decode
instead of an encode.

A representation is stored in `cache_dir` as one .npz file named by a hash of everything its bytes
depend on: the source pictures themselves (their SHA-256), the codec, target rate, GOP and B frames,
the slice size,
the encoder's options, PyAV's and FFmpeg's library versions, libx264's build, and the source of the
encoding module. The file holds the packets (decode order), their display indices, the per-frame
PSNR and SSIM, and the SHA-256 of the decoded pictures. Loading decodes the packets again, checks
the GOP structure, and refuses the file unless the decoded pictures have that same SHA-256 (then
the stored PSNR and SSIM are those of these very pictures). Files are written atomically (a
temporary file renamed), so concurrent preparers at worst encode the same rung twice.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import av
import numpy as np

from mantra.media import encode as encoding
from mantra.media.content import Content
from mantra.media.encode import EncodedStream, codec_versions, encode, encoder_settings, stream_from_packets

FORMAT = 1  # of the stored file; bump to drop every existing file


def encoded(
    content: Content,
    codec: str,
    rate_bps: int,
    gop_frames: int,
    b_frames: int,
    slice_bytes: int | None,
    cache_dir: Path,
) -> tuple[EncodedStream, bool]:
    """The representation (in slices of `slice_bytes`, or a slice per picture with None), from the
    cache if there, else encoded and stored; and whether it was found in the cache."""
    key = _key(content, codec, rate_bps, gop_frames, b_frames, slice_bytes)
    slicing = "" if slice_bytes is None else f"-s{slice_bytes}"
    path = cache_dir / f"{codec}-{rate_bps}-g{gop_frames}-b{b_frames}{slicing}-{key}.npz"
    if path.exists():
        stream = _load(path, content, codec, rate_bps, gop_frames, b_frames, slice_bytes)
        if stream is not None:
            return stream, True
    stream = encode(content, codec, rate_bps, gop_frames, b_frames, slice_bytes)
    _store(path, stream)
    return stream, False


def _key(content: Content, codec: str, rate_bps: int, gop_frames: int, b_frames: int, slice_bytes: int | None) -> str:
    what = {
        "format": FORMAT,
        "content": content.video.sha256(),
        "fps": content.fps,
        "codec": codec,
        "rate_bps": rate_bps,
        "gop_frames": gop_frames,
        "b_frames": b_frames,
        "slice_bytes": slice_bytes,
        "settings": encoder_settings(codec, rate_bps, gop_frames, b_frames, content.fps, slice_bytes),
        "pyav": av.__version__,
        "libraries": av.library_versions,
        "libx264": codec_versions()["libx264"],
        "encoding": hashlib.sha256(inspect.getsource(encoding).encode()).hexdigest(),
    }
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:20]


def _store(path: Path, stream: EncodedStream) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {
        "packets": np.frombuffer(b"".join(stream.packets), dtype=np.uint8),
        "sizes": np.array(stream.frame_bytes, dtype=np.int64),
        "display": np.array(stream.display, dtype=np.int64),
        "psnr_db": stream.psnr_db,
        "ssim": stream.ssim,
        "decoded_sha256": np.array(stream.decoded.sha256()),
        "settings": np.array(json.dumps(stream.settings, sort_keys=True)),
    }
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _load(
    path: Path, content: Content, codec: str, rate_bps: int, gop_frames: int, b_frames: int, slice_bytes: int | None
) -> EncodedStream | None:
    """The stored stream, or None if the file is unreadable or its pictures are not the ones stored."""
    try:
        with np.load(path, allow_pickle=False) as f:
            data = bytes(f["packets"])
            ends = np.cumsum(f["sizes"]).tolist()
            display = tuple(int(d) for d in f["display"])
            quality = (f["psnr_db"].astype(np.float64), f["ssim"].astype(np.float64))
            digest = str(f["decoded_sha256"])
            settings = json.loads(str(f["settings"]))
    except (OSError, KeyError, ValueError):
        return None
    packets = tuple(data[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True))
    stream = stream_from_packets(
        content, codec, rate_bps, gop_frames, b_frames, slice_bytes, settings, packets, display, quality
    )
    return stream if stream.decoded.sha256() == digest else None
