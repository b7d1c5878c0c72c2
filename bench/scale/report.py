"""What the scale bench reports: its rows (a figure, its value, its target), each worker's
memory sampled every second, and the summary table."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bench.scale.config import FLAT_TOLERANCE, GAMES


@dataclass
class Row:
    figure: str
    value: str
    target: str = ""
    met: bool | None = None  # None: measured, no target


class MemorySampler(threading.Thread):
    """Each worker's VmRSS and VmHWM (/proc/<pid>/status) every second."""

    def __init__(self, pids: dict[str, int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.samples: dict[str, list[tuple[float, int, int]]] = {name: [] for name in pids}
        # Each phase's spans of time: the load's two parts leave out the reads between them.
        self.phases: dict[str, list[tuple[float, float]]] = {}
        self.stop = threading.Event()

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        finally:
            self.phases.setdefault(name, []).append((start, time.monotonic()))

    def run(self) -> None:
        while not self.stop.is_set():
            now = time.monotonic()
            for name, pid in self.pids.items():
                status = read_status(pid)
                if status:
                    self.samples[name].append((now, status["VmRSS"], status["VmHWM"]))
            self.stop.wait(1.0)

    def report(self, name: str, phase: str) -> tuple[float, float, float, float, float] | None:
        """MB: first, after the first minute (or half the phase, when shorter), peak, last,
        and the process's peak so far at the end."""
        spans = self.phases[phase]
        inside = [s for s in self.samples[name] if any(a <= s[0] <= b for a, b in spans)]
        if not inside:
            return None
        minute = min(60.0, (inside[-1][0] - inside[0][0]) / 2)
        after = next(s for s in inside if s[0] >= inside[0][0] + minute)
        mb = 1024.0
        return (
            inside[0][1] / mb,
            after[1] / mb,
            max(s[1] for s in inside) / mb,
            inside[-1][1] / mb,
            inside[-1][2] / mb,
        )


def read_status(pid: int) -> dict[str, int]:
    """The process's memory lines of /proc/<pid>/status, in kB; empty once it has ended."""
    try:
        with open(f"/proc/{pid}/status") as status:
            lines = status.read().splitlines()
    except OSError:
        return {}
    found = {}
    for line in lines:
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found if len(found) == 2 else {}


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used so far (user and system, /proc/<pid>/stat); 0 once it
    has ended."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_row(sampler: MemorySampler) -> Row:
    """Each worker's memory in each phase, printed; the row says whether every one stayed
    flat."""
    print("  worker memory (MB: first, after a minute, peak, last; VmHWM at the end):")
    all_flat = True
    for phase in sampler.phases:
        for name in sampler.samples:
            report = sampler.report(name, phase)
            if report is None:
                continue
            first, minute, peak, last, hwm = report
            flat = abs(last - minute) <= FLAT_TOLERANCE * minute
            all_flat = all_flat and flat
            print(
                f"    {name} {phase:<9} {first:7.0f} {minute:7.0f} {peak:7.0f} {last:7.0f}"
                f"  {hwm:7.0f}  {'flat' if flat else 'GROWS'}"
            )
    return Row(
        "worker memory, last vs after a minute",
        "flat" if all_flat else "grows",
        f"within {FLAT_TOLERANCE:.0%}",
        all_flat,
    )


def summary(rows: list[Row]) -> bool:
    """The table of every figure with a target (its measured value, its target, met or
    MISSED), then what was measured beside them; whether every target was met."""
    if not rows:
        return False
    targeted = [row for row in rows if row.met is not None]
    others = [row for row in rows if row.met is None]
    print(f"summary, {GAMES:,} games:")
    table = [("figure", "measured", "target", "")] + [
        (row.figure, row.value, row.target, "met" if row.met else "MISSED") for row in targeted
    ]
    widths = [max(len(line[k]) for line in table) for k in range(3)]
    for figure, value, target, verdict in table:
        print(f"  {figure:<{widths[0]}}  {value:<{widths[1]}}  {target:<{widths[2]}}  {verdict}")
    if others:
        print("  measured beside them (no target):")
        width = max(len(row.figure) for row in others)
        for row in others:
            print(f"    {row.figure.strip():<{width}}  {row.value}")
    return all(row.met is not False for row in rows)
