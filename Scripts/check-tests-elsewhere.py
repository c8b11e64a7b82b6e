#!/usr/bin/env python3
"""Type-checks the test targets as another system would see them (Linux only, after a debug build
with --build-tests):

    python3 Scripts/check-tests-elsewhere.py [BUILD_FOLDER]     (default .build)

A copy of every Swift file under Tests/ has `os(Linux)` made `false` and `os(macOS)` made `true`,
so the branch a Mac compiles is the one checked; each test target is then type-checked with the
very compiler command `swift build --build-tests` used for it (read from the build's manifest,
BUILD_FOLDER/debug.yaml), its sources swapped for the copies and its outputs dropped. The modules
it imports are the ones that build made: nothing is compiled again, so it costs about a minute (2 cores) where a
second build of the package (SwiftNIO, BoringSSL) would cost many minutes. It catches a branch that
does not compile (a name only the Linux branch declares, a missing return); a call to an API only
Darwin has is still the macOS job's to find (`canImport(Darwin)` branches are left as they are).

Exit status: 0 when every target type-checks, 1 when one does not (the compiler's errors are
printed), 2 when the build's manifest is missing.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TESTS = os.path.join(ROOT, "Tests") + os.sep
# The compiler's flags that write something; each with the number of values it takes.
OUTPUT_FLAGS = {
    "-emit-dependencies": 0, "-emit-module": 0, "-incremental": 0, "-c": 0, "-enable-batch-mode": 0,
    "-serialize-diagnostics": 0, "-parseable-output": 0, "-emit-objc-header": 0, "-whole-module-optimization": 0,
    "-emit-module-path": 1, "-output-file-map": 1, "-index-store-path": 1, "-emit-objc-header-path": 1,
}
SWAPS = [(re.compile(r"\bos\(\s*Linux\s*\)"), "false"), (re.compile(r"\bos\(\s*macOS\s*\)"), "true")]


def modules(manifest):
    """(module name, compiler arguments) of each Swift module whose sources are under Tests/."""
    found = []
    name = None
    with open(manifest, encoding="utf-8") as lines:
        for line in lines:
            if re.match(r'^  "C\..+-debug\.module":$', line):
                name = "?"
                continue
            described = re.match(r"^    description: \"Compiling Swift Module '(.+)' \(", line)
            if name and described:
                name = described.group(1)
                continue
            if name and line.startswith("    inputs: "):
                inputs = json.loads(line[len("    inputs: "):])
                if not any(path.startswith(TESTS) and path.endswith(".swift") for path in inputs):
                    name = None
                continue
            if name and line.startswith("    args: "):
                found.append((name, json.loads(line[len("    args: "):])))
                name = None
    return found


def sources(arguments):
    """The Swift files of a compile: the `@file` the arguments name holds one path a line."""
    for argument in arguments:
        if argument.startswith("@"):
            with open(argument[1:], encoding="utf-8") as listing:
                return [line.strip().strip('"') for line in listing if line.strip()]
    return [argument for argument in arguments if argument.endswith(".swift")]


def typecheck_command(arguments, files):
    command = [arguments[0], "-typecheck"]
    skip = 0
    for argument in arguments[1:]:
        if skip:
            skip -= 1
        elif argument in OUTPUT_FLAGS:
            skip = OUTPUT_FLAGS[argument]
        elif argument.startswith("@") or argument.endswith(".swift") or re.match(r"^-j\d+$", argument):
            continue
        else:
            command.append(argument)
    return command + files


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build"))
    manifest = os.path.join(build, "debug.yaml")
    if not os.path.exists(manifest):
        print(f"{manifest} is missing: run `swift build --build-tests` first", file=sys.stderr)
        return 2
    started = time.monotonic()
    failed = []
    with tempfile.TemporaryDirectory(prefix="pushctl-tests-elsewhere-") as copy:
        targets = modules(manifest)
        for name, arguments in targets:
            files = []
            for path in sources(arguments):
                if not path.startswith(TESTS):
                    files.append(path)
                    continue
                with open(path, encoding="utf-8") as original:
                    text = original.read()
                for pattern, value in SWAPS:
                    text = pattern.sub(value, text)
                swapped = os.path.join(copy, os.path.relpath(path, ROOT))
                os.makedirs(os.path.dirname(swapped), exist_ok=True)
                with open(swapped, "w", encoding="utf-8") as out:
                    out.write(text)
                files.append(swapped)
            result = subprocess.run(typecheck_command(arguments, files), capture_output=True, text=True)
            if result.returncode != 0:
                failed.append(name)
                errors = [line.replace(copy + os.sep, "") for line in (result.stdout + result.stderr).splitlines() if "error:" in line]
                print(f"{name} does not compile with Tests/'s Linux-only branches switched off:", file=sys.stderr)
                print("\n".join("  " + line for line in (errors or (result.stdout + result.stderr).splitlines()[-20:])), file=sys.stderr)
    seconds = time.monotonic() - started
    if not targets:
        print(f"no test target in {manifest}: was it built with --build-tests?", file=sys.stderr)
        return 2
    if failed:
        return 1
    print(f"the test targets type-check as a Mac compiles them ({len(targets)} targets, {seconds:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
