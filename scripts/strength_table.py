#!/usr/bin/env python3
"""Prints the markdown table of docs/strength.md from strength/*.log.

Each log is the output of `arbiter match` (scripts/strength.sh); the last
"Score of" line of each gives wins, losses, draws and Elo ± 95%.
"""
import glob
import math
import os
import re
import sys

ORDER = ["sf1500", "sf2000", "sf2400", "gnuchess", "glaurung", "toga", "ethereal",
         "arbiter1400", "arbiter1800", "arbiter2200"]
LADDER = {  # approximate CCRL ratings from the project brief (anchors.md)
    "sf1500": 1500, "sf2000": 2440, "sf2400": 2900, "gnuchess": 2660,
    "glaurung": 2790, "toga": 2900, "ethereal": 3390,
    # our weakened engine, rated against its Stockfish opponent
    "arbiter1400": 1500, "arbiter1800": 1500, "arbiter2200": 2440,
}
LINE = re.compile(r"Score of (.+) vs (.+): (\d+) - (\d+) - (\d+) \[([\d.]+)\] (\d+); Elo ([-+\w.]+) ± ([\w.]+)")


def elo(s):
    return -400 * math.log10(1 / s - 1) if 0 < s < 1 else (math.inf if s >= 1 else -math.inf)


GAME = re.compile(r"Game \d+ (\S+) - (\S+): (\S+) \((.*)\)$")


def without_time_forfeits(path):
    """(W, D, L) of the first engine, leaving out games lost on time."""
    w = d = l = 0
    for line in open(path, encoding="utf-8"):
        m = GAME.match(line.strip())
        if not m or "on time" in m.group(4):
            continue
        white, black, res = m.group(1), m.group(2), m.group(3)
        ours_white = white.startswith("Arbiter")
        if res == "1/2-1/2":
            d += 1
        elif (res == "1-0") == ours_white:
            w += 1
        else:
            l += 1
    return w, d, l


def interval(w, d, l):
    n = w + d + l
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    se = math.sqrt(var / n)
    return s, elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se)


def main(folder):
    rows = []
    for key in ORDER:
        path = os.path.join(folder, key + ".log")
        if not os.path.exists(path):
            continue
        last = None
        for line in open(path, encoding="utf-8"):
            m = LINE.search(line)
            if m:
                last = m
        if not last:
            continue
        a, b, w, l, d, s, n, e, margin = last.groups()
        w, l, d, n, s = int(w), int(l), int(d), int(n), float(s)
        var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
        se = math.sqrt(var / n)
        lo, hi = elo(s - 1.96 * se), elo(s + 1.96 * se)
        ladder = LADDER.get(key)
        if ladder and math.isfinite(lo) and math.isfinite(hi):
            est = f"{ladder + elo(s):.0f} [{ladder + lo:.0f}, {ladder + hi:.0f}]"
        elif ladder and s >= 1:
            est = f"> {ladder + elo(s - 1.96 * math.sqrt(0.25 / n)):.0f}"
        else:
            est = "–"
        diff = f"{elo(s):+.0f} [{lo:+.0f}, {hi:+.0f}]" if 0 < s < 1 else ("all won" if s >= 1 else "all lost")
        tw, td, tl = without_time_forfeits(path)
        forfeits = n - (tw + td + tl)
        if forfeits and tw + td + tl:
            _, e2, lo2, hi2 = interval(tw, td, tl)
            nt = f"{forfeits} | {e2:+.0f} [{lo2:+.0f}, {hi2:+.0f}]" if 0 < (tw + 0.5 * td) / (tw + td + tl) < 1 else f"{forfeits} | –"
        else:
            nt = "0 | same"
        rows.append(f"| {a} | {b} | {n} | +{w} ={d} -{l} | {s:.3f} | {diff} | {est} | {nt} |")
    print("| engine | opponent | games | +W =D -L | score | Elo difference [95%] | implied rating [95%] | time forfeits | Elo without them [95%] |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))


main(sys.argv[1] if len(sys.argv) > 1 else "strength")
