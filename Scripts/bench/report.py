"""Prints Scripts/bench.sh's table from the measurements it wrote.

    python3 report.py RUNS_TSV SINGLE_TSV

RUNS_TSV: client, round, pushes, seconds, user_s, sys_s, max_rss_kb, mock_cpu_s, connections
SINGLE_TSV: what, round, seconds
For each client the round with the median rate is reported (rounds interleave the clients, so
noise from other work on the machine is shared), and each target's ratio round by round. Exits 0; the verdicts are printed.
"""

import statistics
import sys
from collections import defaultdict

CLIENTS = ["pushctl", "pushctl-requests", "libcurl-multi-c", "c-pushctl-job", "curl-Z", "aioapns"]
TARGETS = {"libcurl-multi-c": 0.9, "curl-Z": 1.3, "aioapns": 5.0}
REQUESTS_FILE_TARGET = 0.9  # x one template
SINGLE_PUSH_TARGET = 1.6  # x one curl
WAN_CLIENTS = ["pushctl-wan-defaults", "pushctl-wan-connections-4", "libcurl-multi-c-wan-1000", "h2load-wan-m1000"]


def median_run(runs):
    ordered = sorted(runs, key=lambda r: r["rate"])
    return ordered[(len(ordered) - 1) // 2]  # the lower median: an actual run


def read_runs(path):
    runs = defaultdict(list)
    with open(path) as f:
        for line in f:
            client, rnd, pushes, seconds, user, system, rss, mock_cpu, conns = line.split("\t")
            pushes, seconds = int(pushes), float(seconds)
            runs[client].append({
                "round": int(rnd), "pushes": pushes, "seconds": seconds, "rate": pushes / seconds,
                "cpu_us": (float(user) + float(system)) / pushes * 1e6, "rss_mb": int(rss) / 1024,
                "mock_us": float(mock_cpu) / pushes * 1e6, "conns": conns.strip(),
            })
    return runs


def wan(path) -> int:
    runs = read_runs(path)
    chosen = {c: median_run(runs[c]) for c in WAN_CLIENTS if runs[c]}
    h2 = chosen.get("h2load-wan-m1000")
    print(f"{'client':<26} {'pushes':>7} {'seconds':>8} {'pushes/s':>9} {'CPU µs/push':>12} {'peak RSS MB':>12}"
          f" {'mock µs/push':>13} {'conns':>5} {'× h2load':>9}")
    for c in WAN_CLIENTS:
        if c not in chosen:
            continue
        r = chosen[c]
        ratio = f"{r['rate'] / h2['rate']:.2f}" if h2 else "-"
        print(f"{c:<26} {r['pushes']:>7} {r['seconds']:>8.2f} {r['rate']:>9.0f} {r['cpu_us']:>12.1f} {r['rss_mb']:>12.1f}"
              f" {r['mock_us']:>13.1f} {r['conns']:>5} {ratio:>9}")
    if h2 and "pushctl-wan-defaults" in chosen:
        ratio = chosen["pushctl-wan-defaults"]["rate"] / h2["rate"]
        print(f"\ntarget pushctl (defaults) >= 0.9 x h2load -m 1000: {ratio:.2f} x, {'met' if ratio >= 0.9 else 'MISSED'}")
    return 0


def each_round(runs, numerator, denominator):
    """The ratio of two clients' rates round by round: the rounds interleave the clients, so a
    slow spell of the machine's shows in both halves of a pair and cancels."""
    rates = {c: {r["round"]: r["rate"] for r in runs[c]} for c in (numerator, denominator)}
    rounds = sorted(set(rates[numerator]) & set(rates[denominator]))
    return " ".join(f"{rates[numerator][n] / rates[denominator][n]:.2f}" for n in rounds)


def main() -> int:
    if sys.argv[1] == "--wan":
        return wan(sys.argv[2])
    runs = read_runs(sys.argv[1])
    chosen = {c: median_run(runs[c]) for c in CLIENTS if runs[c]}
    base = chosen.get("pushctl")

    print(f"{'client':<16} {'pushes':>7} {'seconds':>8} {'pushes/s':>9} {'CPU µs/push':>12} {'peak RSS MB':>12}"
          f" {'mock µs/push':>13} {'conns':>5} {'pushctl ×':>10}   rates of every round")
    for c in CLIENTS:
        if c not in chosen:
            continue
        r = chosen[c]
        ratio = f"{base['rate'] / r['rate']:.2f}" if base else "-"
        every = " ".join(f"{x['rate']:.0f}" for x in sorted(runs[c], key=lambda x: x["round"]))
        print(f"{c:<16} {r['pushes']:>7} {r['seconds']:>8.2f} {r['rate']:>9.0f} {r['cpu_us']:>12.1f} {r['rss_mb']:>12.1f}"
              f" {r['mock_us']:>13.1f} {r['conns']:>5} {ratio:>10}   {every}")

    if base:
        print()
        for c, target in TARGETS.items():
            if c in chosen:
                ratio = base["rate"] / chosen[c]["rate"]
                verdict = "met" if ratio >= target else "MISSED"
                print(f"target pushctl >= {target:g} x {c}: {ratio:.2f} x, {verdict} (round by round: {each_round(runs, 'pushctl', c)})")
        if "pushctl-requests" in chosen:
            ratio = chosen["pushctl-requests"]["rate"] / base["rate"]
            print(f"target --requests-file (a payload per line) >= {REQUESTS_FILE_TARGET:g} x one template: {ratio:.2f} x,"
                  f" {'met' if ratio >= REQUESTS_FILE_TARGET else 'MISSED'} (round by round: {each_round(runs, 'pushctl-requests', 'pushctl')})")

    single = defaultdict(list)
    with open(sys.argv[2]) as f:
        for line in f:
            what, _, seconds = line.split("\t")
            single[what].append(float(seconds) * 1000)
    if single:
        print()
        print(f"{'single push (process start to answer)':<40} {'runs':>4} {'median ms':>10} {'min ms':>8} {'max ms':>8}")
        for what, ms in single.items():
            print(f"{what:<40} {len(ms):>4} {statistics.median(ms):>10.1f} {min(ms):>8.1f} {max(ms):>8.1f}")
        curl = [v for k, v in single.items() if k.startswith("curl")]
        if curl:
            reference = statistics.median(curl[0])
            for what, ms in single.items():
                if what.startswith("pushctl send"):
                    m = statistics.median(ms)
                    verdict = "met" if m <= SINGLE_PUSH_TARGET * reference else "MISSED"
                    print(f"target {what} <= {SINGLE_PUSH_TARGET:g} x one curl: {m:.1f} ms vs {reference:.1f} ms"
                          f" ({m / reference:.2f} x), {verdict}")
        if "pushctl --version" in single:
            m = statistics.median(single["pushctl --version"])
            print(f"target pushctl --version <= 10 ms: {m:.1f} ms, {'met' if m <= 10 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
