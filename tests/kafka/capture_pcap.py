#!/usr/bin/env python3
"""Writes tests/fixtures/capture-4.3.1/capture.pcapng: the recorded connections of that fixture
(every byte a real Java client and a real Kafka 4.3.1 broker sent each other, NN-*.c2b.bin and
NN-*.b2c.bin) as the packets a loopback capture would hold: one Ethernet/IPv4/TCP connection per
recording, client 127.0.0.1:40000+N to 127.0.0.1:9092, opened with a SYN each way, each side's
bytes in 1448-byte segments, a request's segments before its response's, 100 µs apart.

The TCP and IP checksums are left 0 (as captures of offloaded loopback traffic often show them).
Run: python3 tests/kafka/capture_pcap.py   (deterministic: same streams, same file)
"""
import glob
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIX = os.path.join(ROOT, "tests", "fixtures", "capture-4.3.1")
MSS = 1448
T0 = 1_764_806_400_000_000  # 2025-12-04T00:00:00Z in microseconds


def block(kind, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", kind, n) + body + struct.pack("<I", n)


def frame(src_port, dst_port, seq, ack, flags, payload):
    tcp = struct.pack(">HHIIBBHHH", src_port, dst_port, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 0x50, flags, 65535, 0, 0) + payload
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, bytes([127, 0, 0, 1]), bytes([127, 0, 0, 1])) + tcp
    return b"\0\0\0\0\0\0" + b"\0\0\0\0\0\0" + b"\x08\x00" + ip


def main():
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", 1, 0, 262144))  # Ethernet, microsecond timestamps
    t = T0
    names = sorted(p[:-len(".c2b.bin")] for p in glob.glob(os.path.join(FIX, "*.c2b.bin")))
    for n, name in enumerate(names):
        c2b = open(name + ".c2b.bin", "rb").read()
        b2c = open(name + ".b2c.bin", "rb").read()
        cport, isn_c, isn_b = 40000 + n, 1_000_000 * (n + 1), 2_000_000 * (n + 1)
        packets = [(cport, 9092, isn_c, 0, 0x02, b""), (9092, cport, isn_b, isn_c + 1, 0x12, b"")]
        cs = [c2b[i:i + MSS] for i in range(0, len(c2b), MSS)]
        bs = [b2c[i:i + MSS] for i in range(0, len(b2c), MSS)]
        for k in range(max(len(cs), len(bs))):
            if k < len(cs):
                packets.append((cport, 9092, isn_c + 1 + k * MSS, isn_b + 1, 0x18, cs[k]))
            if k < len(bs):
                packets.append((9092, cport, isn_b + 1 + k * MSS, isn_c + 1 + len(c2b), 0x18, bs[k]))
        for p in packets:
            data = frame(*p)
            t += 100
            out += block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), len(data)) + data)
    path = os.path.join(FIX, "capture.pcapng")
    open(path, "wb").write(out)
    print(f"{path}: {len(out)} bytes, {len(names)} connections")


if __name__ == "__main__":
    main()
