"""The bench's baseline: the same GPX track written by gpxpy (segments at pauses, elevation,
time, Garmin TrackPointExtension hr/cad). Reads the points as TSV (segment, lat, lon, ele, unix
time, hr, cad; empty = missing), builds the GPX and serialises it; prints the seconds that took
(the reading of the TSV is not counted) and the bytes written."""
import sys
import time
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

import gpxpy
import gpxpy.gpx

NS = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"


def main(path, out):
    rows = []
    with open(path) as f:
        for line in f:
            seg, lat, lon, ele, t, hr, cad = line.rstrip("\n").split("\t")
            rows.append((int(seg), float(lat), float(lon), float(ele) if ele else None, float(t), hr, cad))
    start = time.perf_counter()
    gpx = gpxpy.gpx.GPX()
    gpx.creator = "RunWay Core (barometric altitude)"
    gpx.nsmap["gpxtpx"] = NS
    track = gpxpy.gpx.GPXTrack(name="bench")
    gpx.tracks.append(track)
    segment = None
    current = None
    for seg, lat, lon, ele, t, hr, cad in rows:
        if seg != current:
            segment = gpxpy.gpx.GPXTrackSegment()
            track.segments.append(segment)
            current = seg
        point = gpxpy.gpx.GPXTrackPoint(
            lat, lon, elevation=ele, time=datetime.fromtimestamp(t, tz=timezone.utc)
        )
        if hr or cad:
            ext = ET.Element(f"{{{NS}}}TrackPointExtension")
            if hr:
                ET.SubElement(ext, f"{{{NS}}}hr").text = hr
            if cad:
                ET.SubElement(ext, f"{{{NS}}}cad").text = cad
            point.extensions.append(ext)
        segment.points.append(point)
    xml = gpx.to_xml()
    elapsed = time.perf_counter() - start
    with open(out, "w") as f:
        f.write(xml)
    print(f"{elapsed:.4f} {len(xml.encode())}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
