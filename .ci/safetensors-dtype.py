"""Rewrites a safetensors file with its float tensors as float16 or float32,
standard library only. The MiniLM encoder travels to a device machine as
float16 (91 MB in float32 exceed a call's 64 MiB) and is restored there.

Usage: python3 .ci/safetensors-dtype.py IN OUT f16|f32
"""
import json
import struct
import sys
from array import array

CODES = {"F32": ("f", 4), "F16": ("e", 2)}


def convert(raw, src, dst):
    code, size = CODES[src]
    n = len(raw) // size
    values = struct.unpack("<%d%s" % (n, code), raw)
    return struct.pack("<%d%s" % (n, CODES[dst][0]), *values)


def main(src_path, dst_path, target):
    target = target.upper()
    with open(src_path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    meta = header.pop("__metadata__", None)
    out_header, chunks, offset = {}, [], 0
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        begin, end = info["data_offsets"]
        raw = data[begin:end]
        if info["dtype"] in CODES and info["dtype"] != target:
            raw = convert(raw, info["dtype"], target)
            info = dict(info, dtype=target)
        chunks.append(raw)
        out_header[name] = dict(info, data_offsets=[offset, offset + len(raw)])
        offset += len(raw)
    if meta is not None:
        out_header["__metadata__"] = meta
    text = json.dumps(out_header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(dst_path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for c in chunks:
            f.write(c)


if __name__ == "__main__":
    main(*sys.argv[1:4])
