#!/usr/bin/env python3
"""A fast loop for the board's Bluetooth (issue 25): a small Debian 12 root filesystem with
BlueZ only (no runway .deb, no gpio-sim), booted on the same kernel and initramfs as the board
test, running Tests/Board/bluetooth/boot.sh (read from the 9p share, so edit it and boot again:
no image rebuild). What it writes to its $out is left in WORK/out.

usage: experiment.py [--work DIR] [--timeout S]
"""
import argparse, hashlib, os, shutil, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
BOARD = os.path.dirname(HERE)
sys.path.insert(0, BOARD)
import board_test  # noqa: E402

PACKAGES = ["systemd", "systemd-sysv", "udev", "kmod", "dbus", "procps", "bluez", "bluez-test-tools",
            "bluez-test-scripts", "python3-dbus", "python3-gi"]
SERVICE = """[Unit]
Description=Bluetooth experiment
After=basic.target
[Service]
Type=oneshot
StandardOutput=journal+console
ExecStart=/bin/sh -c 'mkdir -p /host /host-out; mount -t 9p -o trans=virtio,version=9p2000.L,ro code /host && mount -t 9p -o trans=virtio,version=9p2000.L out /host-out && /host/bluetooth/boot.sh > /host-out/boot.log 2>&1; sync; systemctl poweroff'
[Install]
WantedBy=multi-user.target
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--work", default=os.path.join(BOARD, "..", "..", ".build", "bt-experiment"))
    p.add_argument("--timeout", type=float, default=600)
    a = p.parse_args()
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    version = board_test.kernel()
    unit = os.path.join(work, "bt-experiment.service")
    open(unit, "w").write(SERVICE)
    hooks = [
        f'--customize-hook=mkdir -p "$1/lib/modules" && cp -a /lib/modules/{version} "$1/lib/modules/"',
        '--customize-hook=echo "127.0.0.1 localhost board" > "$1/etc/hosts"; echo board > "$1/etc/hostname"',
        '--customize-hook=echo "root:root" | chroot "$1" chpasswd',
        '--customize-hook=printf "/dev/vda / ext4 rw 0 1\\n" > "$1/etc/fstab"',
        f"--customize-hook=upload {unit} /etc/systemd/system/bt-experiment.service",
        '--customize-hook=chroot "$1" systemctl enable bt-experiment.service',
    ]
    digest = hashlib.sha256("\n".join(hooks + PACKAGES + [SERVICE, version]).encode()).hexdigest()[:16]
    img = os.path.join(work, f"rootfs-{digest}.img")
    if not os.path.exists(img):
        root = os.path.join(work, "rootfs.dir")
        shutil.rmtree(root, ignore_errors=True)
        board_test.log("building the experiment's root filesystem …")
        board_test.run("mmdebstrap", "--variant=minbase", "--include=" + ",".join(PACKAGES), *hooks,
                       "bookworm", root, stdout=subprocess.DEVNULL)
        board_test.run("mkfs.ext4", "-q", "-F", "-d", root, img + ".tmp", "1G")
        shutil.rmtree(root)
        os.rename(img + ".tmp", img)
    disk = board_test.overlay(work, img, "exp.qcow2")
    out = board_test.fresh(os.path.join(work, "out"))
    qemu = [
        "qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-smp", "2", "-m", "1024", "-nographic",
        "-kernel", f"/boot/vmlinuz-{version}", "-initrd", board_test.initrd(work, version),
        "-append", "root=/dev/vda rw console=ttyS0 quiet systemd.show_status=0",
        "-drive", f"file={disk},if=virtio,format=qcow2,cache=writeback",
        "-virtfs", f"local,path={BOARD},mount_tag=code,security_model=none,readonly=on",
        "-virtfs", f"local,path={out},mount_tag=out,security_model=none",
        "-serial", f"file:{os.path.join(out, 'console.log')}", "-no-reboot", "-nic", "none",
    ]
    started = time.monotonic()
    process = subprocess.Popen(qemu, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        process.wait(timeout=a.timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        board_test.log("timed out")
    board_test.log(f"ran {time.monotonic() - started:.0f} s; see {out}")
    results = os.path.join(out, "results.txt")
    if os.path.exists(results):
        print(open(results).read(), end="")


if __name__ == "__main__":
    main()
