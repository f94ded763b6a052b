import RunWayCore

/// TCX (Training Center Database v2) of one flight: `Sport="Running"`, one `Lap` per split with
/// its required `Calories` and its average and maximum heart rate, a new `Track` inside a lap
/// after each pause, trackpoints with distance, barometric altitude, heart rate, and speed and
/// running cadence (strides per minute) in ActivityExtension v2's `TPX`; a `Creator` of
/// `Device_t` whose name says the altitude is barometric.
public enum TCXEncoder {
    public static func encode(
        _ activity: ExportActivity, notes: String? = nil, device: DeviceIdentity = DeviceIdentity()
    ) -> [UInt8] {
        var x = XMLWriter(reservingCapacity: activity.points.count * 448 + 4096)
        x.raw(
            "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" "
                + "xmlns:ns3=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\" "
                + "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                + "xsi:schemaLocation=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 "
                + "http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd\">\n")
        x.raw("<Activities>\n<Activity Sport=\"Running\">\n")
        x.element("Id", time: activity.startTime)
        x.raw("\n")
        let segments = activity.segments
        var segmentIndex = 0
        var pointIndex = 0
        for (index, lap) in activity.laps.enumerated() {
            let isLast = index == activity.laps.count - 1
            x.raw("<Lap StartTime=\"\(UTCTime.format(activity.startTime + lap.startElapsed))\">")
            x.element("TotalTimeSeconds", activity.timerTime(lap: index), decimals: 1)
            x.element("DistanceMeters", lap.distance, decimals: 1)
            x.element("Calories", activity.lapCalories(index) ?? 0)
            if let heartRate = lap.heartRate {
                x.raw("<AverageHeartRateBpm>")
                x.element("Value", Int(heartRate.rounded()))
                x.raw("</AverageHeartRateBpm>")
            }
            if let maximum = lap.maximumHeartRate {
                x.raw("<MaximumHeartRateBpm>")
                x.element("Value", Int(maximum.rounded()))
                x.raw("</MaximumHeartRateBpm>")
            }
            x.element("Intensity", lap.intensity.tcx)
            x.element("TriggerMethod", lap.trigger?.tcx ?? (isLast ? "Manual" : "Distance"))
            x.raw("\n")
            // This lap's points, a Track per pause-free stretch.
            var open = false
            while segmentIndex < segments.count {
                let segment = segments[segmentIndex]
                while pointIndex < segment.count {
                    let point = segment[pointIndex]
                    guard isLast || point.elapsed < lap.endElapsed else { break }
                    if !open {
                        x.raw("<Track>\n")
                        open = true
                    }
                    trackpoint(&x, point)
                    pointIndex += 1
                }
                guard pointIndex == segment.count else { break }
                if open {
                    x.raw("</Track>\n")
                    open = false
                }
                segmentIndex += 1
                pointIndex = 0
            }
            if open { x.raw("</Track>\n") }
            if lap.movingTime > 0 || lap.cadence != nil {
                x.raw("<Extensions><ns3:LX>")
                if lap.movingTime > 0 {
                    x.element("ns3:AvgSpeed", lap.distance / lap.movingTime, decimals: 3)
                }
                if let cadence = ExportActivity.strides(lap.cadence) {
                    x.element("ns3:AvgRunCadence", cadence)
                }
                x.raw("</ns3:LX></Extensions>")
            }
            x.raw("</Lap>\n")
        }
        let said = [notes, activity.description.isEmpty ? nil : activity.description].compactMap { $0 }
        if !said.isEmpty { x.element("Notes", said.joined(separator: " ")) }
        x.raw("<Creator xsi:type=\"Device_t\">")
        x.element("Name", activity.creatorName)
        x.element("UnitId", Int(device.serialNumber))
        x.element("ProductID", Int(FITEncoder.product))
        x.raw("<Version>")
        x.element("VersionMajor", device.release.major)
        x.element("VersionMinor", device.release.minor)
        x.element("BuildMajor", device.release.patch)
        x.element("BuildMinor", 0)
        x.raw("</Version></Creator>\n</Activity>\n</Activities>\n</TrainingCenterDatabase>\n")
        return x.bytes
    }

    private static func trackpoint(_ x: inout XMLWriter, _ point: ExportActivity.Point) {
        x.raw("<Trackpoint>")
        x.element("Time", time: point.time)
        if let coordinate = point.coordinate {
            x.raw("<Position>")
            x.element("LatitudeDegrees", coordinate.latitude, decimals: 7)
            x.element("LongitudeDegrees", coordinate.longitude, decimals: 7)
            x.raw("</Position>")
        }
        if let altitude = point.altitude { x.element("AltitudeMeters", altitude, decimals: 1) }
        x.element("DistanceMeters", point.distance, decimals: 1)
        if let heartRate = point.heartRate {
            x.raw("<HeartRateBpm>")
            x.element("Value", Int(heartRate.rounded()))
            x.raw("</HeartRateBpm>")
        }
        let cadence = ExportActivity.strides(point.cadence)
        if point.speed != nil || cadence != nil {
            x.raw("<Extensions><ns3:TPX>")
            if let speed = point.speed { x.element("ns3:Speed", speed, decimals: 3) }
            if let cadence { x.element("ns3:RunCadence", cadence) }
            x.raw("</ns3:TPX></Extensions>")
        }
        x.raw("</Trackpoint>\n")
    }
}
