import RunWayCore

/// Writes fixes as the NMEA 0183 sentences a plain receiver sends — RMC, GGA and GSA each
/// epoch — with valid checksums, so a simulated run can be replayed through a real gpsd
/// (`gpsfake`) and read back over libgps like a live one.
public enum NMEAWriter {
    /// The sentences for one epoch. A fix with mode < 2 is written as "no fix" (RMC status V,
    /// GGA quality 0).
    public static func sentences(for fix: Fix) -> [String] {
        let (date, time) = UTCTime.components(Int(fix.time.rounded(.down)))
        let centis = Int(((fix.time - fix.time.rounded(.down)) * 100).rounded()) % 100
        let hhmmss = time.replacingOccurrences(of: ":", with: "") + "." + UTCTime.pad(centis, 2)
        let parts = date.split(separator: "-")
        let ddmmyy = "\(parts[2])\(parts[1])\(parts[0].suffix(2))"
        guard fix.hasPosition else {
            return [
                sentence("GPRMC,\(hhmmss),V,,,,,,,\(ddmmyy),,,N"),
                sentence("GPGGA,\(hhmmss),,,,,0,00,99.99,,,,,,"),
                sentence("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"),
            ]
        }
        let lat = angle(fix.coordinate.latitude, degreeDigits: 2, positive: "N", negative: "S")
        let lon = angle(fix.coordinate.longitude, degreeDigits: 3, positive: "E", negative: "W")
        let knots = fixed((fix.speed ?? 0) / 0.514_444, 3)
        let track = fix.track.map { fixed($0, 1) } ?? ""
        // gpsd estimates eph from HDOP for a plain NMEA receiver; write the HDOP that gives it.
        let hdop = fixed((fix.horizontalAccuracy ?? 19) / 19, 2)
        let altitude = fixed(fix.altitude ?? 0, 1)
        let mode = fix.mode >= 3 ? 3 : 2
        return [
            sentence("GPRMC,\(hhmmss),A,\(lat),\(lon),\(knots),\(track),\(ddmmyy),,,A"),
            sentence("GPGGA,\(hhmmss),\(lat),\(lon),1,09,\(hdop),\(altitude),M,18.0,M,,"),
            sentence(
                "GPGSA,A,\(mode),02,05,07,09,13,15,20,24,30,,,,\(fixed(Double(hdop)! * 1.6, 2)),\(hdop),1.80"),
        ]
    }

    /// `$body*CS` with the XOR checksum of `body`.
    public static func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
    }

    /// `ddmm.mmmmmm,N` / `dddmm.mmmmmm,E`.
    static func angle(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        var degrees = Int(magnitude)
        var minutes = (magnitude - Double(degrees)) * 60
        if (minutes * 1_000_000).rounded() >= 60_000_000 {
            degrees += 1
            minutes = 0
        }
        let wholeMinutes = Int(minutes)
        let fraction = Int(((minutes - Double(wholeMinutes)) * 1_000_000).rounded())
        return
            "\(UTCTime.pad(degrees, degreeDigits))\(UTCTime.pad(wholeMinutes, 2)).\(UTCTime.pad(fraction, 6)),"
            + (value < 0 ? negative : positive)
    }

    public static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = scaled % Int(scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return places == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(UTCTime.pad(fraction, places))"
    }
}
