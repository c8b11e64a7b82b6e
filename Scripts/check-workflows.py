#!/usr/bin/env python3
"""Checks that the GitHub Actions workflows run as written: the repository's own (.github/workflows)
and every ```yaml block of README.md that holds `jobs:`.

  - the YAML parses, and each job has steps;
  - every `run:` script passes shellcheck (as bash, with ${{ … }} expressions as placeholders);
  - every job that calls pushctl installs it first (a step running Scripts/install.sh, or one that
    downloads a release), in that job: jobs do not share installed tools;
  - no job output carries a secret (GitHub drops outputs that hold one).

With no arguments it also checks the Homebrew formula, Formula/pushctl.rb: valid Ruby (`ruby -c`,
where ruby is installed) that builds and installs what Scripts/install.sh does.

Usage: Scripts/check-workflows.py [README.md] [WORKFLOW.yml…]   (default: the repository's)
Exit 0 when all hold; 1 with one line per problem otherwise.
"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent


def readme_blocks(path):
    """The ```yaml blocks of a Markdown file that are workflows, with their first line number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks, inside, start, body = [], False, 0, []
    for number, line in enumerate(lines, 1):
        if not inside and line.strip() in ("```yaml", "```yml"):
            inside, start, body = True, number + 1, []
        elif inside and line.strip() == "```":
            inside = False
            text = "\n".join(body)
            if re.search(r"^jobs:", text, re.M):
                blocks.append((f"{path.name}:{start}", text))
        elif inside:
            body.append(line)
    return blocks


EXPRESSION = re.compile(r"\$\{\{.*?\}\}")
CALLS_PUSHCTL = re.compile(r"(^|[\s;&|(`$])pushctl(\s|$)", re.M)
INSTALLS = re.compile(r"Scripts/install\.sh|releases/download|/releases/latest", re.M)


def shellcheck(where, script):
    """shellcheck's complaints about one run: script, or an empty list."""
    text = EXPRESSION.sub("PLACEHOLDER", script)
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as handle:
        handle.write("#!/usr/bin/env bash\nset -eo pipefail\n" + text + "\n")
        name = handle.name
    try:
        result = subprocess.run(["shellcheck", "--shell=bash", "--severity=warning", "--format=gcc", name],
                                capture_output=True, text=True, check=False)
    finally:
        pathlib.Path(name).unlink()
    return [f"{where}: shellcheck: {line.split(':', 3)[-1].strip()}" for line in result.stdout.splitlines() if line.strip()]


def check(where, text):
    problems = []
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        return [f"{where}: the YAML does not parse: {str(error).splitlines()[0]}"]
    jobs = (document or {}).get("jobs") if isinstance(document, dict) else None
    if not isinstance(jobs, dict) or not jobs:
        return [f"{where}: no jobs"]
    for name, job in jobs.items():
        here = f"{where} job {name}"
        if not isinstance(job, dict):
            problems.append(f"{here}: not a mapping")
            continue
        if "uses" in job:  # a reusable workflow: its own file is checked on its own
            continue
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            problems.append(f"{here}: no steps")
            continue
        installed = False
        for index, step in enumerate(steps, 1):
            script = step.get("run") if isinstance(step, dict) else None
            if not isinstance(script, str):
                continue
            step_where = f"{here} step {index}" + (f" ({step.get('name')})" if step.get("name") else "")
            problems += shellcheck(step_where, script)
            if INSTALLS.search(script):
                installed = True
            elif CALLS_PUSHCTL.search(script) and not installed and "swift build" not in script:
                problems.append(f"{step_where}: calls pushctl before any step of this job installs it")
        for output, value in (job.get("outputs") or {}).items():
            if "secrets." in str(value) or re.search(r"JWT|TOKEN|KEY|PASSWORD", str(output), re.I):
                problems.append(f"{here}: output '{output}' would carry a secret (GitHub drops such outputs)")
    return problems


# What the formula must say, each with what it is for.
FORMULA_NEEDS = [
    (r'^\s*depends_on "openssl@3"', 'depends_on "openssl@3" (libcrypto, and the libcurl built on it)'),
    (r'^\s*depends_on "curl"', 'depends_on "curl" (Homebrew\'s libcurl, on OpenSSL, not macOS\'s)'),
    (r'^\s*depends_on xcode: \["2[6-9]', "depends_on xcode: [\"26.0\", :build] (Swift 6.2)"),
    (r'^\s*system "swift", "build", "--disable-sandbox"', 'system "swift", "build", "--disable-sandbox", …'),
    (r'^\s*bin\.install .*"[^"]*/pushctl", "[^"]*/pushctl-mock"', "bin.install of pushctl and pushctl-mock"),
    (r"Scripts/manpage\.py", "the man page from Scripts/manpage.py"),
    (r'generate_completions_from_executable\(bin/"pushctl", "--generate-completion-script"\)', "the completions"),
    (r"^\s*test do$", "a test do block"),
]


def formula_problems(path):
    """What is wrong with the Homebrew formula at `path`: a list of lines, empty when nothing is."""
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    if not path.exists():
        return [f"{where}: missing"]
    text = path.read_text(encoding="utf-8")
    problems = [f"{where}: says nowhere {what}" for pattern, what in FORMULA_NEEDS if not re.search(pattern, text, re.M)]
    if shutil.which("ruby"):
        result = subprocess.run(["ruby", "-c", str(path)], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            problems.append(f"{where}: ruby -c: {(result.stderr or result.stdout).strip()}")
    return problems


def main(arguments):
    readme = pathlib.Path(arguments[0]) if arguments else ROOT / "README.md"
    workflows = [pathlib.Path(p) for p in arguments[1:]] if len(arguments) > 1 else sorted((ROOT / ".github/workflows").glob("*.yml"))
    sources = readme_blocks(readme) + [(str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p), p.read_text(encoding="utf-8")) for p in workflows]
    if not any(where.startswith(readme.name) for where, _ in sources):
        print(f"{readme}: no workflow (```yaml block with jobs:) found", file=sys.stderr)
        return 1
    problems = [problem for where, text in sources for problem in check(where, text)]
    formula = None if arguments else ROOT / "Formula/pushctl.rb"
    if formula:
        problems += formula_problems(formula)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"workflows: {len(sources)} checked (YAML, shellcheck, pushctl installed before use, no secret outputs)")
        if formula:
            syntax = "ruby -c" if shutil.which("ruby") else "its Ruby not checked: no ruby here"
            print(f"formula: {formula.relative_to(ROOT)} checked ({syntax}, dependencies, build, install, test)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
