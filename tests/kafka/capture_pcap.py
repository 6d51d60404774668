#!/usr/bin/env python3
"""Writes tests/fixtures/capture-4.3.1/capture.pcapng: the recorded connections of that fixture
(every byte a real Java client and a real Kafka 4.3.1 broker sent each other, NN-*.c2b.bin and
NN-*.b2c.bin) as the packets a loopback capture would hold: one Ethernet/IPv4/TCP connection per
recording, client 127.0.0.1:40000+N to 127.0.0.1:9092, opened with a SYN each way, each side's
bytes in segments of at most 1448 bytes, 100 µs apart. The client's bytes are sent up to the end of
a request just before the response to it (as on the wire: a broker answers what it has read), and
each segment acknowledges every byte the other side has sent so far, so a TCP analyser (tshark)
sees a plausible conversation and no segment as a retransmission.

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


def frames(stream, corr_at):
    """(correlation id, end offset) of each size-prefixed frame of a stream; the correlation id
    sits `corr_at` bytes after the size (4 in a request header, after api key and version; 0 in a
    response header)."""
    at = 0
    while at + 4 <= len(stream):
        size = struct.unpack(">i", stream[at:at + 4])[0]
        corr = struct.unpack(">i", stream[at + 4 + corr_at:at + 8 + corr_at])[0]
        at += 4 + size
        yield corr, at


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
        sent = {"c": 0, "b": 0}

        def send(side, upto):
            """Sends `side`'s stream up to byte `upto`, in segments, each acking the other side."""
            data, other = (c2b, "b") if side == "c" else (b2c, "c")
            while sent[side] < upto:
                seg = data[sent[side]:min(upto, sent[side] + MSS)]
                if side == "c":
                    packets.append((cport, 9092, isn_c + 1 + sent["c"], isn_b + 1 + sent["b"], 0x18, seg))
                else:
                    packets.append((9092, cport, isn_b + 1 + sent["b"], isn_c + 1 + sent["c"], 0x18, seg))
                sent[side] += len(seg)

        request_end = {corr: end for corr, end in frames(c2b, 4)}
        for corr, end in frames(b2c, 0):
            send("c", max(sent["c"], request_end.get(corr, len(c2b))))
            send("b", end)
        send("c", len(c2b))
        for p in packets:
            data = frame(*p)
            t += 100
            out += block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), len(data)) + data)
    path = os.path.join(FIX, "capture.pcapng")
    open(path, "wb").write(out)
    print(f"{path}: {len(out)} bytes, {len(names)} connections")


if __name__ == "__main__":
    main()
