#!/usr/bin/python3
"""How late the emulated machine wakes a real-time thread, written into the buzzer's trace.

Started by board-lines.sh beside the buzzer checks. It sleeps to an absolute schedule, one
wake-up every 10 ms, at SCHED_FIFO (above every ordinary thread, runwayd's and runway's buzzer
threads among them), and writes each wake-up more than 5 ms late to the ftrace marker as
`runway-stall DUE WOKE` (CLOCK_MONOTONIC seconds, the trace's own clock). A thread at that
priority is late only when the machine itself is: a vCPU qemu's host did not run, interrupts held
off in the guest's kernel. board_test.py (find_pattern) excuses a buzzer step that is off by more
than 20 ms only when a stall seen here covers it and is long enough to explain it; a step off
while this probe woke on time still fails.
"""
import os
import sys
import time

PERIOD = 0.010  # a wake-up every 10 ms: a stall shows as at least its length less 10 ms
REPORTED = 0.005  # later than this is written down
PRIORITY = 10  # SCHED_FIFO: above every SCHED_OTHER thread, below the kernel's threaded IRQs (50)


def main():
    marker = open(sys.argv[1] if len(sys.argv) > 1 else "/sys/kernel/tracing/trace_marker", "w", buffering=1)
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(PRIORITY))
        policy = f"SCHED_FIFO {PRIORITY}"
    except OSError as e:
        policy = f"SCHED_OTHER ({e.strerror})"
    marker.write(f"runway-probe start {time.monotonic():.6f} {policy}\n")
    due = time.monotonic() + PERIOD
    while True:
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        woke = time.monotonic()
        if woke - due > REPORTED:
            marker.write(f"runway-stall {due:.6f} {woke:.6f}\n")
            due = woke  # the schedule goes on from here: one stall is written once
        due += PERIOD


if __name__ == "__main__":
    main()
