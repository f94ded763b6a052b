import RunWayCore

/// GPX 1.1 of one flight: a track whose segments break at every pause, UTC times with `Z`,
/// elevation and its source (said in `creator` and the track's description), heart rate and running
/// cadence in Garmin's TrackPointExtension v1 in its schema order (hr, then cad): a point per
/// second of the per-second series that has a position. A value that is missing is left out,
/// never written as 0; the track's description says what is missing.
public enum GPXEncoder {
    public static func encode(_ activity: ExportActivity, name: String) -> [UInt8] {
        var x = XMLWriter(reservingCapacity: activity.points.count * 256 + 2048)
        x.raw(
            "<gpx version=\"1.1\" creator=\"\(activity.creatorName)\" xmlns=\"http://www.topografix.com/GPX/1/1\" "
                + "xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\" "
                + "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                + "xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd "
                + "http://www.garmin.com/xmlschemas/TrackPointExtension/v1 "
                + "http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd\">\n")
        x.raw("<metadata>")
        x.element("name", name)
        x.element("time", time: activity.startTime)
        x.raw("</metadata>\n<trk>")
        x.element("name", name)
        if !activity.description.isEmpty { x.element("desc", activity.description) }
        x.element("type", "running")
        x.raw("\n")
        for segment in activity.segments {
            x.raw("<trkseg>\n")
            // GPX needs a position: a second without one (a long signal gap) is left out.
            for point in segment {
                guard let coordinate = point.coordinate else { continue }
                x.raw("<trkpt lat=\"")
                x.number(coordinate.latitude, decimals: 7)
                x.raw("\" lon=\"")
                x.number(coordinate.longitude, decimals: 7)
                x.raw("\">")
                if let altitude = point.altitude { x.element("ele", altitude, decimals: 1) }
                x.element("time", time: point.time)
                let heartRate = point.heartRate.map { Int($0.rounded()) }
                // Garmin's GPX cadence for running is strides per minute, as in FIT.
                let cadence = ExportActivity.strides(point.cadence)
                if heartRate != nil || cadence != nil {
                    x.raw("<extensions><gpxtpx:TrackPointExtension>")
                    if let heartRate { x.element("gpxtpx:hr", heartRate) }
                    if let cadence { x.element("gpxtpx:cad", cadence) }
                    x.raw("</gpxtpx:TrackPointExtension></extensions>")
                }
                x.raw("</trkpt>\n")
            }
            x.raw("</trkseg>\n")
        }
        x.raw("</trk>\n</gpx>\n")
        return x.bytes
    }
}
