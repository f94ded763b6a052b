"""Reads a FIT activity file with Garmin's FIT SDK for Python and prints what the export tests
check, as JSON: integrity, decode errors, and the session, laps, records and timer events."""
import json
import sys

from garmin_fit_sdk import Decoder, Stream


def main(path):
    # Each check reads the stream through: a fresh decoder for each.
    out = {
        "is_fit": Decoder(Stream.from_file(path)).is_fit(),
        "integrity": Decoder(Stream.from_file(path)).check_integrity(),
    }
    messages, errors = Decoder(Stream.from_file(path)).read(convert_datetimes_to_dates=False)
    out["errors"] = [str(e) for e in errors]
    session = (messages.get("session_mesgs") or [{}])[0]
    records = messages.get("record_mesgs", [])
    laps = messages.get("lap_mesgs", [])
    events = messages.get("event_mesgs", [])
    file_id = (messages.get("file_id_mesgs") or [{}])[0]
    stamps = [r["timestamp"] for r in records if "timestamp" in r]
    distances = [r["distance"] for r in records if "distance" in r]
    out.update(
        {
            "file_type": file_id.get("type"),
            "sport": session.get("sport"),
            "total_distance": session.get("total_distance"),
            "total_elapsed_time": session.get("total_elapsed_time"),
            "total_timer_time": session.get("total_timer_time"),
            "total_ascent": session.get("total_ascent"),
            "total_descent": session.get("total_descent"),
            "total_calories": session.get("total_calories"),
            "avg_heart_rate": session.get("avg_heart_rate"),
            "num_laps": session.get("num_laps"),
            "laps": len(laps),
            "lap_distances": [l.get("total_distance") for l in laps],
            "records": len(records),
            "timestamps_never_go_back": all(a <= b for a, b in zip(stamps, stamps[1:])),
            "distance_never_goes_back": all(a <= b for a, b in zip(distances, distances[1:])),
            "last_distance": distances[-1] if distances else None,
            "first_latitude": records[0].get("position_lat") if records else None,
            "altitudes": sum(1 for r in records if r.get("enhanced_altitude") is not None),
            "heart_rates": sum(1 for r in records if r.get("heart_rate") is not None),
            "cadences": [r.get("cadence") for r in records[:50] if r.get("cadence") is not None],
            "timer_events": [
                (e.get("event"), e.get("event_type")) for e in events if e.get("event") == "timer"
            ],
            "devices": [d.get("descriptor") for d in messages.get("device_info_mesgs", [])],
            "activity_sessions": (messages.get("activity_mesgs") or [{}])[0].get("num_sessions"),
        }
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
