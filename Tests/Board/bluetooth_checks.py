"""The board's Bluetooth LE heart-rate strap (issue 25), judged on the host: what the strap
(guest/strap.py) logged sending during the flight (strap-sent.txt: "REALTIME BPM HEX"; takeoff
and landing in bt-times, the guest's clock) against what runwayd made of it: the flight's
heart rate in `runway show ID --json` (flight.json), the FDR's bpm lane (its fdr_samples), and
the heart rate in the FIT file exported to the USB stick (read by Garmin's FIT SDK)."""
import json, os, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def read_times(out):
    times = {}
    for line in open(os.path.join(out, "bt-times")):
        words = line.split()
        if len(words) == 2:
            times.setdefault(words[0], float(words[1]))
    return times


def read_sent(out):
    sent = []
    for line in open(os.path.join(out, "strap-sent.txt")):
        words = line.split()
        if len(words) == 3:
            sent.append((float(words[0]), int(words[1]), words[2]))
    return sent


def bluetooth_checks(out, work):
    try:
        times = read_times(out)
        sent = read_sent(out)
        takeoff, landing = times["takeoff"], times["landing"]
    except (OSError, ValueError, KeyError) as e:
        return [f"FAIL bt-strap-beats-in-flight: {e}"]
    flown = [bpm for t, bpm, _ in sent if takeoff <= t <= landing]
    results = []
    ok = len(flown) >= 20
    results.append(f"{'PASS' if ok else 'FAIL'} bt-strap-beats-in-flight: the strap notified {len(flown)} beats to a "
                   f"connected central in the {landing - takeoff:.0f} s from START to END" +
                   (f" ({min(flown)}–{max(flown)} bpm, mean {sum(flown) / len(flown):.1f})" if flown else
                    f" ({len(sent)} in all: runwayd never subscribed, or the strap was not connected)"))
    if not flown:
        return results + [f"FAIL {name}: no beats sent during the flight to judge it by"
                          for name in ("bt-flight-heart-rate", "bt-fdr-heart-rate", "bt-fit-heart-rate")]
    low, high, mean = min(flown), max(flown), sum(flown) / len(flown)
    try:
        flight = json.load(open(os.path.join(out, "flight.json")))
    except (OSError, ValueError) as e:
        flight = None
        results.append(f"FAIL bt-flight-heart-rate: flight.json: {e}")
    if flight is not None:
        # The fields of runway show --json: avg_heart_rate (there before this issue), and
        # max_heart_rate and time_in_zone_s (new with it).
        avg, peak, zones = flight.get("avg_heart_rate"), flight.get("max_heart_rate"), flight.get("time_in_zone_s")
        zone_total = (sum(v for v in zones.values() if isinstance(v, (int, float))) if isinstance(zones, dict) else
                      sum(v for v in zones if isinstance(v, (int, float))) if isinstance(zones, list) else None)
        bad = []
        if not isinstance(avg, (int, float)) or not (low - 0.5 <= avg <= high + 0.5) or abs(avg - mean) > 5:
            bad.append(f"avg_heart_rate {avg} (sent {low}–{high}, mean {mean:.1f})")
        if not isinstance(peak, (int, float)) or not (low <= peak <= high) or (isinstance(avg, (int, float)) and peak < avg):
            bad.append(f"max_heart_rate {peak} (the most sent {high})")
        if not zone_total:
            bad.append(f"time_in_zone_s {json.dumps(zones)[:80]}")
        results.append(f"{'FAIL' if bad else 'PASS'} bt-flight-heart-rate: runway show --json: " + (
            "; ".join(bad) if bad else f"avg_heart_rate {avg} (sent: mean {mean:.1f}, {low}–{high}), "
            f"max_heart_rate {peak}, time_in_zone_s {json.dumps(zones)[:120]}"))
        samples = flight.get("fdr_samples") or []
        hr = [s.get("heart_rate") for s in samples if s.get("heart_rate") is not None]
        outside = [h for h in hr if not (low <= h <= high)]
        ok = len(hr) > 0 and not outside
        results.append(f"{'PASS' if ok else 'FAIL'} bt-fdr-heart-rate: {len(hr)} of {len(samples)} FDR samples carry bpm"
                       + (f", {len(outside)} outside the {low}–{high} sent: {outside[:5]}" if outside else
                          f", all within the {low}–{high} sent" if hr else ""))
    results.append(fit_heart_rate(work, low, high))
    return results


def fit_heart_rate(work, low, high):
    """The stick's exported FIT file (stick_checks copied it to WORK/usb-stick-files): records
    with heart_rate, and the session's average within what the strap sent."""
    folder = os.path.join(work, "usb-stick-files")
    fits = sorted(n for n in os.listdir(folder) if n.endswith(".fit")) if os.path.isdir(folder) else []
    python = os.path.join(HERE, "..", "..", ".build", "interop-venv", "bin", "python")
    if not fits or not os.path.exists(python):
        return f"FAIL bt-fit-heart-rate: {'no FIT file on the stick' if not fits else 'no interop venv'}"
    r = subprocess.run([python, os.path.join(HERE, "..", "Fixtures", "fit_check.py"), os.path.join(folder, fits[-1])],
                       capture_output=True, text=True)
    try:
        seen = json.loads(r.stdout)
    except ValueError:
        return f"FAIL bt-fit-heart-rate: {fits[-1]}: {(r.stdout + r.stderr).strip()[:160]}"
    count, avg = seen.get("heart_rates") or 0, seen.get("avg_heart_rate")
    ok = count > 0 and isinstance(avg, (int, float)) and low - 1 <= avg <= high + 1
    return (f"{'PASS' if ok else 'FAIL'} bt-fit-heart-rate: {fits[-1]} (Garmin's FIT SDK): {count} of "
            f"{seen.get('records')} records with heart_rate, session avg_heart_rate {avg} (sent {low}–{high})")
