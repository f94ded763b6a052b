"""The board test's judging of the buzzer line, on traces made here (run by `make test`: the
board test itself needs qemu and half an hour). A step off by more than 20 ms fails unless the
stall probe saw the machine stop within it for long enough to explain it."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import board_test  # noqa: E402

GPIO = 535


def trace_line(t, event, text):
    return f"           <...>-1     [000] ..... {t:.6f}: {event}: {text}"


def write_trace(folder, edges, stalls=(), probe=True):
    """buzzer-trace.txt and buzzer-gpio as the guest leaves them: a marker, the probe's start,
    each edge as gpiolib's set, each stall as the probe writes it."""
    lines = [trace_line(0.5, "tracing_mark_write", "runway-mark buzz test")]
    if probe:
        lines.append(trace_line(0.6, "tracing_mark_write", "runway-probe start 0.600000 SCHED_FIFO 10"))
    events = [(t, trace_line(t, "gpio_value", f"{GPIO} set {level}")) for t, level in edges]
    events += [(woke + 0.0001, trace_line(woke + 0.0001, "tracing_mark_write", f"runway-stall {due:.6f} {woke:.6f}"))
               for due, woke in stalls]
    lines += [line for _, line in sorted(events)]
    with open(os.path.join(folder, "buzzer-trace.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(folder, "buzzer-gpio"), "w") as f:
        f.write(f"{GPIO}\n")


def pattern_edges(start, steps, late_edge=None, late=0.0):
    """Edges of `steps` (on, off, …) from `start`, edge `late_edge` `late` seconds late (the
    schedule kept after it, as BuzzerDriver keeps it)."""
    t, level, edges = start, 1, []
    for k in range(len(steps) + 1):
        edges.append((t + (late if k == late_edge else 0.0), level))
        if k < len(steps):
            t += steps[k]
        level = 1 - level
    return edges


class BuzzerJudging(unittest.TestCase):
    STEPS = [0.05] * 5

    def judge(self, stalls, probe=True):
        with tempfile.TemporaryDirectory() as folder:
            write_trace(folder, pattern_edges(1.0, self.STEPS, late_edge=3, late=0.032), stalls, probe)
            marks, edges, found_stalls = board_test.buzzer_trace(folder)
        self.assertEqual(len(edges), 6)
        self.assertEqual(marks, [(0.5, "buzz test")])
        return board_test.find_pattern(edges, self.STEPS, 0.9, 1.1, found_stalls), found_stalls

    def test_a_late_edge_without_a_stall_fails(self):
        found, stalls = self.judge([])
        self.assertAlmostEqual(found[0], 0.032, places=4)
        self.assertEqual(found[3], [])
        self.assertIn("0 wake-ups", stalls.summary())

    def test_a_stall_over_the_late_edge_excuses_it_and_says_so(self):
        late_at = 1.0 + 3 * 0.05 + 0.032
        found, stalls = self.judge([(late_at - 0.027, late_at + 0.001)])
        self.assertLessEqual(found[0], 0.020)
        self.assertEqual(len(found[3]), 2)  # the step it ended (+32 ms) and the one it began (−32)
        self.assertIn("stalled 28 ms", board_test.excused_note(found))
        self.assertIn("1 wake-ups over 5 ms late, the latest 28 ms", stalls.summary())

    def test_a_stall_too_short_or_elsewhere_excuses_nothing(self):
        late_at = 1.0 + 3 * 0.05 + 0.032
        for stall in [(late_at - 0.001, late_at), (5.0, 5.1)]:
            found, _ = self.judge([stall])
            self.assertAlmostEqual(found[0], 0.032, places=4)
            self.assertEqual(found[3], [])

    def test_a_probe_that_never_started_is_said(self):
        _, stalls = self.judge([], probe=False)
        self.assertIsNone(stalls.started)
        self.assertIn("never started", stalls.summary())


if __name__ == "__main__":
    unittest.main()
