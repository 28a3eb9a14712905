#!/usr/bin/env python3
"""Send one OSC message to physarum (started with --osc PORT), with nothing but the standard library.

    python3 examples/osc_send.py /physarum/model/decay 0.02
    python3 examples/osc_send.py --port 9000 /physarum/species/1/deposit 3
    python3 examples/osc_send.py /physarum/display/palette magma
    python3 examples/osc_send.py /physarum/record

Arguments are typed as they read: 3 is an int32, 0.02 a float32, true/false are OSC's T/F,
anything else a string.
"""
import argparse
import socket
import struct


def padded(b: bytes) -> bytes:
    # OSC strings end with a NUL and are padded with NULs to a multiple of 4 bytes.
    return b + b"\0" * (4 - len(b) % 4)


def encode(address: str, args) -> bytes:
    tags, data = ",", b""
    for a in args:
        if isinstance(a, bool):
            tags += "T" if a else "F"
        elif isinstance(a, int):
            tags, data = tags + "i", data + struct.pack(">i", a)
        elif isinstance(a, float):
            tags, data = tags + "f", data + struct.pack(">f", a)
        else:
            tags, data = tags + "s", data + padded(str(a).encode())
    return padded(address.encode()) + padded(tags.encode()) + data


def typed(text: str):
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=9000)
    p.add_argument("address", help="e.g. /physarum/model/decay")
    p.add_argument("values", nargs="*")
    a = p.parse_args()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(encode(a.address, [typed(v) for v in a.values]), (a.host, a.port))


if __name__ == "__main__":
    main()
