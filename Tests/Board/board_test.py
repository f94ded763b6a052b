#!/usr/bin/env python3
"""The emulated board (issue 15): Debian's own kernel under qemu (TCG), a Debian 12 root
filesystem with the project's .deb installed, real gpsd on a real serial port, i2c-stub for the
BMP280, and the checks of guest/checks.sh run by the guest's systemd. Prints each check and
"N passed, N failed"; exits 1 when any failed or the board did not report.

usage: board_test.py --deb RUNWAY.deb --runway HOST-RUNWAY --work DIR
"""
import argparse, hashlib, json, os, shutil, socket, subprocess, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST_PACKAGES = [
    "systemd", "systemd-sysv", "udev", "kmod", "gpsd", "i2c-tools", "gpiod", "libgps28", "libi2c0",
    "libgpiod2", "libsqlite3-0", "zlib1g", "libsystemd0", "dosfstools", "mtools", "procps",
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


def image(work, deb, version, module):
    """The root filesystem as an ext4 image, rebuilt when its recipe or inputs change."""
    hooks = [
        f'--customize-hook=copy-in {deb} /tmp',
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
    key = hashlib.sha256("\n".join(hooks + GUEST_PACKAGES).encode())
    inputs = [deb, module, f"{HERE}/guest/gpsd.default", f"{HERE}/guest/runway-board-test.service"]
    for f in inputs:
        key.update(open(f, "rb").read())
    digest = key.hexdigest()[:16]
    path = os.path.join(work, f"rootfs-{digest}.img")
    if os.path.exists(path):
        log(f"root filesystem cached: {path}")
        return path
    for old in os.listdir(work):
        if old.startswith("rootfs-"):
            os.remove(os.path.join(work, old))
    root = os.path.join(work, "rootfs.dir")
    shutil.rmtree(root, ignore_errors=True)
    log("building the root filesystem (mmdebstrap, minbase) …")
    run("mmdebstrap", "--variant=minbase", "--include=" + ",".join(GUEST_PACKAGES), *hooks,
        "bookworm", root, stdout=subprocess.DEVNULL)
    tmp = path + ".tmp"
    run("mkfs.ext4", "-q", "-F", "-L", "board", "-d", root, tmp, "1G")
    shutil.rmtree(root)
    os.rename(tmp, path)
    return path


def feed_gps(sock_path, nmea, rate, done, go):
    """Writes the scenario's NMEA into the guest's /dev/ttyS1, `rate` epochs a second, once the
    guest asks; reads what the tty echoes so it never fills."""
    while not os.path.exists(go):
        time.sleep(0.2)
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
    epochs, epoch = [], []
    for line in nmea:
        if line.startswith("$GPRMC") and epoch:
            epochs.append(epoch)
            epoch = []
        epoch.append(line)
    epochs.append(epoch)
    try:
        for epoch in epochs:
            s.sendall(("".join(l + "\r\n" for l in epoch)).encode())
            time.sleep(1 / rate)
    except OSError as e:  # the board went away (the power cut)
        log(f"GPS: {e}")
        return
    open(done, "w").close()
    log(f"GPS: {len(epochs)} epochs written")


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
    p = argparse.ArgumentParser()
    p.add_argument("--deb", required=True)
    p.add_argument("--runway", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--rate", type=float, default=20)
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    version = kernel()
    base = image(a.work, a.deb, version, gpio_sim(a.work, version))
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
    disk = overlay(a.work, base, "board.qcow2")
    boot(a, version, disk, out, nmea, usb=images)
    results = read_results(out)
    results += host_checks(out)
    results += stick_checks(a.work, images["stick"], "usb-stick")
    # The slow stick as it was when pulled mid-export, then after it was plugged in again.
    results += stick_checks(a.work, images["slowstick"].replace(".img", "-pulled-1.img"), "usb-pulled", partial=True)
    results += stick_checks(a.work, images["slowstick"], "usb-replugged")
    results += folder_checks(os.path.join(out, "gadget"), "gadget")

    # Boots 2 and 3: a power cut mid-flight (kill -9 of qemu), then the same disk again.
    cut_out = fresh(os.path.join(a.work, "cut"))
    disk = overlay(a.work, base, "cut.qcow2")
    boot(a, version, disk, cut_out, nmea, phase="cut", cut=True)
    after = fresh(os.path.join(a.work, "after-cut"))
    boot(a, version, disk, after, nmea, phase="after-cut")
    results += read_results(after)
    results += cut_checks(cut_out, after)

    passed = sum(1 for r in results if r.startswith("PASS"))
    failed = sum(1 for r in results if r.startswith("FAIL"))
    for r in results:
        print(r)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not results else 0)


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


def boot(a, version, disk, out, nmea, phase=None, usb=None, cut=False):
    """Boots the board on `disk` with the shares, the GPS and QMP; returns when it powers off
    (or, with `cut`, when the guest asks for the power cut: qemu is killed with SIGKILL)."""
    gps = os.path.join(a.work, "gps.sock")
    qmp_path = os.path.join(a.work, "qmp.sock")
    for path in (gps, qmp_path):
        if os.path.exists(path):
            os.remove(path)
    threading.Thread(
        target=feed_gps, args=(gps, nmea, a.rate, os.path.join(out, "gps-done"), os.path.join(out, "feed-gps")),
        daemon=True).start()
    if usb:
        threading.Thread(target=usb_requests, args=(out, qmp_path, usb), daemon=True).start()
    console = os.path.join(out, "console.log")
    append = "root=/dev/vda rw console=ttyS0 quiet systemd.show_status=0" + (f" runway.phase={phase}" if phase else "")
    qemu = [
        "qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-smp", "2", "-m", "1024", "-nographic",
        "-kernel", f"/boot/vmlinuz-{version}", "-initrd", f"/boot/initrd.img-{version}",
        "-append", append,
        "-drive", f"file={disk},if=virtio,format=qcow2,cache=writeback",
        "-virtfs", f"local,path={HERE},mount_tag=code,security_model=none,readonly=on",
        "-virtfs", f"local,path={out},mount_tag=out,security_model=none",
        "-chardev", f"socket,id=gps,path={gps},server=on,wait=off",
        "-serial", f"file:{console}", "-serial", "chardev:gps",
        "-device", "qemu-xhci,id=xhci", "-qmp", f"unix:{qmp_path},server=on,wait=off",
        "-no-reboot", "-nic", "none",
    ]
    log(f"booting Debian's kernel {version} under qemu (TCG){' for ' + phase if phase else ''} …")
    started = time.time()
    process = subprocess.Popen(qemu, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    cut_file = os.path.join(out, "cut-now")
    while process.poll() is None:
        if cut and os.path.exists(cut_file):
            process.kill()  # SIGKILL: the power cut
            process.wait()
            log(f"power cut after {time.time() - started:.0f} s")
            return
        if time.time() - started > 900:
            process.kill()
            log("the board did not power off within 15 minutes")
            return
        time.sleep(0.05)
    log(f"the board ran {time.time() - started:.0f} s")


def cut_checks(cut_out, after):
    """What the cut flight had before the cut, and what the next boot made of it."""
    try:
        before = json.load(open(os.path.join(cut_out, "before-cut.json")))
        flight = json.load(open(os.path.join(after, "after-cut-flight.json")))
    except (OSError, ValueError, KeyError) as e:
        return [f"FAIL power-cut-flight: {e}"]
    had, has = before.get("distance_m") or 0, flight.get("distance_m") or 0
    ok = has >= had - 60
    return [f"{'PASS' if ok else 'FAIL'} power-cut-flight: {had:.0f} m flown when the power went, "
            f"{has:.0f} m in the logbook after the next boot ({flight.get('logbook_status')})"]


def host_checks(out):
    """What the guest's logbook says, judged on the host."""
    results = []
    try:
        flight = json.load(open(os.path.join(out, "flight.json")))
    except (OSError, ValueError) as e:
        return [f"FAIL flight-in-logbook: {e}"]
    d = flight.get("distance_m") or 0
    ok = 4800 <= d <= 5300
    results.append(f"{'PASS' if ok else 'FAIL'} flight-distance: {d:.0f} m flown from the serial GPS (flat5k: 5.0 km)")
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
