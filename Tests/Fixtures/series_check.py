"""Reads a GPX with gpxpy and a TCX with Python's own XML parser (xml.etree: nothing of the
writer's), and prints each file's per-second series as JSON: GPX [time, latitude, longitude,
elevation, heart rate, cadence], TCX [time, latitude, longitude, altitude, distance, heart rate,
cadence, speed], and what each file says about itself (GPX's track description, TCX's notes)."""
import json
import sys
import xml.etree.ElementTree as ET

import gpxpy

TCX = "{http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2}"
TPX = "{http://www.garmin.com/xmlschemas/ActivityExtension/v2}"
TPE = "{http://www.garmin.com/xmlschemas/TrackPointExtension/v1}"


def number(element):
    return float(element.text) if element is not None and element.text is not None else None


def gpx_series(path):
    with open(path, encoding="utf-8") as f:
        gpx = gpxpy.parse(f)
    rows = []
    for track in gpx.tracks:
        for segment in track.segments:
            for p in segment.points:
                hr = cad = None
                for extension in p.extensions:
                    hr = number(extension.find(TPE + "hr"))
                    cad = number(extension.find(TPE + "cad"))
                rows.append([p.time.timestamp(), p.latitude, p.longitude, p.elevation, hr, cad])
    return {"rows": rows, "description": gpx.tracks[0].description if gpx.tracks else None,
            "uphill": gpx.get_uphill_downhill().uphill if gpx.tracks else None,
            # What a service that measures the GPX shows: the segments' summed 2D length.
            "length_2d": gpx.length_2d()}


def tcx_series(path):
    from datetime import datetime
    root = ET.parse(path).getroot()
    rows = []
    for tp in root.iter(TCX + "Trackpoint"):
        when = datetime.fromisoformat(tp.find(TCX + "Time").text.replace("Z", "+00:00")).timestamp()
        position = tp.find(TCX + "Position")
        lat = number(position.find(TCX + "LatitudeDegrees")) if position is not None else None
        lon = number(position.find(TCX + "LongitudeDegrees")) if position is not None else None
        rows.append([when, lat, lon, number(tp.find(TCX + "AltitudeMeters")),
                     number(tp.find(TCX + "DistanceMeters")),
                     number(tp.find(TCX + "HeartRateBpm/" + TCX + "Value")),
                     number(tp.find(".//" + TPX + "RunCadence")), number(tp.find(".//" + TPX + "Speed"))])
    laps = [{"time": number(lap.find(TCX + "TotalTimeSeconds")), "calories": number(lap.find(TCX + "Calories"))}
            for lap in root.iter(TCX + "Lap")]
    notes = root.find(".//" + TCX + "Notes")
    return {"rows": rows, "laps": laps, "notes": notes.text if notes is not None else None}


if __name__ == "__main__":
    print(json.dumps({"gpx": gpx_series(sys.argv[1]), "tcx": tcx_series(sys.argv[2])}))
