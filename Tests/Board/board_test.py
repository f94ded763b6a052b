#!/usr/bin/env python3
"""The emulated board (issue 15): Debian's own kernel under qemu (TCG), a Debian 12 root
filesystem with the project's .deb installed, real gpsd on a real serial port, i2c-stub for the
BMP280, and the checks of guest/checks.sh run by the guest's systemd. Prints each check and
"N passed, N failed"; exits 1 when any failed or the board did not report.

usage: board_test.py --deb RUNWAY.deb --deb-key KEY --runway HOST-RUNWAY --work DIR [--cuts N]
"""
import argparse, array, calendar, hashlib, json, math, os, random, re, shutil, socket, subprocess, sys, threading, time, wave

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bluetooth_checks import bluetooth_checks  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
GUEST_PACKAGES = [
    "systemd", "systemd-sysv", "udev", "kmod", "gpsd", "i2c-tools", "gpiod", "libgps28", "libi2c0",
    "libgpiod2", "libsqlite3-0", "zlib1g", "libsystemd0", "dosfstools", "mtools", "procps",
    # The voice (issue 24): its libraries, as the .deb depends on them, and aplay/arecord.
    "libespeak-ng1", "espeak-ng-data", "libflite1", "libasound2", "alsa-utils",
    # Bluetooth LE (issue 25): bluetoothd, btvirt's virtual controllers, and the strap's Python
    # (guest/strap.py: D-Bus with GLib's main loop).
    "bluez", "bluez-test-tools", "python3-dbus", "python3-gi",
]


def log(text):
    print(f"board: {text}", flush=True)


def run(*args, **kw):
    return subprocess.run(args, check=True, **kw)


def kernel():
    versions = sorted(os.listdir("/lib/modules"))
    for v in reversed(versions):
        if os.path.exists(f"/boot/vmlinuz-{v}") and os.path.exists(f"/boot/initrd.img-{v}"):
            return v
    sys.exit("board: no /boot/vmlinuz and initrd.img: install linux-image-amd64 (scripts/install-deps.sh board)")


def gpio_sim(work, version):
    """gpio-sim for the guest's kernel, built once per kernel version."""
    ko = os.path.join(work, "gpio-sim", version, "gpio-sim-board.ko")
    if not os.path.exists(ko):
        log("building gpio-sim for Debian's kernel (out of tree) …")
        run(os.path.join(HERE, "gpio-sim", "build.sh"), version, os.path.dirname(ko))
    return ko


def initrd(work, version):
    """A small initramfs for the guest, made once per kernel: only what mounting /dev/vda needs
    (virtio_pci, virtio_blk, ext4 and what they depend on; MODULES=list, lz4). Debian's own
    (MODULES=most) takes about 12 s of every boot under TCG to unpack and load modules the
    board never uses, and the power cuts boot 21 times."""
    path = os.path.join(work, f"initrd-{version}.img")
    if os.path.exists(path):
        return path
    conf = os.path.join(work, "initramfs-tools")
    shutil.rmtree(conf, ignore_errors=True)
    shutil.copytree("/etc/initramfs-tools", conf, symlinks=True)
    text = open(os.path.join(conf, "initramfs.conf")).read()
    text = re.sub(r"(?m)^MODULES=.*$", "MODULES=list", text)
    text = re.sub(r"(?m)^COMPRESS=.*$", "COMPRESS=lz4", text)
    open(os.path.join(conf, "initramfs.conf"), "w").write(text)
    open(os.path.join(conf, "modules"), "w").write("virtio_pci\nvirtio_blk\next4\n")
    log("making a small initramfs for the guest …")
    run("mkinitramfs", "-d", conf, "-o", path + ".tmp", version)
    os.rename(path + ".tmp", path)
    shutil.rmtree(conf)
    return path


# The root filesystem's size. 1G left 138 MB free once the voice's packages came in (libflite1's
# voices alone are 27 MB): ext4 keeps 5% for root, and the power-cut boots' journals filled the
# rest for the user runway by the 8th cut (SQLite: database or disk is full).
IMAGE_SIZE = "2G"


def image(work, make_deb, deb_key, version, module):
    """The root filesystem as an ext4 image, rebuilt when its recipe or inputs change; the .deb
    is made (make_deb) only then."""
    hooks = [
        '--customize-hook=copy-in DEB /tmp',
        '--customize-hook=chroot "$1" sh -c "dpkg -i /tmp/*.deb && rm /tmp/*.deb"',
        f'--customize-hook=mkdir -p "$1/lib/modules" && cp -a /lib/modules/{version} "$1/lib/modules/"',
        f'--customize-hook=mkdir -p "$1/lib/modules/{version}/extra"',
        f"--customize-hook=upload {module} /lib/modules/{version}/extra/gpio-sim-board.ko",
        f'--customize-hook=chroot "$1" depmod {version}',
        '--customize-hook=echo "127.0.0.1 localhost board" > "$1/etc/hosts"; echo board > "$1/etc/hostname"',
        '--customize-hook=echo "root:root" | chroot "$1" chpasswd',
        f"--customize-hook=upload {HERE}/guest/gpsd.default /etc/default/gpsd",
        '--customize-hook=printf "/dev/vda / ext4 rw 0 1\\n" > "$1/etc/fstab"',
        f"--customize-hook=upload {HERE}/guest/runway-board-test.service /etc/systemd/system/runway-board-test.service",
        '--customize-hook=chroot "$1" systemctl enable runway-board-test.service gpsd.socket',
    ]
    # Keyed on what the .deb is built from (deb_key: the source tree and packaging, see
    # scripts/board-test.sh), not on its bytes: the .deb is reproducible, but its Swift binaries
    # are byte-identical only when built at the same path (the build id and .swift_modhash differ
    # between two clones), and this way the .deb is not even made when the image is cached.
    key = hashlib.sha256("\n".join(hooks + GUEST_PACKAGES + [deb_key, version, IMAGE_SIZE]).encode())
    inputs = [module, f"{HERE}/guest/gpsd.default", f"{HERE}/guest/runway-board-test.service"]
    for f in inputs:
        key.update(open(f, "rb").read())
    digest = key.hexdigest()[:16]
    path = os.path.join(work, f"rootfs-{digest}.img")
    if os.path.exists(path):
        log(f"root filesystem cached (nothing it is built from changed): {path}")
        return path
    deb = make_deb()  # made only now: the image needs it
    hooks = [h.replace("copy-in DEB", f"copy-in {deb}") for h in hooks]
    for old in os.listdir(work):
        if old.startswith("rootfs-"):
            os.remove(os.path.join(work, old))
    root = os.path.join(work, "rootfs.dir")
    shutil.rmtree(root, ignore_errors=True)
    log("building the root filesystem (mmdebstrap, minbase) …")
    run("mmdebstrap", "--variant=minbase", "--include=" + ",".join(GUEST_PACKAGES), *hooks,
        "bookworm", root, stdout=subprocess.DEVNULL)
    tmp = path + ".tmp"
    run("mkfs.ext4", "-q", "-F", "-L", "board", "-d", root, tmp, IMAGE_SIZE)
    shutil.rmtree(root)
    os.rename(tmp, path)
    return path


def epoch_time(sentence):
    """The UTC seconds of an RMC sentence."""
    f = sentence.split(",")
    t, d = f[1], f[9]
    whole = calendar.timegm((2000 + int(d[4:6]), int(d[2:4]), int(d[0:2]), int(t[0:2]), int(t[2:4]), 0))
    return whole + float(t[4:])


def shifted(nmea, seconds):
    """The scenario's NMEA `seconds` later (times, dates and checksums rewritten): each boot of
    the power-cut series flies at its own hour, so runwayd closes the last one's flight from its
    raw log (a flight interrupted within 10 minutes would continue instead)."""
    out = []
    for line in nmea:
        body = line[1:].split("*")[0]
        f = body.split(",")
        if f[0] in ("GPRMC", "GPGGA") and f[1]:
            rmc = f[0] == "GPRMC"
            day = "010100" if not rmc else f[9]
            t0 = calendar.timegm((2000 + int(day[4:6]), int(day[2:4]), int(day[0:2]),
                                  int(f[1][0:2]), int(f[1][2:4]), 0)) + float(f[1][4:]) + seconds
            whole = int(t0)
            g = time.gmtime(whole)
            f[1] = time.strftime("%H%M%S", g) + f[1][6:]
            if rmc:
                f[9] = time.strftime("%d%m%y", g)
            body = ",".join(f)
        checksum = 0
        for c in body.encode():
            checksum ^= c
        out.append(f"${body}*{checksum:02X}")
    return out


class Feed:
    """The GPS the host writes into the guest's /dev/ttyS1 once the guest asks (feed-gps):
    `rate` epochs a second, from `slow_from` on one a second (real time, for the power cut's
    moment). Every epoch's GPS time is kept with the moment its write returned (`sent`): what the
    board had been given when the power went."""

    def __init__(self, nmea, rate):
        self.epochs, epoch = [], []
        for line in nmea:
            if line.startswith("$GPRMC") and epoch:
                self.epochs.append(epoch)
                epoch = []
            epoch.append(line)
        self.epochs.append(epoch)
        self.times = [epoch_time(e[0]) for e in self.epochs]
        self.rate = rate
        self.sent = []
        self.slow_from = None
        self.slowed_at = None

    def delivered(self, before):
        """The GPS time of the last epoch written whole before `before` (monotonic)."""
        times = [t for (at, t) in list(self.sent) if at <= before]
        return times[-1] if times else None

    def run(self, sock_path, done, go):
        while not os.path.exists(go):
            time.sleep(0.05)
        s = socket.socket(socket.AF_UNIX)
        for _ in range(50):
            try:
                s.connect(sock_path)
                break
            except OSError:
                time.sleep(0.1)

        def drain():  # the tty echoes what it is sent: read it, or it fills and gpsd blocks
            try:
                while s.recv(65536):
                    pass
            except OSError:
                pass
        threading.Thread(target=drain, daemon=True).start()
        try:
            next_at = time.monotonic()
            for i, epoch in enumerate(self.epochs):
                slow = self.slow_from is not None and i >= self.slow_from
                if slow and self.slowed_at is None:
                    self.slowed_at = time.monotonic()
                s.sendall(("".join(l + "\r\n" for l in epoch)).encode())
                self.sent.append((time.monotonic(), self.times[i]))
                next_at += 1 if slow else 1 / self.rate
                time.sleep(max(0, next_at - time.monotonic()))
        except OSError as e:  # the board went away (the power cut)
            log(f"GPS: {e}")
            return
        open(done, "w").close()
        log(f"GPS: {len(self.epochs)} epochs written")


def qmp(path, *commands):
    """Sends QMP commands to qemu; returns the replies."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    f = s.makefile("rw")
    f.readline()  # the greeting
    replies = []
    for command in ({"execute": "qmp_capabilities"},) + commands:
        f.write(json.dumps(command) + "\n")
        f.flush()
        while True:
            reply = json.loads(f.readline())
            if "return" in reply or "error" in reply:
                replies.append(reply)
                break
    s.close()
    return replies[1:]


def usb_requests(out, qmp_path, images):
    """Plugs and pulls USB sticks as the guest asks: it writes usb-request-N holding
    "plug NAME [slow]" or "unplug NAME"; the host answers usb-done-N. A slow stick writes 20 kB/s
    (a pull mid-export); a pulled stick's image is copied as it was (NAME-pulled-1.img, -2, …)."""
    n = 1
    pulls = {}
    while True:
        request = os.path.join(out, f"usb-request-{n}")
        while not os.path.exists(request):
            time.sleep(0.1)
        time.sleep(0.1)
        words = open(request).read().split()
        if words[0] == "plug":
            name = words[1]
            node = {"driver": "raw", "node-name": f"{name}-{n}",
                    "file": {"driver": "file", "filename": images[name]}}
            commands = []
            if "slow" in words:  # a throttle filter over the image: 20 kB/s of writes
                commands.append({"execute": "object-add", "arguments": {
                    "qom-type": "throttle-group", "id": f"slow-{n}", "limits": {"bps-write": 20000}}})
                node = {"driver": "throttle", "node-name": f"{name}-{n}-slow", "throttle-group": f"slow-{n}",
                        "file": node}
            commands += [
                {"execute": "blockdev-add", "arguments": node},
                {"execute": "device_add", "arguments": {
                    "driver": "usb-storage", "id": name, "drive": node["node-name"], "bus": "xhci.0"}}]
            replies = qmp(qmp_path, *commands)
        else:
            name = words[1]
            replies = qmp(qmp_path, {"execute": "device_del", "arguments": {"id": name}})
            time.sleep(1)
            pulls[name] = pulls.get(name, 0) + 1
            shutil.copy(images[name], images[name].replace(".img", f"-pulled-{pulls[name]}.img"))
        log(f"USB: {' '.join(words)}: {replies}")
        open(os.path.join(out, f"usb-done-{n}"), "w").close()
        n += 1


def main():
    began = time.monotonic()
    p = argparse.ArgumentParser()
    p.add_argument("--deb-dir", required=True, help="where scripts/make-deb.sh makes the .deb")
    p.add_argument("--deb-key", required=True, help="a hash of what the .deb is built from")
    p.add_argument("--runway", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--rate", type=float, default=20)
    p.add_argument("--cuts", type=int, default=int(os.environ.get("BOARD_CUTS", "20")))
    p.add_argument("--seed", type=int, default=int(os.environ.get("BOARD_SEED", str(int(time.time())))))
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    version = kernel()

    def make_deb():
        log("making the .deb …")
        r = subprocess.run([os.path.join(ROOT, "scripts", "make-deb.sh"), a.deb_dir], check=True,
                           capture_output=True, text=True)
        return r.stdout.strip().splitlines()[-1]
    base = image(a.work, make_deb, a.deb_key, version, gpio_sim(a.work, version))
    nmea = subprocess.run([a.runway, "simulate", "--scenario", "flat5k"], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    images = {}
    for name in ("stick", "slowstick"):
        images[name] = os.path.join(a.work, f"{name}.img")
        for old in [images[name]] + [images[name].replace(".img", f"-pulled-{k}.img") for k in (1, 2)]:
            if os.path.exists(old):
                os.remove(old)
        run("mkfs.vfat", "-C", "-n", "RUNWAY", images[name], str(32 * 1024), stdout=subprocess.DEVNULL)

    # Boot 1: every check of a running board.
    out = fresh(os.path.join(a.work, "run"))
    write_test_sound(os.path.join(out, "alsa-test.wav"))
    disk = overlay(a.work, base, "board.qcow2")
    boot(a, version, disk, out, Feed(nmea, a.rate), usb=images)
    results = read_results(out)
    results += host_checks(out)
    results += alsa_checks(out)
    results += voice_checks(a.runway, out)
    results += buzzer_checks(a.runway, out)
    results += stick_checks(a.work, images["stick"], "usb-stick")
    # The slow stick as it was when pulled mid-export, then after it was plugged in again.
    results += stick_checks(a.work, images["slowstick"].replace(".img", "-pulled-1.img"), "usb-pulled", partial=True)
    results += stick_checks(a.work, images["slowstick"], "usb-replugged")
    results += folder_checks(os.path.join(out, "gadget"), "gadget")
    results += bluetooth_checks(out, a.work)

    # Boot 2: the runner at the buttons (issue 27): the run chosen, a bump on PAUSE reminded.
    # The GPS in real time (one epoch a second): the documented seconds are the board's.
    out = fresh(os.path.join(a.work, "runner"))
    boot(a, version, overlay(a.work, base, "runner.qcow2"), out, Feed(nmea, 1), phase="runner")
    results += read_results(out)
    results += runner_checks(a.runway, out)

    # The power cuts: boots of one disk, each cut by SIGKILL of qemu at a random moment of a
    # flight, the next boot recovering it; the last boot only recovers.
    results += power_cuts(a, version, base, nmea)

    passed = sum(1 for r in results if r.startswith("PASS"))
    failed = sum(1 for r in results if r.startswith("FAIL"))
    expected_failures = sum(1 for r in results if r.startswith("XFAIL"))
    for r in results:
        print(r)
    if expected_failures:
        print(f"board: {expected_failures} expected to fail (XFAIL: a firmware bug the check found, said above)")
    took = time.monotonic() - began
    print(f"board: total time {int(took // 60)} m {int(took % 60)} s")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not results else 0)


def power_cuts(a, version, base, nmea):
    """`a.cuts` power cuts on one disk. For each: the host, once the guest says its flight is in
    the air, writes a random 50–80 more epochs at the fast rate, then one a second, and after a
    random 2–10 s kills qemu; what the board had flown then is the GPS time of the last epoch
    written whole before the kill, less the flight's start. The next boot recovers the flight;
    the seconds lost are what was flown at the kill less what the logbook holds (elapsed)."""
    rng = random.Random(a.seed)
    log(f"power cuts: {a.cuts}, seed {a.seed} (BOARD_SEED={a.seed} repeats the moments)")
    disk = overlay(a.work, base, "cut.qcow2")
    results, rows, last = [], [], None
    for k in range(a.cuts + 1):
        out = fresh(os.path.join(a.work, f"cut-{k}"))
        feed = Feed(shifted(nmea, 3600 * (k + 1)), 10)
        cut = k < a.cuts
        plan = (rng.randint(50, 80), rng.uniform(2, 10)) if cut else None
        record = boot(a, version, disk, out, feed, phase="cut" if cut else "after-cut", boot_number=k, cut=plan)
        guest = read_results(out)
        failed = [r for r in guest if r.startswith("FAIL")]
        results += failed or [f"PASS power-cut-boot-{k}: " + "; ".join(r.split(": ", 1)[0][5:] for r in guest)]
        if last is not None:
            rows.append(judge_cut(k, last, out, guest))
        last = record
    corrupt = sum(1 for r in rows if r["corrupt"])
    losses = [r["lost"] for r in rows if r["lost"] is not None]
    worst = max(losses) if losses else None
    table = ["power cuts (s of flight time):",
             f"  {'cut':>3}  {'flown at the kill':>17}  {'recovered':>9}  {'seconds lost':>12}  state"]
    for r in rows:
        f = lambda v: "-" if v is None else f"{round(v, 1) + 0.0:.1f}"
        table.append(f"  {r['cut']:>3}  {f(r['flown']):>17}  {f(r['recovered']):>9}  {f(r['lost']):>12}  {r['state']}")
    for line in table:
        print(line)
    summary = f"power cuts: {len(rows)} cuts, {corrupt} corrupt, worst loss {'-' if worst is None else f'{round(worst, 1) + 0.0:.1f}'} s"
    print(summary)
    ok = len(rows) >= a.cuts and len(losses) == len(rows) and corrupt == 0 and worst is not None and worst <= 5
    results.append(f"{'PASS' if ok else 'FAIL'} power-cuts: {summary} (asserted: {a.cuts} cuts, 0 corrupt, ≤ 5 s lost each)")
    fsck = e2fsck(a.work, disk)
    results.append(fsck)
    return results


def judge_cut(k, record, out, guest):
    """One cut: the flight the previous boot flew (record) against what this boot recovered."""
    row = {"cut": k, "flown": None, "recovered": None, "lost": None, "corrupt": False, "state": ""}
    if record is None or record.get("flight_id") is None:
        row["state"] = "no flight was in the air"
        row["corrupt"] = True
        return row
    bad = [r for r in guest if r.startswith("FAIL") and r.split(":")[0][5:] in
           ("ext4-journal-replayed", "logbook-readable", "flight-open-after-cut", "recovered-flight-reads")]
    try:
        flight = json.load(open(os.path.join(out, "recovered.json")))
    except (OSError, ValueError) as e:
        row.update(corrupt=True, state=f"flight {record['flight_id']} not read after the cut: {e}; {'; '.join(bad)}")
        return row
    start = parse_time(flight.get("start_time"))
    elapsed = flight.get("elapsed_s")
    gaps = flight.get("raw_log_gaps") or []
    status = flight.get("logbook_status")
    if flight.get("id") != record["flight_id"] or start is None or elapsed is None:
        row.update(corrupt=True, state=f"flight {flight.get('id')} (cut flight {record['flight_id']}) without start or elapsed")
        return row
    delivered = record.get("delivered")
    row["recovered"] = elapsed
    if delivered is not None:
        row["flown"] = delivered - start
        row["lost"] = row["flown"] - elapsed
    row["corrupt"] = bool(bad) or bool(gaps) or status not in ("recovered", "finished")
    row["state"] = f"flight {flight['id']} {status}, {flight.get('distance_m') or 0:.0f} m" + (
        f", raw-log gaps {gaps}" if gaps else "") + (f"; {'; '.join(bad)}" if bad else "")
    return row


def parse_time(text):
    m = re.match(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(\.\d+)?Z$", text or "")
    if not m:
        return None
    y, mo, d, h, mi, sec = (int(x) for x in m.groups()[:6])
    return calendar.timegm((y, mo, d, h, mi, sec)) + float(m.group(7) or 0)


def e2fsck(work, disk):
    """The disk after every cut, checked by e2fsck on the host (read-only)."""
    raw = os.path.join(work, "cut-final.raw")
    run("qemu-img", "convert", "-O", "raw", disk, raw)
    r = subprocess.run(["e2fsck", "-f", "-n", raw], capture_output=True, text=True)
    os.remove(raw)
    tail = (r.stdout + r.stderr).strip().splitlines()[-1:] or [""]
    return f"{'PASS' if r.returncode == 0 else 'FAIL'} ext4-clean-after-cuts: e2fsck -fn exit {r.returncode}: {tail[0]}"


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def overlay(work, base, name):
    """A throwaway copy-on-write disk over the cached image."""
    path = os.path.join(work, name)
    if os.path.exists(path):
        os.remove(path)
    run("qemu-img", "create", "-q", "-f", "qcow2", "-b", os.path.abspath(base), "-F", "raw", path)
    return path


def read_results(out):
    path = os.path.join(out, "results.txt")
    if not os.path.exists(path):
        return [f"FAIL board: {os.path.basename(out)} boot reported nothing; see {out}/console.log"]
    return [l.rstrip("\n") for l in open(path) if l.strip()]


# A boot under TCG has hung before its kernel ran (its console stopped at SeaBIOS's "Booting from
# ROM...", nothing read from the disk; seen once in a board test's 23 boots). Its unit normally
# begins within ~1 minute of power-on: a board silent for 5 minutes is powered again, as a runner
# would, at most twice.
BOOT_DEADLINE = 300
BOOT_ATTEMPTS = 3


def boot(a, version, disk, out, feed, phase=None, boot_number=None, usb=None, cut=None):
    """Boots the board on `disk` with the shares, the GPS (`feed`) and QMP; returns when it powers
    off. With `cut` = (epochs, seconds): once the guest says it is flying (out/flying), `epochs`
    more at the fast rate, then one a second, and `seconds` later SIGKILL of qemu: the power cut.
    Returns what the host knows of the flight at the kill (flight_id, delivered)."""
    gps = os.path.join(a.work, "gps.sock")
    qmp_path = os.path.join(a.work, "qmp.sock")
    # Both threads wait for the guest to ask (feed-gps, usb-request-N) before they connect.
    threading.Thread(
        target=feed.run, args=(gps, os.path.join(out, "gps-done"), os.path.join(out, "feed-gps")),
        daemon=True).start()
    if usb:
        threading.Thread(target=usb_requests, args=(out, qmp_path, usb), daemon=True).start()
    console = os.path.join(out, "console.log")
    append = "root=/dev/vda rw console=ttyS0 quiet systemd.show_status=0"
    if phase:
        append += f" runway.phase={phase} runway.boot={boot_number or 0}"
    qemu = [
        "qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-smp", "2", "-m", "1024", "-nographic",
        "-kernel", f"/boot/vmlinuz-{version}", "-initrd", initrd(a.work, version),
        "-append", append,
        "-drive", f"file={disk},if=virtio,format=qcow2,cache=writeback",
        "-virtfs", f"local,path={HERE},mount_tag=code,security_model=none,readonly=on",
        "-virtfs", f"local,path={out},mount_tag=out,security_model=none",
        "-chardev", f"socket,id=gps,path={gps},server=on,wait=off",
        "-serial", f"file:{console}", "-serial", "chardev:gps",
        "-device", "qemu-xhci,id=xhci", "-qmp", f"unix:{qmp_path},server=on,wait=off",
        "-no-reboot", "-nic", "none",
    ]
    what = f" for {phase} {boot_number}" if phase else ""
    alive = os.path.join(out, "checks.log")  # the guest's test unit began: its kernel booted
    for attempt in range(1, BOOT_ATTEMPTS + 1):
        for path in (gps, qmp_path):  # a previous boot's sockets
            if os.path.exists(path):
                os.remove(path)
        started = time.monotonic()
        process = subprocess.Popen(qemu, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        hung = False
        while process.poll() is None and not os.path.exists(alive):
            if time.monotonic() - started > BOOT_DEADLINE and attempt < BOOT_ATTEMPTS:
                process.kill()
                process.wait()
                hung = True
                break
            time.sleep(0.1)
        if not hung:
            break
        kept = os.path.join(out, f"console-silent-{attempt}.log")
        tail = []
        if os.path.exists(console):
            os.replace(console, kept)
            tail = open(kept, errors="replace").read().strip().splitlines()[-1:]
        log(f"the board showed no sign of life within {BOOT_DEADLINE // 60} minutes{what} (its console, kept "
            f"in {kept}, last said {tail[0] if tail else 'nothing'!r}): powering it again")
    flying = os.path.join(out, "flying")
    record = {"flight_id": None, "delivered": None}
    kill_at = None
    while process.poll() is None:
        now = time.monotonic()
        if cut and feed.slow_from is None and os.path.exists(flying):
            text = open(flying).read().strip()
            record["flight_id"] = int(text) if text.isdigit() else None
            feed.slow_from = len(feed.sent) + cut[0]
        if cut and kill_at is None and feed.slowed_at is not None:
            kill_at = feed.slowed_at + cut[1]
        if kill_at is not None and now >= kill_at - 0.06:
            time.sleep(max(0, kill_at - time.monotonic()))
            killed = time.monotonic()
            process.kill()  # SIGKILL: the power cut
            process.wait()
            record["delivered"] = feed.delivered(killed)
            log(f"power cut{what}: after {killed - started:.0f} s, flight {record['flight_id']}, "
                f"{cut[1]:.1f} s into real-time GPS")
            return record
        if now - started > 900:
            process.kill()
            log(f"the board did not power off within 15 minutes{what}")
            return record
        time.sleep(0.02)
    log(f"the board ran {time.monotonic() - started:.0f} s{what}")
    return record


def buzzer_trace(out):
    """The guest's trace of the buzzer line (buzzer-trace.txt, the kernel's mono clock): the
    markers the checks wrote (time, text), the line's edges (time, level) and what the stall probe
    (guest/stall_probe.py) saw: `Stalls`."""
    with open(os.path.join(out, "buzzer-gpio")) as f:
        gpio = int(f.read())
    with open(os.path.join(out, "buzzer-trace.txt")) as f:
        lines = f.read().splitlines()
    marks, edges, level, stalls = [], [], 0, Stalls()
    for line in lines:
        m = re.search(r"\s(\d+\.\d+): (\w+): (.*)$", line)
        if not m:
            continue
        t, event, text = float(m.group(1)), m.group(2), m.group(3)
        stalls.ended = t
        if event == "tracing_mark_write" and "runway-mark " in text:
            marks.append((t, text.split("runway-mark ", 1)[1].strip()))
        elif event == "tracing_mark_write" and "runway-stall " in text:
            due, woke = text.split("runway-stall ", 1)[1].split()[:2]
            stalls.spans.append((float(due), float(woke)))
        elif event == "tracing_mark_write" and "runway-probe start " in text:
            stalls.started = (t, text.split("runway-probe start ", 1)[1].split(None, 1)[-1].strip())
        elif event == "gpio_value":
            g, kind, value = text.split()
            if int(g) == gpio and kind == "set" and int(value) != level:
                level = int(value)
                edges.append((t, level))
    return marks, edges, stalls


class Stalls:
    """The emulated machine's stalls as the guest's probe measured them: each wake-up of a
    SCHED_FIFO thread more than 5 ms late, as (due, woke) on the trace's clock. A buzzer step is
    off by more than 20 ms either because the firmware timed it wrong or because the whole machine
    stopped (TCG: a vCPU the host did not run); only the second is excused, and only by a stall
    the probe saw at that moment, long enough to explain the error."""
    PERIOD = 0.010  # stall_probe.py's: a stall of length L shows as a wake-up at least L − 10 ms late

    def __init__(self):
        self.spans, self.started, self.ended = [], None, 0.0

    def explains(self, start, end, error):
        """The longest stall within [start, end] (s), if it could make a step `error` s off
        beyond the 20 ms allowed."""
        near = [woke - due for due, woke in self.spans if woke >= start and due <= end]
        longest = max(near, default=0.0)
        return longest if near and longest + self.PERIOD + 0.020 >= abs(error) else None

    def summary(self):
        if self.started is None:
            return "the stall probe never started (guest/stall_probe.py): no step can be excused"
        worst = max((w - d for d, w in self.spans), default=0.0)
        return (f"the stall probe ({self.started[1]}) ran {self.ended - self.started[0]:.0f} s: "
                f"{len(self.spans)} wake-ups over 5 ms late, the latest {worst * 1000:.0f} ms")


def buzz_steps(runway):
    """expected(NAME): the pattern's steps in seconds (on, off, …, on) as the firmware itself
    plays it (runway buzz NAME --simulated)."""
    cache = {}

    def expected(name):
        if name not in cache:
            r = subprocess.run([runway, "buzz", name, "--simulated"], capture_output=True, text=True, check=True)
            times = [int(l.split()[0]) / 1000 for l in r.stdout.splitlines() if l.strip()]
            cache[name] = [b - a for a, b in zip(times, times[1:])]  # on, off, on, …, on
        return cache[name]
    return expected


def find_pattern(edges, steps, since, until, stalls=None):
    """The first run of edges from a rising edge in [since, until] that plays `steps`
    (worst error, start, durations, excused), or the closest try. A step more than 20 ms off is
    excused (left out of the worst error, listed in `excused` as (error, stall)) only when
    `stalls` saw the machine stop within it long enough to explain it."""
    best = None
    for i, (t, v) in enumerate(edges):
        if v != 1 or t < since or t > until:
            continue
        seg = edges[i:i + len(steps) + 1]
        if len(seg) != len(steps) + 1:
            continue
        got = [b[0] - a[0] for a, b in zip(seg, seg[1:])]
        err, excused = 0.0, []
        for k, (g, e) in enumerate(zip(got, steps)):
            off = g - e
            stall = stalls.explains(seg[k][0] - abs(off) - 0.01, seg[k + 1][0] + 0.01, off) \
                if stalls is not None and abs(off) > 0.020 else None
            if stall is None:
                err = max(err, abs(off))
            else:
                excused.append((off, stall))
        if best is None or err < best[0]:
            best = (err, t, got, excused)
        if err <= 0.020:
            return best
    return best


def excused_note(found):
    """What a found pattern's excused steps were (empty when none)."""
    if not found or not found[3]:
        return ""
    return "; " + ", ".join(f"a step {off * 1000:+.0f} ms off while the machine stalled {stall * 1000:.0f} ms "
                            f"(the stall probe)" for off, stall in found[3])


def mark_at(marks, label):
    """The time of the first marker `label` (or `label` and more words), or None."""
    return next((t for t, m in marks if m == label or m.startswith(label + " ")), None)


def ms(steps):
    return [round(x * 1000) for x in steps]


def runner_checks(runway, out):
    """The runner's boot (guest/runner.sh, issue 27), judged on the host from the buzzer line's
    trace and the flight: each press of the choosing gesture played the chosen run's place (N
    pips and a long tone, alone); the bump on PAUSE was followed by STILL PAUSED, 15–20 s
    later (README: after 15 s of running; "a slip said within 20 s"), START played RESUME; the
    flight names the run, has the manual pause with its end as long as the presses were apart,
    and the still-paused decision 15–20 s into it. Each step within 20 ms."""
    results = []
    try:
        marks, edges, stalls = buzzer_trace(out)
    except (OSError, ValueError) as e:
        return [f"FAIL runner-buzzer-trace: {e}"]
    results.append(f"{'PASS' if stalls.started else 'FAIL'} runner-buzzer-stall-probe: {stalls.summary()}")
    expected = buzz_steps(runway)

    def alone(start, steps):
        """No other edge within 0.35 s before the pattern or after it (a place is its count)."""
        end = start + sum(steps)
        return not any(start - 0.35 < t < start - 0.001 or end + 0.03 < t < end + 0.35 for t, _ in edges)

    def played(slug, what, steps, since, until, delay=None):
        found = find_pattern(edges, steps, since, until, stalls)
        ok = found is not None and found[0] <= 0.020 and (delay is None or delay[0] <= found[1] - since <= delay[1])
        detail = ("no edges" if found is None else
                  f"played {found[1] - since:.2f} s after the press, each step within {found[0] * 1000:.1f} ms"
                  f"{excused_note(found)}" if found[0] <= 0.020 else f"closest off by {found[0] * 1000:.0f} ms: {ms(found[2])}")
        if delay is not None:
            detail += f" (asserted {delay[0]:.0f}–{delay[1]:.0f} s)"
        results.append(f"{'PASS' if ok else 'FAIL'} runner-buzzer-{slug}: {what} ({ms(steps)} ms) {detail}")
        return found if ok else None
    # The choice: runway buzz plays the second run's pattern (100 · 300 twice, then 600); the Nth
    # is N × (100 · 300), then 600. The runs as the guest stepped them: tempo, long easy, free run
    # (round again), tempo, long easy.
    second = expected("run-chosen")
    if len(second) != 5:
        results.append(f"FAIL runner-buzzer-run-chosen: runway buzz run-chosen plays {ms(second)}, not 2 pips and a tone")
    else:
        bad, fine, notes = [], [], []
        for k, place in enumerate((2, 3, 1, 2, 3), 1):
            since = mark_at(marks, f"press choose-{k}")
            steps = second[:2] * place + second[-1:]
            until = mark_at(marks, f"press choose-{k + 1}") or (since or 0) + 4
            found = find_pattern(edges, steps, since, until, stalls) if since is not None else None
            if found is None or found[0] > 0.020 or not alone(found[1], steps):
                bad.append(f"press {k}: {place} pips wanted, " + (
                    "no press or no edges" if found is None else f"closest off by {found[0] * 1000:.0f} ms: "
                    f"{ms(found[2])}" if found[0] > 0.020 else "other edges within 0.35 s of it"))
            else:
                fine.append((place, found[1] - since, found[0]))
                notes.append(excused_note(found))
        results.append(f"{'FAIL' if bad else 'PASS'} runner-buzzer-run-chosen: " + ("; ".join(bad) if bad else
                       f"PAUSE pressed briefly five times in preflight: {', '.join(str(p) for p, _, _ in fine)} pips and "
                       f"a long tone, each alone, {min(d for _, d, _ in fine):.2f}–{max(d for _, d, _ in fine):.2f} s after "
                       f"its press, each step within {max(e for _, _, e in fine) * 1000:.1f} ms{''.join(notes)}"))
    # The bump, the reminder (once, while running paused), START's resume.
    slip, resumed = mark_at(marks, "press slip"), mark_at(marks, "press start-resume")
    if slip is None or resumed is None:
        return results + [f"FAIL runner-buzzer-still-paused: no 'press slip' or 'press start-resume' in the trace"]
    # (PAUSE's own pattern is boot 1's runwayd-buzzer-pause; that the reminder came once is the
    # journal's count in the guest and the flight's decisions below.)
    played("still-paused", "STILL PAUSED while running paused", expected("still-paused"), slip, resumed,
           delay=(14, 20))
    played("start-resume", "START pressed while paused: RESUME", expected("resume"), resumed, resumed + 4)
    # The flight as the logbook keeps it.
    try:
        flight = json.load(open(os.path.join(out, "runner-flight.json")))
    except (OSError, ValueError) as e:
        return results + [f"FAIL runner-flight: {e}"]
    run = flight.get("run")
    results.append(f"{'PASS' if run == 'long easy' else 'FAIL'} runner-flight-run: the flight's run is {run!r} "
                   f"(chosen at the buttons: 'long easy'); {flight.get('distance_m') or 0:.0f} m, {flight.get('status')}")
    pauses = flight.get("pauses") or []
    manual = [p for p in pauses if p.get("reason") == "manual"]
    pause = manual[0] if len(manual) == 1 else None
    span = None
    if pause and pause.get("end_elapsed_s") is not None and pause.get("start_elapsed_s") is not None:
        span = pause["end_elapsed_s"] - pause["start_elapsed_s"]
    ok = span is not None and abs(span - (resumed - slip)) <= 2
    results.append(f"{'PASS' if ok else 'FAIL'} runner-flight-manual-pause: pauses {pauses}: " + (
        f"one manual, {span:.1f} s from its start to its end, the presses on PAUSE and START {resumed - slip:.1f} s apart"
        if span is not None else "not one manual pause with its start and end"))
    decisions = flight.get("decisions") or []
    still = [d for d in decisions if d.get("kind") == "still-paused"]
    after = still[0]["elapsed_s"] - pause["start_elapsed_s"] if pause and len(still) == 1 and still[0].get(
        "elapsed_s") is not None and pause.get("start_elapsed_s") is not None else None
    ok = after is not None and 14.9 <= after <= 20
    results.append(f"{'PASS' if ok else 'FAIL'} runner-flight-still-paused-decision: decisions {decisions}: " + (
        f"STILL PAUSED decided {after:.1f} s into the manual pause (asserted 15–20 s)" if after is not None else
        "not one still-paused decision in a manual pause"))
    return results


def buzzer_checks(runway, out):
    """The buzzer line's edges as the kernel timed them (the gpio_value trace event, mono clock),
    against the patterns the firmware itself plays (runway buzz NAME --simulated, and END's hold
    beep from Buzzer.swift): every `runway buzz` pattern, the checklist's, and runwayd's own
    callouts in flight (PAUSE, RESUME, END held: the hold beep then TOUCHDOWN; no hold beep for
    END held 1.8 s). Each step within 20 ms."""
    try:
        marks, edges, stalls = buzzer_trace(out)
    except (OSError, ValueError) as e:
        return [f"FAIL buzzer-trace: {e}"]
    expected = buzz_steps(runway)

    def find(steps, since, until):
        return find_pattern(edges, steps, since, until, stalls)

    def mark_time(label):
        return mark_at(marks, label)

    results = [f"{'PASS' if stalls.started else 'FAIL'} buzzer-stall-probe: {stalls.summary()}"]
    names = [m[len("buzz "):] for _, m in marks if m.startswith("buzz ") and m != "buzz end"]
    worst, bad, notes = 0.0, [], []
    for n, name in enumerate(names):
        since = mark_time(f"buzz {name}")
        until = mark_time(f"buzz {names[n + 1]}") if n + 1 < len(names) else mark_time("buzz end")
        found = find(expected(name), since, until or since + 10)
        if found is None or found[0] > 0.020:
            bad.append(f"{name}: " + ("no edges" if found is None else
                                      f"off by {found[0] * 1000:.0f} ms: {ms(found[2])} for {ms(expected(name))}"))
        else:
            worst = max(worst, found[0])
            note = excused_note(found)
            notes.append(f"; {name}{note[1:]}" if note else "")
    results.append(f"{'FAIL' if bad or len(names) < 12 else 'PASS'} buzzer-patterns: " + (
        "; ".join(bad) if bad else f"{len(names)} callouts' patterns (runway buzz) on line 23 as the kernel "
        f"timed them, each step within {worst * 1000:.1f} ms of the pattern (≤ 20 ms){''.join(notes)}"))
    # The checklist's BUZZER: every pattern played while it waited for the answer.
    since, until = mark_time("checklist buzzer"), mark_time("checklist answer")
    if since is None or until is None or not names:
        results.append("FAIL checklist-buzzer-line: the checklist never asked whether the buzzer was heard")
    else:
        want = sum(len(expected(n)) + 1 for n in names)
        got = sum(1 for t, _ in edges if since <= t <= until)
        results.append(f"{'PASS' if got == want else 'FAIL'} checklist-buzzer-line: {got} edges on line 23 "
                       f"while the checklist played before asking (its {len(names)} patterns make {want})")
    # runwayd's own callouts.
    hold = re.search(r"holdConfirmed = BuzzerPattern\(\[([0-9, ]+)\]\)",
                     open(os.path.join(ROOT, "Sources", "RunWayHardware", "Buzzer.swift")).read())
    hold_steps = [int(x) / 1000 for x in hold.group(1).split(",")] if hold else [0.3]
    for slug, label, name, steps, window in (
            ("pause", "press pause", "PAUSE", expected("pause"), 6),
            ("resume", "press resume", "RESUME", expected("resume"), 6)):
        since = mark_time(label)
        if since is None:
            results.append(f"FAIL runwayd-buzzer-{slug}: no '{label}' in the trace")
            continue
        found = find(steps, since, since + window)
        ok = found is not None and found[0] <= 0.020
        detail = (f"played {found[1] - since:.2f} s after the press, each step within {found[0] * 1000:.1f} ms"
                  f"{excused_note(found)}" if ok else ("no edges" if found is None else
                              f"closest off by {found[0] * 1000:.0f} ms: {ms(found[2])}"))
        results.append(f"{'PASS' if ok else 'FAIL'} runwayd-buzzer-{slug}: {name} ({ms(steps)} ms) {detail}")
    # END held 2.2 s: the hold beep when the hold reaches 2 s (its rising edge 1.9–2.6 s after the
    # press began), then TOUCHDOWN once the flight has landed, each as its own pattern.
    since = mark_time("press end-land")
    touchdown = expected("touchdown")
    if since is None:
        results.append("FAIL runwayd-buzzer-end-hold: no 'press end-land' in the trace")
    else:
        hold_found = find(hold_steps, since + 1.9, since + 2.6)
        # TOUCHDOWN's pattern (1.45 s) follows its words and the last split's (voice "both").
        landed = find(touchdown, since + 1.9, since + 25)
        # Each heard as itself: PatternPlayer leaves 400 ms of silence between queued patterns
        # (before, the hold beep and TOUCHDOWN's first beep ran together into one tone).
        for slug, name, steps, found in (("end-hold", "END held 2.2 s: the hold beep", hold_steps, hold_found),
                                         ("touchdown", "TOUCHDOWN", touchdown, landed)):
            ok = found is not None and found[0] <= 0.020
            if ok:
                results.append(f"PASS runwayd-buzzer-{slug}: {name} ({ms(steps)} ms) played {found[1] - since:.2f} s "
                               f"after the press, each step within {found[0] * 1000:.1f} ms{excused_note(found)}")
            else:
                results.append(f"FAIL runwayd-buzzer-{slug}: {name} ({ms(steps)} ms) " + (
                    "no edges" if found is None else f"closest off by {found[0] * 1000:.0f} ms: {ms(found[2])}"))
    since = mark_time("press end-1.8")
    if since is None:
        results.append("FAIL runwayd-buzzer-no-hold-beep: no 'press end-1.8' in the trace")
    else:
        # A brief END in flight is the lap (issue 27): its pattern opens with a 300 ms tone too,
        # played at the release; a tone that opens a whole LAP pattern is the lap, not the beep.
        lap = expected("lap")
        beeps, laps, t = [], [], since
        while True:
            found = find(hold_steps, t, since + 3)
            if found is None or found[0] > 0.020:
                break
            opens_lap = find(lap, found[1], found[1])
            (laps if opens_lap and opens_lap[0] <= 0.020 else beeps).append(found[1] - since)
            t = found[1] + 0.001
        ok = not beeps
        results.append(f"{'PASS' if ok else 'FAIL'} runwayd-buzzer-no-hold-beep: END held 1.8 s: " + (
            "no hold beep" if ok else f"the hold beep played {beeps[0]:.2f} s after the press") + (
            f" (the lap's pattern, {ms(lap)} ms, {', '.join(f'{x:.2f}' for x in laps)} s after it)" if laps else ""))
    return results


RATE = 22050  # the voice's format on the loopback: 22050 Hz, mono, S16_LE


def write_test_sound(path):
    """The sound aplay plays on the loopback: 0.3 s at 440 Hz, 0.2 s of silence, 0.5 s at 880 Hz
    (cosines: the first sample is not zero, so where the sound starts in a capture is exact)."""
    samples = array.array("h")
    for f, seconds in ((440, 0.3), (0, 0.2), (880, 0.5)):
        n = int(RATE * seconds)
        samples.extend(int(12000 * math.cos(2 * math.pi * f * i / RATE)) if f else 0 for i in range(n))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.tobytes())


def read_wav(path):
    """(samples, rate) of a mono S16 WAV; arecord's header may give a length it never wrote."""
    with wave.open(path, "rb") as w:
        if w.getnchannels() != 1 or w.getsampwidth() != 2:
            raise ValueError(f"{w.getnchannels()} channels of {w.getsampwidth() * 8} bits")
        rate = w.getframerate()
        data = w.readframes(w.getnframes())
    samples = array.array("h")
    samples.frombytes(data[:len(data) // 2 * 2])
    return samples, rate


def dbfs(samples):
    if not samples:
        return -math.inf
    rms = math.sqrt(sum(x * x for x in samples) / len(samples))
    return 20 * math.log10(rms / 32768) if rms else -math.inf


def alsa_checks(out):
    """Each loopback capture of the guest's ALSA block against the sound that was played: the
    sound, sample for sample, after silence and followed by silence."""
    try:
        sound, _ = read_wav(os.path.join(out, "alsa-test.wav"))
    except (OSError, ValueError, EOFError, wave.Error) as e:
        return [f"FAIL alsa-test-sound: {e}"]
    results = []
    for slug, who in (("root", "aplay as root"), ("runwayd", "aplay in runwayd.service's sandbox")):
        name = f"alsa-loopback-capture-{slug}"
        try:
            got, rate = read_wav(os.path.join(out, f"alsa-capture-{slug}.wav"))
        except (OSError, ValueError, EOFError, wave.Error) as e:
            results.append(f"FAIL {name}: {e}")
            continue
        start = next((i for i, x in enumerate(got) if x), None)
        if rate != RATE or start is None:
            results.append(f"FAIL {name}: {len(got) / rate:.2f} s at {rate} Hz, " +
                           ("all silent" if start is None else "not the voice's rate"))
            continue
        piece = got[start:start + len(sound)]
        exact = piece == sound
        # After it, silence; but for what the loopback replays of the ring buffer's stale tail
        # when aplay drains mid-period (a few ms of the sound itself; the first run had 7 ms).
        tail = sum(1 for x in got[start + len(sound):] if x)
        rest_silent = tail <= rate * 0.05
        mismatch = sum(1 for x, y in zip(piece, sound) if x != y) + abs(len(sound) - len(piece))
        ok = exact and rest_silent
        results.append(f"{'PASS' if ok else 'FAIL'} {name}: {who} on plughw:Loopback,0,0, captured on "
                       f"plughw:Loopback,1,0: the sound starts {start / rate:.3f} s into the {len(got) / rate:.2f} s "
                       f"capture after silence, " + (f"sample for sample ({len(sound)} samples, {dbfs(sound):.1f} dBFS)"
                                                     if exact else f"{mismatch} of {len(sound)} samples differ") +
                       (", silence after it" if not tail else f", then {tail * 1000 / rate:.0f} ms of the ring buffer's "
                        f"stale tail (the drain ends on a period) and silence" if rest_silent else
                        f", and {tail * 1000 / rate:.0f} ms of sound after it"))
    return results


def speech_onsets(samples, rate, frame=0.01, threshold_db=-45, quiet=0.3):
    """Onsets of sound in a capture (s from its start): a 10 ms frame above -45 dBFS after at
    least `quiet` s of frames below it (the loopback is silent, digital zeros, between utterances;
    a pause inside one utterance is shorter). Also the spans of sound: (onset, end)."""
    n = int(rate * frame)
    level = 32768 * 10 ** (threshold_db / 20)
    spans, start, last_loud = [], None, None
    for k in range(len(samples) // n):
        chunk = samples[k * n:(k + 1) * n]
        loud = math.sqrt(sum(x * x for x in chunk) / n) > level
        t = k * frame
        if loud:
            if start is None or t - last_loud - frame >= quiet:
                if start is not None:
                    spans.append((start, last_loud + frame))
                start = t
            last_loud = t
    if start is not None:
        spans.append((start, last_loud + frame))
    return spans


def journal_lines(path):
    """(realtime s, message) of runwayd's journal (journalctl -o json): the source's own
    timestamp where it gave one, else journald's; and realtime less monotonic, as journald
    stamped each entry with both at once (the same all boot: the board has no NTP)."""
    lines, offsets = [], []
    for line in open(path, errors="replace"):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        message = entry.get("MESSAGE")
        if isinstance(message, list):  # journald gives non-UTF-8 messages as bytes
            message = bytes(message).decode(errors="replace")
        stamp = entry.get("_SOURCE_REALTIME_TIMESTAMP") or entry.get("__REALTIME_TIMESTAMP")
        if message and stamp:
            lines.append((int(stamp) / 1e6, message))
        if entry.get("__REALTIME_TIMESTAMP") and entry.get("__MONOTONIC_TIMESTAMP"):
            offsets.append((int(entry["__REALTIME_TIMESTAMP"]) - int(entry["__MONOTONIC_TIMESTAMP"])) / 1e6)
    offsets.sort()
    return lines, (offsets[len(offsets) // 2] if offsets else None), (offsets[-1] - offsets[0] if offsets else None)


def voice_checks(runway, out):
    """runwayd's voice in flight (the second half of the flight, after the restart: checks.sh
    voice-capture-*): every split, SINK RATE, OVERSPEED and SIGNAL LOST callout runwayd logged
    ("callout: NAME") is heard on the loopback within 1 s of the callout (speech starting after
    silence; output "both": a split's pattern, as `runway buzz NAME --simulated` plays it, and
    PatternPlayer's 0.4 s gap come before the words, a pattern longer than 0.75 s with its gap
    comes after them; the last split has no pattern), and
    every utterance it said it began ("voice: speaking …") starts after silence: none talks over
    another. Times: the journal's (CLOCK_REALTIME) against the capture's first sample, the
    moment ALSA triggered the capture (its status file, CLOCK_MONOTONIC, turned realtime)."""
    try:
        times = dict(l.split(" ", 1) for l in open(os.path.join(out, "voice-capture-times")).read().split("\n") if " " in l)
        began, ended = float(times["began"]), float(times["ended"])
        samples, rate = read_wav(os.path.join(out, "voice-capture.wav"))
        journal, offset, spread = journal_lines(os.path.join(out, "runwayd-journal.json"))
    except (OSError, ValueError, KeyError, EOFError, wave.Error) as e:
        return [f"FAIL voice-callouts-heard: {e}"]
    length = len(samples) / rate
    if rate != RATE:
        return [f"FAIL voice-callouts-heard: the capture is at {rate} Hz"]
    # The first sample's time: ALSA's trigger time (CLOCK_MONOTONIC as alsa-lib asks for it, made
    # realtime through the journal's own pairs; a realtime one is taken as it is); else the
    # bounds arecord's start and end give.
    t0, how = None, ""
    try:
        trigger = float(times.get("trigger", ""))
        if trigger > 1e9:
            t0, how = trigger, "ALSA's trigger time (realtime)"
        elif offset is not None:
            t0, how = trigger + offset, f"ALSA's trigger time (monotonic; journal offsets spread {spread * 1000:.0f} ms)"
    except ValueError:
        pass
    latest = ended - length  # arecord ended after its last sample was captured
    if t0 is None or not (began - 0.05 <= t0 <= latest + 0.05):
        t0, how = (began + latest) / 2, f"arecord's start and end, ±{(latest - began) / 2 * 1000:.0f} ms" + (
            f" (the trigger time {t0:.3f} lay outside them)" if t0 is not None else "")
    spans = speech_onsets(samples, rate)
    onsets = [t0 + s for s, _ in spans]
    window = [(t, m) for t, m in journal if t0 <= t <= t0 + length]
    callouts = [(t, m.split("callout: ", 1)[1]) for t, m in window if "callout: " in m]
    judged = [(t, name) for t, name in callouts if re.search(r"SPLIT|SINK RATE|OVERSPEED|SIGNAL LOST", name)]
    speaking = [(t, m.split("voice: speaking ", 1)[1]) for t, m in window if "voice: speaking " in m]
    leads = {}

    def lead_in(name):
        """The seconds of buzzer pattern and gap before the words, in output "both"."""
        pattern = next((p for key, p in (("LAST SPLIT", None), ("SPLIT", "split"), ("SINK RATE", "sink-rate"),
                                         ("OVERSPEED", "overspeed"), ("SIGNAL LOST", "signal-lost")) if key in name), None)
        if pattern is None:
            return 0.0
        if pattern not in leads:
            r = subprocess.run([runway, "buzz", pattern, "--simulated"], capture_output=True, text=True, check=True)
            lead = int(r.stdout.split()[-3]) / 1000 + 0.4  # the last line: "N ms  off"
            leads[pattern] = lead if lead <= 0.75 else 0.0  # VoiceQueue's maximumLeadIn
        return leads[pattern]
    # No utterance over another: each one runwayd began starts after silence, in order, an onset
    # of its own, within 0.5 s of its log line.
    results = []
    bad, used, lag, heard_at, cut = [], set(), [], {}, []
    for t, what in speaking:
        # An utterance runwayd's queue cut short at once (its opposite arrived: GPS back while
        # "GPS lost" began, at the restart) may leave no onset of its own: listed, not judged.
        if any(t <= u <= t + 1.0 and re.match(r"voice: .* not said \((superseded|interrupted)\)", m) for u, m in window):
            cut.append(what.split(":", 1)[0])
            continue
        k = next((i for i, o in enumerate(onsets) if o >= t - 0.05 and i not in used), None)
        if k is None or onsets[k] - t > 0.5 or (used and k < max(used)):
            bad.append(f"'{what}' at {t - t0:.2f} s: no onset of its own after silence")
        else:
            used.add(k)
            lag.append(onsets[k] - t)
            heard_at[t] = onsets[k]
    ok = bool(speaking) and not bad
    overlap = (f"{'PASS' if ok else 'FAIL'} voice-no-overlap: " + ("; ".join(bad) if bad else
               "nothing said while capturing" if not speaking else
               f"{len(speaking) - len(cut)} utterances runwayd began, each heard starting after silence, one at a time "
               f"(log → sound {min(lag):.2f}–{max(lag):.2f} s): {', '.join(w for _, w in speaking)}"
               + (f"; cut short by the queue at once: {', '.join(cut)}" if cut else "")))
    # Each callout: its utterance (the first "voice: speaking KIND" after it), heard within 1 s of
    # the callout; or runwayd's queue said it dropped it ("voice: NAME not said (why)").
    kinds = (("LAST SPLIT", "last-split"), ("SPLIT", "split"), ("SINK RATE", "sink-rate"),
             ("OVERSPEED", "overspeed"), ("SIGNAL LOST", "signal-lost"))
    latencies, dropped, late = [], [], []
    for t, name in judged:
        lead = lead_in(name)
        kind = next(k for key, k in kinds if key in name)
        drop = next((m for u, m in window if u >= t and m.startswith(f"voice: {name} not said")), None)
        said = next((u for u, what in speaking if u >= t - 0.05 and what.startswith(kind + ":")), None)
        if drop and (said is None or said - t > 10 or re.search(r"\((superseded|interrupted)\)", drop)):
            dropped.append(f"{name} {drop.split(' not said ', 1)[1]}")
            continue
        heard = heard_at.get(said)
        if heard is None:
            late.append(f"{name}: " + ("never said" if said is None else "said but not heard"))
        elif heard - t > 1.0:
            late.append(f"{name}: heard {heard - t:.2f} s later, {heard - t - lead:.2f} s after its {lead:.2f} s "
                       f"lead-in (runwayd began it {said - t:.2f} s after the callout)")
        else:
            latencies.append(f"{name} {heard - t:.2f} s ({heard - t - lead:.2f} s after its {lead:.2f} s lead-in)")
    ok = bool(judged) and not late
    results.append(f"{'PASS' if ok else 'FAIL'} voice-callouts-heard: " + (
        "no split, SINK RATE, OVERSPEED or SIGNAL LOST callout logged while capturing" if not judged else
        "; ".join(late + latencies)) + (f"; dropped by runwayd's queue, as it logged: {', '.join(dropped)}" if dropped else "") +
        f" (capture {length:.0f} s of {ended - t0:.0f} s it ran, its start from {how}; "
        f"{len(spans)} onsets of sound after ≥ 0.3 s of silence)")
    if ended - t0 - length > 1.0:  # an overrun drops samples: the time axis after it is off
        results[-1] = "FAIL" + results[-1][4:] + f"; {ended - t0 - length:.1f} s of samples missing (overrun?)"
    results.append(overlap)
    results.append(buzzer_and_speech(out, t0, offset, spans, speaking, heard_at))
    return results


def buzzer_and_speech(out, t0, offset, spans, speaking, heard_at):
    """The buzzer line's edges (the kernel's trace, CLOCK_MONOTONIC, made realtime through the
    journal's offset) against the speech on the loopback: no pattern over speech, and how long
    after the buzzer's last edge each utterance started (output "both": pattern, gap, words)."""
    try:
        gpio = int(open(os.path.join(out, "buzzer-gpio")).read())
        lines = open(os.path.join(out, "buzzer-trace.txt")).read().splitlines()
    except (OSError, ValueError) as e:
        return f"FAIL voice-buzzer-apart: {e}"
    if offset is None:
        return "FAIL voice-buzzer-apart: no journal offset to put the trace on the realtime clock"
    edges = []
    for line in lines:
        m = re.search(r"\s(\d+\.\d+): gpio_value: (\d+) set (\d)", line)
        if m and int(m.group(2)) == gpio:
            edges.append(float(m.group(1)) + offset)
    over, gaps = [], []
    said = {heard: what for what_t, heard in heard_at.items() for t, what in speaking if t == what_t}
    for start, end in spans:
        a, b = t0 + start, t0 + end
        inside = [e for e in edges if a + 0.02 < e < b - 0.02]
        if inside:
            what = said.get(a, "a sound runwayd did not log")
            over.append(f"'{what}' ({start:.2f}–{end:.2f} s into the capture): buzzer edges "
                        f"{', '.join(f'{e - a:+.2f}' for e in inside)} s from its start")
    for t, what in speaking:
        heard = heard_at.get(t)
        before = [e for e in edges if heard is not None and heard - 5 < e <= heard]
        if before:
            gaps.append(f"{what.split(':', 1)[0]} {heard - before[-1]:.2f} s")
    ok = not over and bool(edges)
    return (f"{'PASS' if ok else 'FAIL'} voice-buzzer-apart: " + ("; ".join(over) if over else
            f"no buzzer edge on line 23 while speech played ({len(edges)} edges traced); speech began after the "
            f"buzzer's last edge by: {', '.join(gaps) or 'no pattern before any utterance'}"))


def host_checks(out):
    """What the guest's logbook says, judged on the host."""
    results = []
    try:
        flight = json.load(open(os.path.join(out, "flight.json")))
    except (OSError, ValueError) as e:
        return [f"FAIL flight-in-logbook: {e}"]
    d = flight.get("distance_m") or 0
    # The manual pause (PAUSE, then PAUSE again) does not count what the runner covers meanwhile:
    # at the feed's 20 epochs a second, each second of wall time paused is ~60 m of flat5k.
    try:
        paused = [parse_time(json.load(open(os.path.join(out, f"{n}.json"))).get("time")) for n in ("paused", "resumed")]
        span = paused[1] - paused[0]
    except (OSError, ValueError, TypeError):
        span = 0
    uncounted = span * 5000 / 1687  # flat5k: 5 km in 1 687 s
    ok = 4800 - uncounted <= d <= 5300
    results.append(f"{'PASS' if ok else 'FAIL'} flight-distance: {d:.0f} m flown from the serial GPS (flat5k: 5.0 km, "
                   f"less ~{uncounted:.0f} m run through the {span:.0f} s of manual pause)")
    gain = flight.get("elevation_gain_m")
    src = flight.get("elevation_source")
    ok = src == "barometer" and gain is not None and 8 <= gain <= 16
    results.append(f"{'PASS' if ok else 'FAIL'} flight-altitude: gain {gain} m from the {src} (12 m climb on i2c-stub)")
    return results


def stick_checks(work, image, label, partial=False):
    """The files on a stick's image, copied out with mtools and checked like a folder."""
    folder = os.path.join(work, f"{label}-files")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    listing = subprocess.run(["mdir", "-b", "-i", image, "::/RUNWAY"], capture_output=True, text=True).stdout.split()
    leftovers = []
    for path in listing:
        name = path.rsplit("/", 1)[-1]
        if name.startswith(".runway-partial-"):
            leftovers.append(name)  # a file being written when the stick went: the next export removes it
        elif name and not name.endswith("."):
            run("mcopy", "-n", "-i", image, f"::/RUNWAY/{name}", os.path.join(folder, name))
    results = folder_checks(folder, label, partial)
    if leftovers:
        results[0] += f" (and, not under a final name, {', '.join(leftovers)})"
    return results


def folder_checks(folder, label, partial=False):
    """Every FIT, GPX, TCX file under a final name reads whole (Garmin's FIT SDK, xmllint with
    the schemas), the viewer is there; with `partial` (a stick pulled mid-export) fewer files
    are fine, a damaged one under a final name is not."""
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    exported = [n for n in names if n.endswith((".fit", ".gpx", ".tcx"))]
    if (len(exported) < 1) if partial else (len(exported) != 3 or "index.html" not in names):
        return [f"FAIL {label}-files: RUNWAY/ holds {names}"]
    results = [f"PASS {label}-files: RUNWAY/ holds {', '.join(names)}"]
    schemas = os.path.join(HERE, "..", "Fixtures", "schemas")
    bad = []
    for name in exported:
        local = os.path.join(folder, name)
        if name.endswith(".fit"):
            python = os.path.join(HERE, "..", "..", ".build", "interop-venv", "bin", "python")
            checker = os.path.join(HERE, "..", "Fixtures", "fit_check.py")
            if not os.path.exists(python):
                return results + [f"FAIL {label}-fit: no interop venv (scripts/interop-venv.sh)"]
            r = subprocess.run([python, checker, local], capture_output=True, text=True)
            try:
                seen = json.loads(r.stdout)
                if not (seen["is_fit"] and seen["integrity"] and not seen["errors"]):
                    bad.append(f"{name}: {str(seen)[:160]}")
            except (ValueError, KeyError, TypeError):
                bad.append(f"{name}: {(r.stdout + r.stderr).strip()[:160]}")
        else:
            xsd = {"gpx": "gpx_bundle.xsd", "tcx": "tcx_bundle.xsd"}[name[-3:]]
            r = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(schemas, xsd), local],
                               capture_output=True, text=True)
            if r.returncode != 0:
                bad.append(f"{name}: {r.stderr.strip()[:160]}")
    checked = f"{len(exported)} files read whole by Garmin's FIT SDK and xmllint (GPX 1.1, TCX v2)"
    results.append(f"{'FAIL' if bad else 'PASS'} {label}-valid: {'; '.join(bad) if bad else checked}")
    return results


if __name__ == "__main__":
    main()
