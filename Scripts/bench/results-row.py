"""Appends one row of Scripts/bench.sh's summary figures to the dated results table.

    python3 results-row.py TABLE WORK_DIR key=value...

TABLE is the markdown file (Scripts/bench-results.md); it is created with its header when missing.
WORK_DIR holds what bench.sh measured: runs.tsv and single.tsv (report.py's inputs), wan.tsv,
instructions.tsv, mock-nginx.tsv; any of them may be missing or empty (a cell is then "–").
The key=value pairs are what only bench.sh knows: commit, cores, n, rounds, sender_mb, memory_n,
memory_kb, failures. The row's date is now, in UTC. Prints the row it appended.
"""

import datetime
import os
import statistics
import sys
from collections import defaultdict

from report import median_run, read_runs

HEADER = """\
# Benchmark results

One row per run of `Scripts/bench.sh` (it appends the row itself; `RECORD=0` leaves this file alone).
Compare rows of the same machine, and within a row: the VM's speed wanders from day to day, which
the ratios (each measured against a reference in the same run) mostly cancel. What each column is:

- **date**: when the run ended (UTC). **commit**: `git rev-parse --short HEAD`, `+` when Sources or
  Package.swift had uncommitted changes. **cores**: `nproc`. **N×rounds**: notifications per loopback
  client, and rounds (the median round is reported).
- **rate**: pushctl's loopback pushes a second (one connection, 100 in flight, median round).
- **× C**: pushctl's rate ÷ the minimal C client on libcurl's multi interface (floor 0.9).
- **instr**: pushctl's instructions a push in user space (callgrind, 3,000 notifications less 1,000).
- **instr × C**: the C client's instructions a push ÷ pushctl's (above 1: pushctl does less work).
- **file × tpl**: `--requests-file` (a payload per line) against one template, by rate, then by
  instructions (template's ÷ file's); floor 0.9.
- **single × curl**: one push, process start to answer, median ms ÷ one `curl`'s, with `--key-file`
  (JWT cached) / with `--jwt` (floor 1.6). **--version**: `pushctl --version`, median ms.
- **WAN × h2load**: pushctl's defaults against `h2load -m 1000`, every answer 100 ms late (floor 0.9).
- **mock ÷ nginx**: the mock's server CPU a request ÷ nginx's under the same h2load (mark 2.5).
- **MB**: the stripped sender's size. **RSS**: peak MB sending the memory run's requests-file lines.
- **note**: failed runs, or where a row came from when the script did not write it.

Keep the table last in this file: rows are appended at its end.

| date (UTC) | commit | cores | N×rounds | rate | × C | instr | instr × C | file × tpl (rate / instr) | single × curl (key-file / jwt) | --version | WAN × h2load | mock ÷ nginx | MB | RSS | note |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
"""

DASH = "–"


def rows(path):
    """The lines of a tab-separated file, split; none when it is missing."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def fmt(value, spec):
    return DASH if value is None else format(value, spec)


def loopback(work):
    """pushctl's rate, × C, and the requests file × template, by rate (median rounds)."""
    path = os.path.join(work, "runs.tsv")
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None, None, None
    runs = read_runs(path)
    chosen = {c: median_run(r) for c, r in runs.items() if r}
    pushctl = chosen.get("pushctl")
    rate = pushctl["rate"] if pushctl else None
    c = chosen.get("libcurl-multi-c")
    requests = chosen.get("pushctl-requests")
    return (rate, rate / c["rate"] if rate and c else None,
            requests["rate"] / rate if rate and requests else None)


def instructions(work):
    """pushctl's instructions a push, the C client's ÷ pushctl's, one template's ÷ the requests file's."""
    counts = defaultdict(dict)
    for client, n, total in rows(os.path.join(work, "instructions.tsv")):
        counts[client][int(n)] = int(total)
    per_push = {c: (v[3000] - v[1000]) / 2000 for c, v in counts.items() if 1000 in v and 3000 in v}
    own = per_push.get("pushctl")
    if not own:
        return None, None, None
    c = per_push.get("libcurl-multi-c")
    requests = per_push.get("pushctl-requests")
    return own, c / own if c else None, own / requests if requests else None


def single(work):
    """One push with --key-file and with --jwt, each ÷ one curl; pushctl --version in ms."""
    times = defaultdict(list)
    for what, _, seconds in rows(os.path.join(work, "single.tsv")):
        times[what].append(float(seconds) * 1000)
    medians = {what: statistics.median(ms) for what, ms in times.items()}
    curl = next((m for what, m in medians.items() if what.startswith("curl")), None)

    def against_curl(prefix):
        m = next((m for what, m in medians.items() if what.startswith(prefix)), None)
        return m / curl if m is not None and curl else None

    return (against_curl("pushctl send (--key-file"), against_curl("pushctl send --jwt"),
            medians.get("pushctl --version"))


def wan(work):
    path = os.path.join(work, "wan.tsv")
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    runs = read_runs(path)
    own, h2 = runs.get("pushctl-wan-defaults"), runs.get("h2load-wan-m1000")
    return median_run(own)["rate"] / median_run(h2)["rate"] if own and h2 else None


def mock_vs_nginx(work):
    pairs = [(float(m), float(n)) for m, n in rows(os.path.join(work, "mock-nginx.tsv"))]
    if not pairs:
        return None
    nginx = statistics.median(n for _, n in pairs)
    return statistics.median(m for m, _ in pairs) / nginx if nginx else None


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: results-row.py TABLE WORK_DIR key=value...")
    table, work = sys.argv[1], sys.argv[2]
    given = dict(arg.split("=", 1) for arg in sys.argv[3:])
    rate, rate_c, file_rate = loopback(work)
    instr, instr_c, file_instr = instructions(work)
    single_key, single_jwt, version_ms = single(work)
    memory_kb = given.get("memory_kb") or ""
    failures = int(given.get("failures") or 0)
    n, rounds = given.get("n", ""), given.get("rounds", "")
    cells = [
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        given.get("commit") or DASH,
        given.get("cores") or DASH,
        f"{n}×{rounds}" if rate is not None else DASH,
        fmt(rate, ",.0f"),
        fmt(rate_c, ".2f"),
        fmt(instr, ",.0f"),
        fmt(instr_c, ".2f"),
        f"{fmt(file_rate, '.2f')} / {fmt(file_instr, '.2f')}",
        f"{fmt(single_key, '.2f')} / {fmt(single_jwt, '.2f')}",
        fmt(version_ms, ".1f"),
        fmt(wan(work), ".2f"),
        fmt(mock_vs_nginx(work), ".2f"),
        given.get("sender_mb") or DASH,
        f"{int(memory_kb) / 1024:.1f} ({int(given.get('memory_n', 0)):,} lines)" if memory_kb.isdigit() else DASH,
        f"{failures} run(s) failed" if failures else "",
    ]
    row = "| " + " | ".join(cells) + " |"
    if not os.path.exists(table) or os.path.getsize(table) == 0:
        with open(table, "w") as f:
            f.write(HEADER)
    with open(table, "rb+") as f:
        f.seek(0, os.SEEK_END)
        ends_in_newline = True
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            ends_in_newline = f.read(1) == b"\n"
        f.seek(0, os.SEEK_END)
        # A file edited by hand may end without a newline.
        f.write(("" if ends_in_newline else "\n").encode() + (row + "\n").encode())
    print(row)


if __name__ == "__main__":
    main()
