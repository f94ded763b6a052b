"""The bench's FIT baseline: the same records written as a FIT activity by a plain Python
encoder (struct.pack per message, written here for the bench: the test venv holds FIT readers,
no FIT encoder). Reads the points as TSV (unix time, lat, lon, distance m, altitude m, speed m/s,
hr, cad; empty = missing), writes file_id, a record definition and one record per row, and the
CRC; prints the seconds that took (the reading of the TSV is not counted) and the bytes."""
import struct
import sys
import time

FIT_EPOCH = 631065600
CRC_TABLE = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
             0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]


def crc16(data, crc=0):
    for byte in data:
        for nibble in (byte & 0x0F, byte >> 4):
            low = CRC_TABLE[crc & 0x0F]
            crc = ((crc >> 4) & 0x0FFF) ^ low ^ CRC_TABLE[nibble]
    return crc


def field(value, scale, offset, invalid):
    return invalid if value == "" else int(round((float(value) + offset) * scale))


def encode(rows):
    out = bytearray()
    # file_id (global 0): type, manufacturer, product, time_created.
    out += struct.pack("<BBBHB", 0x40, 0, 0, 0, 4) + bytes([0, 1, 0, 1, 2, 0x84, 2, 2, 0x84, 4, 4, 0x86])
    out += struct.pack("<BBHHI", 0, 4, 255, 1, int(rows[0][0]) - FIT_EPOCH)
    # record (global 20): timestamp, lat, long, distance, enhanced_altitude, enhanced_speed, hr, cad.
    fields = [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (5, 4, 0x86), (78, 4, 0x86), (73, 4, 0x86),
              (3, 1, 0x02), (4, 1, 0x02)]
    out += struct.pack("<BBBHB", 0x41, 0, 0, 20, len(fields)) + bytes(b for f in fields for b in f)
    record = struct.Struct("<BIiiIIIBB")
    semicircles = 2**31 / 180
    for t, lat, lon, dist, alt, speed, hr, cad in rows:
        out += record.pack(
            1, int(t) - FIT_EPOCH,
            field(lat, semicircles, 0, 0x7FFFFFFF), field(lon, semicircles, 0, 0x7FFFFFFF),
            field(dist, 100, 0, 0xFFFFFFFF), field(alt, 5, 500, 0xFFFFFFFF), field(speed, 1000, 0, 0xFFFFFFFF),
            field(hr, 1, 0, 0xFF), field(cad, 1, 0, 0xFF))
    header = struct.pack("<BBHI4s", 14, 0x20, 2132, len(out), b".FIT")
    header += struct.pack("<H", crc16(header))
    data = header + bytes(out)
    return data + struct.pack("<H", crc16(data))


def main(path, out):
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    rows = [[float(r[0])] + r[1:] for r in rows]
    start = time.perf_counter()
    data = encode(rows)
    elapsed = time.perf_counter() - start
    with open(out, "wb") as f:
        f.write(data)
    print(f"{elapsed:.4f} {len(data)}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
