/// A WGS-84 position in decimal degrees.
public struct Coordinate: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Latitude within ±90°, longitude within ±180°, both finite.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

/// Great-circle geometry on a spherical Earth (mean radius). At running distances the
/// difference from the ellipsoid is far below GPS noise.
public enum Geodesy {
    public static let earthRadius = 6_371_008.8
    static let radiansPerDegree = Double.pi / 180

    /// The unit vector (east, north) a track of `degrees` points along.
    static func direction(ofTrack degrees: Double) -> SIMD2<Double> {
        let radians = degrees * radiansPerDegree
        return SIMD2(CMath.sin(radians), CMath.cos(radians))
    }

    /// Haversine distance in metres.
    /// How far a heading turned from `from` to `to` (degrees, 0…180, either way).
    public static func turn(from: Double, to: Double) -> Double {
        let difference = abs((to - from).truncatingRemainder(dividingBy: 360))
        return difference > 180 ? 360 - difference : difference
    }

    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let phi1 = a.latitude * radiansPerDegree
        let phi2 = b.latitude * radiansPerDegree
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * radiansPerDegree
        let s1 = CMath.sin(dPhi / 2)
        let s2 = CMath.sin(dLambda / 2)
        let h = s1 * s1 + CMath.cos(phi1) * CMath.cos(phi2) * s2 * s2
        return 2 * earthRadius * CMath.asin(min(1, h.squareRoot()))
    }

    /// Initial bearing from `a` to `b` in degrees clockwise from true north, 0..<360.
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * radiansPerDegree
        let phi2 = b.latitude * radiansPerDegree
        let dLambda = (b.longitude - a.longitude) * radiansPerDegree
        let y = CMath.sin(dLambda) * CMath.cos(phi2)
        let x = CMath.cos(phi1) * CMath.sin(phi2) - CMath.sin(phi1) * CMath.cos(phi2) * CMath.cos(dLambda)
        let degrees = CMath.atan2(y, x) / radiansPerDegree
        return degrees < 0 ? degrees + 360 : degrees
    }
}

/// A flat east/north projection in metres around an origin (equirectangular, longitude
/// scaled by cos(latitude of the origin)). Accurate to well under a metre over the few
/// kilometres of a run, which is all the route simplifier and the simulator need.
public struct LocalProjection: Sendable {
    public let origin: Coordinate
    let metresPerDegreeLatitude: Double
    let metresPerDegreeLongitude: Double

    public init(origin: Coordinate) {
        self.origin = origin
        metresPerDegreeLatitude = Geodesy.earthRadius * Geodesy.radiansPerDegree
        metresPerDegreeLongitude =
            metresPerDegreeLatitude * CMath.cos(origin.latitude * Geodesy.radiansPerDegree)
    }

    /// East and north offsets of `c` from the origin, in metres.
    public func project(_ c: Coordinate) -> (east: Double, north: Double) {
        (
            (c.longitude - origin.longitude) * metresPerDegreeLongitude,
            (c.latitude - origin.latitude) * metresPerDegreeLatitude
        )
    }

    /// The coordinate at the given east/north offsets from the origin.
    public func coordinate(east: Double, north: Double) -> Coordinate {
        Coordinate(
            latitude: origin.latitude + north / metresPerDegreeLatitude,
            longitude: origin.longitude + east / metresPerDegreeLongitude)
    }
}
