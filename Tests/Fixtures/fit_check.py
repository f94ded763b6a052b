"""Reads a FIT activity file with Garmin's FIT SDK for Python and prints what the export tests
check, as JSON: integrity, decode errors, and the session, laps, records, timer events and time
in zone; and, under "fitdecode", what fitdecode (a second reader, written apart from Garmin's)
reads of the heart-rate fields, with its CRC check raising on a bad file."""
import json
import sys

from garmin_fit_sdk import Decoder, Stream

try:
    import fitdecode
except ImportError:  # a venv made before it was pinned: said in its reading, the SDK's stands
    fitdecode = None

ZONE_FIELDS = ("reference_mesg", "reference_index", "time_in_hr_zone", "hr_zone_high_boundary",
               "hr_calc_type", "max_heart_rate", "resting_heart_rate")


def listed(value):
    """A FIT array as a list (a reader gives a one-element array as a scalar)."""
    if value is None:
        return None
    return list(value) if isinstance(value, (list, tuple)) else [value]


def zone_message(m):
    z = {k: m.get(k) for k in ZONE_FIELDS}
    z["time_in_hr_zone"] = listed(z["time_in_hr_zone"])
    z["hr_zone_high_boundary"] = listed(z["hr_zone_high_boundary"])
    return z


def epoch(value):
    """A fitdecode timestamp (a datetime, or seconds) as Unix seconds."""
    return value.timestamp() if hasattr(value, "timestamp") else value


def second_reading(path):
    """fitdecode's reading: the session's and laps' heart-rate fields and each time_in_zone; every
    message's timestamp in file order (the largest step back over the whole file, not records
    only); the timer's running seconds summed from the file's own start and stop events; the
    session's and laps' total_timer_time; and every record as [time, heart rate, cadence,
    distance, enhanced altitude, enhanced speed, latitude, longitude]."""
    out = {"errors": [], "session": None, "laps": [], "time_in_zone": [], "largest_step_back": 0,
           "timer_sum": 0, "session_timer": None, "lap_timers": [], "records": [], "descriptors": []}
    latest = None
    running_since = None
    if fitdecode is None:
        out["errors"].append("fitdecode is not installed (scripts/interop-venv.sh)")
        return out
    try:
        with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.RAISE) as fit:
            for frame in fit:
                if frame.frame_type != fitdecode.FIT_FRAME_DATA:
                    continue
                values = {f.name: f.value for f in frame.fields}
                stamp = epoch(values.get("timestamp")) if values.get("timestamp") is not None else None
                if stamp is not None:
                    if latest is not None:
                        out["largest_step_back"] = max(out["largest_step_back"], latest - stamp)
                    latest = stamp if latest is None else max(latest, stamp)
                if frame.name == "event" and values.get("event") == "timer":
                    if values.get("event_type") == "start" and running_since is None:
                        running_since = stamp
                    elif values.get("event_type") in ("stop", "stop_all") and running_since is not None:
                        out["timer_sum"] += stamp - running_since
                        running_since = None
                elif frame.name == "record":
                    semicircle = 180 / 2**31
                    lat, lon = values.get("position_lat"), values.get("position_long")
                    out["records"].append([
                        stamp, values.get("heart_rate"), values.get("cadence"), values.get("distance"),
                        values.get("enhanced_altitude"), values.get("enhanced_speed"),
                        lat * semicircle if lat is not None else None,
                        lon * semicircle if lon is not None else None])
                elif frame.name == "device_info":
                    out["descriptors"].append({k: values.get(k) for k in (
                        "descriptor", "product_name", "serial_number", "software_version", "manufacturer")})
                if frame.name == "session":
                    out["session_timer"] = values.get("total_timer_time")
                    out["session"] = {k: values.get(k) for k in ("avg_heart_rate", "max_heart_rate")}
                    out["session"]["time_in_hr_zone"] = listed(values.get("time_in_hr_zone"))
                elif frame.name == "lap":
                    out["laps"].append(values.get("max_heart_rate"))
                    out["lap_timers"].append(values.get("total_timer_time"))
                elif frame.name == "time_in_zone":
                    out["time_in_zone"].append(zone_message(values))
    except Exception as e:  # noqa: BLE001 - any failure to read is the finding
        out["errors"].append(f"{type(e).__name__}: {e}")
    return out


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
            "max_heart_rate": session.get("max_heart_rate"),
            "session_time_in_hr_zone": listed(session.get("time_in_hr_zone")),
            "lap_max_heart_rates": [l.get("max_heart_rate") for l in laps],
            "time_in_zone": [zone_message(m) for m in messages.get("time_in_zone_mesgs", [])],
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
            "product_name": file_id.get("product_name"),
            "serial_number": file_id.get("serial_number"),
            "lap_calories": [l.get("total_calories") for l in laps],
            "activity_sessions": (messages.get("activity_mesgs") or [{}])[0].get("num_sessions"),
            "lap_intensities": [l.get("intensity") for l in laps],
            "lap_triggers": [l.get("lap_trigger") for l in laps],
            "lap_workout_steps": [l.get("wkt_step_index") for l in laps],
            "workout": [
                {k: w.get(k) for k in ("sport", "num_valid_steps", "wkt_name")}
                for w in messages.get("workout_mesgs", [])
            ],
            "workout_steps": [
                {k: (s.get(k) if not isinstance(s.get(k), float) else round(s.get(k), 3))
                 for k in ("message_index", "wkt_step_name", "duration_type", "duration_distance",
                           "duration_time", "target_type", "custom_target_speed_low",
                           "custom_target_speed_high", "custom_target_heart_rate_low",
                           "custom_target_heart_rate_high", "intensity", "secondary_target_type")}
                for s in messages.get("workout_step_mesgs", [])
            ],
            "fitdecode": second_reading(path),
        }
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
