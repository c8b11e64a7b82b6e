#!/usr/bin/env python3
"""Checks that the GitHub Actions workflows run as written: the repository's own (.github/workflows)
and every ```yaml block of README.md that holds `jobs:`, and Scripts/recipes/github-fleet.yml (the
README's fleet of shards as a workflow to copy).

  - the YAML parses, and each job has steps;
  - every `run:` script passes shellcheck (as bash, with ${{ … }} expressions as placeholders);
  - every job that calls pushctl installs it first (a step running Scripts/install.sh, one that
    downloads a release, or the repository's action), in that job: jobs do not share installed tools;
  - a step that uses the repository's action (…/.github/actions/send@…) gives it only inputs it
    has, and the ones its mode needs;
  - no job output carries a secret (GitHub drops outputs that hold one).

With no arguments it also checks the Homebrew formula, Formula/pushctl.rb: valid Ruby (`ruby -c`,
where ruby is installed) that builds and installs what Scripts/install.sh does; and the engines'
recipes, each for what that engine needs:
  - .github/actions/send/action.yml, a composite action: every run step names its shell and passes
    shellcheck, and none puts ${{ inputs.… }} into its script (an input goes in through env:, never
    into the script's text); it installs a release, restores the JWT cache, sends, and uploads the
    journal; no output carries the key;
  - Scripts/recipes/kubernetes-indexed-job.yaml: an Indexed Job (completionMode: Indexed, restartPolicy
    Never, podReplacementPolicy: Failed), whose podFailurePolicy fails the Job on 64, 65 and 66 and
    retries on 75 (Ignore or Count); its script passes shellcheck, installs pushctl, and sends with
    --shard auto/N, N its completions, and a --journal;
  - Scripts/recipes/gitlab-ci.yml: every script passes shellcheck; a job that calls pushctl installs
    it first; a `parallel: N` job sends with --shard auto (auto/N: N its parallel).

Usage: Scripts/check-workflows.py [README.md] [WORKFLOW.yml…]   (default: the repository's)
       Scripts/check-workflows.py --recipe action|kubernetes|gitlab PATH   (one recipe file)
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


ACTION = ROOT / ".github/actions/send/action.yml"
USES_ACTION = re.compile(r"/\.github/actions/send@|^\./\.github/actions/send$")


def action_inputs():
    """The repository action's inputs (name → whether it has a default), or None when it is missing."""
    try:
        document = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    return {name: "default" in (spec or {}) for name, spec in ((document or {}).get("inputs") or {}).items()}


def action_step_problems(where, step):
    """What is wrong with a step's use of the repository's action: inputs it does not have, or not
    the ones its mode needs."""
    inputs = action_inputs()
    if inputs is None:
        return [f"{where}: uses {step.get('uses')}, and {ACTION.relative_to(ROOT)} does not parse"]
    given = step.get("with") or {}
    problems = [f"{where}: the action has no input '{name}'" for name in given if name not in inputs]
    mode = str(given.get("mode", "send"))
    needed = {"install": [], "sign": ["key", "key-id", "team-id"], "send": ["key", "key-id", "team-id", "topic"]}.get(mode)
    if needed is None:
        problems.append(f"{where}: mode '{mode}' is not send, sign or install")
    problems += [f"{where}: mode {mode} needs the input '{name}'" for name in needed or [] if not given.get(name)]
    return problems


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
            step_where = f"{here} step {index}" + (f" ({step.get('name')})" if isinstance(step, dict) and step.get("name") else "")
            if isinstance(step, dict) and USES_ACTION.search(str(step.get("uses", ""))):
                problems += action_step_problems(step_where, step)
                installed = True
                continue
            script = step.get("run") if isinstance(step, dict) else None
            if not isinstance(script, str):
                continue
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


def load(path):
    """A recipe's name as messages give it, and its YAML documents, or the problem reading it."""
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    try:
        return where, [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d], None
    except (OSError, yaml.YAMLError) as error:
        return where, [], f"{where}: does not parse: {str(error).splitlines()[0]}"


def action_problems(path):
    """What is wrong with the repository's composite action (see the module's doc)."""
    where, documents, problem = load(path)
    if problem:
        return [problem]
    document = documents[0] if documents else {}
    runs = (document or {}).get("runs") or {}
    if runs.get("using") != "composite":
        return [f"{where}: not a composite action (runs.using: composite)"]
    problems, steps = [], runs.get("steps") or []
    uses = [str(step.get("uses", "")) for step in steps if isinstance(step, dict)]
    scripts = []
    for index, step in enumerate(steps, 1):
        script = step.get("run") if isinstance(step, dict) else None
        if not isinstance(script, str):
            continue
        step_where = f"{where} step {index}" + (f" ({step.get('name')})" if step.get("name") else "")
        if not step.get("shell"):
            problems.append(f"{step_where}: a composite action's run step must name its shell")
        if re.search(r"\$\{\{\s*(inputs|github\.event)\.", script):
            problems.append(f"{step_where}: puts an input into the script's text (pass it through env:)")
        problems += shellcheck(step_where, script)
        scripts.append(script)
    needs = [
        (any(INSTALLS.search(script) for script in scripts), "installs a pushctl release"),
        (any(use.startswith("actions/cache/restore@") for use in uses), "restores the JWT cache (actions/cache/restore)"),
        (any(re.search(r"\bsend\b", script) and CALLS_PUSHCTL.search(script) for script in scripts), "sends (pushctl send)"),
        (any(step.get("uses", "").startswith("actions/upload-artifact@") and "journal" in str(step.get("with", {}).get("path", ""))
             for step in steps if isinstance(step, dict)), "uploads the journal (actions/upload-artifact)"),
    ]
    problems += [f"{where}: never {what}" for ok, what in needs if not ok]
    for output, spec in ((document or {}).get("outputs") or {}).items():
        if re.search(r"inputs\.key\b|secrets\.|github-token", str((spec or {}).get("value", ""))):
            problems.append(f"{where}: output '{output}' would carry a secret")
    return problems


def container_scripts(spec):
    """The scripts of a pod spec's containers run as `bash -c SCRIPT` (or sh)."""
    scripts = []
    for container in (spec or {}).get("containers") or []:
        words = [str(word) for word in (container.get("command") or []) + (container.get("args") or [])]
        for index, word in enumerate(words[:-1]):
            if word == "-c" and words and words[0].split("/")[-1] in ("bash", "sh"):
                scripts.append((container.get("name", "?"), words[index + 1]))
    return scripts


def shard_count_problems(where, script, count):
    """--shard auto[/N] in `script`, N (when given) being `count`; a problem when not."""
    used = re.findall(r"--shard[= ]+\"?auto(?:/(\d+))?", script)
    if not used:
        return [f"{where}: does not send with --shard auto"]
    return [f"{where}: --shard auto/{n} against {count} copies" for n in used if n and count is not None and int(n) != count]


def kubernetes_problems(path):
    """What is wrong with the Kubernetes Indexed Job recipe (see the module's doc)."""
    where, documents, problem = load(path)
    if problem:
        return [problem]
    jobs = [d for d in documents if isinstance(d, dict) and d.get("kind") == "Job"]
    if not jobs:
        return [f"{where}: no Job"]
    problems = []
    for job in jobs:
        spec = job.get("spec") or {}
        here = f"{where} Job {(job.get('metadata') or {}).get('name', '?')}"
        pod = (spec.get("template") or {}).get("spec") or {}
        for key, wanted in (("completionMode", "Indexed"), ("podReplacementPolicy", "Failed")):
            if spec.get(key) != wanted:
                problems.append(f"{here}: {key} is not {wanted}")
        if pod.get("restartPolicy") != "Never":
            problems.append(f"{here}: restartPolicy is not Never (podFailurePolicy needs it)")
        rules = (spec.get("podFailurePolicy") or {}).get("rules") or []

        def codes(actions):
            found = set()
            for rule in rules:
                exits = rule.get("onExitCodes") or {}
                if rule.get("action") in actions and exits.get("operator") == "In":
                    found |= {int(v) for v in exits.get("values") or []}
            return found
        if not {64, 65, 66} <= codes({"FailJob"}):
            problems.append(f"{here}: podFailurePolicy does not fail the Job on 64, 65 and 66 (FailJob)")
        if 75 not in codes({"Ignore", "Count"}):
            problems.append(f"{here}: podFailurePolicy does not retry on 75 (Ignore or Count)")
        scripts = container_scripts(pod)
        if not scripts:
            problems.append(f"{here}: no container runs a bash -c script")
        for name, script in scripts:
            script_where = f"{here} container {name}"
            problems += shellcheck(script_where, script)
            if CALLS_PUSHCTL.search(script):
                calls = CALLS_PUSHCTL.search(script).start()
                install = INSTALLS.search(script) or re.search(r"\$PUSHCTL_RELEASES", script)
                if not install or install.start() > calls:
                    problems.append(f"{script_where}: calls pushctl before installing it")
                problems += shard_count_problems(script_where, script, spec.get("completions"))
                if "--journal" not in script:
                    problems.append(f"{script_where}: sends without a --journal (a pod started again would send it all again)")
    return problems


def gitlab_problems(path):
    """What is wrong with the GitLab CI recipe (see the module's doc)."""
    where, documents, problem = load(path)
    if problem:
        return [problem]
    problems, jobs = [], 0
    for name, job in (documents[0] if documents else {}).items():
        if name.startswith(".") or not isinstance(job, dict) or "script" not in job:
            continue
        jobs += 1
        here = f"{where} job {name}"

        def lines(key):
            value = job.get(key) or []
            return [value] if isinstance(value, str) else [str(v) for v in value]
        before, script = "\n".join(lines("before_script")), "\n".join(lines("script"))
        problems += shellcheck(here, before + "\n" + script)
        if CALLS_PUSHCTL.search(script) and not (INSTALLS.search(before) or re.search(r"\$PUSHCTL_RELEASES", before)):
            problems.append(f"{here}: calls pushctl, and its before_script installs nothing")
        if "parallel" in job:
            problems += shard_count_problems(here, script, job["parallel"] if isinstance(job["parallel"], int) else None)
    if not jobs:
        problems.append(f"{where}: no jobs")
    return problems


RECIPE_CHECKS = {"action": action_problems, "kubernetes": kubernetes_problems, "gitlab": gitlab_problems}


def main(arguments):
    if arguments[:1] == ["--recipe"]:
        if len(arguments) != 3 or arguments[1] not in RECIPE_CHECKS:
            print("usage: check-workflows.py --recipe action|kubernetes|gitlab PATH", file=sys.stderr)
            return 64
        problems = RECIPE_CHECKS[arguments[1]](pathlib.Path(arguments[2]).resolve())
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    readme = pathlib.Path(arguments[0]) if arguments else ROOT / "README.md"
    workflows = [pathlib.Path(p) for p in arguments[1:]] if len(arguments) > 1 else \
        sorted((ROOT / ".github/workflows").glob("*.yml")) + [ROOT / "Scripts/recipes/github-fleet.yml"]
    sources = readme_blocks(readme) + [(str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p), p.read_text(encoding="utf-8")) for p in workflows]
    if not any(where.startswith(readme.name) for where, _ in sources):
        print(f"{readme}: no workflow (```yaml block with jobs:) found", file=sys.stderr)
        return 1
    problems = [problem for where, text in sources for problem in check(where, text)]
    formula = None if arguments else ROOT / "Formula/pushctl.rb"
    recipes = [] if arguments else [
        (ACTION, action_problems), (ROOT / "Scripts/recipes/kubernetes-indexed-job.yaml", kubernetes_problems),
        (ROOT / "Scripts/recipes/gitlab-ci.yml", gitlab_problems),
    ]
    if formula:
        problems += formula_problems(formula)
    for path, check_recipe in recipes:
        problems += [f"{path.relative_to(ROOT)}: missing"] if not path.exists() else check_recipe(path)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"workflows: {len(sources)} checked (YAML, shellcheck, pushctl installed before use, no secret outputs)")
        if formula:
            syntax = "ruby -c" if shutil.which("ruby") else "its Ruby not checked: no ruby here"
            print(f"formula: {formula.relative_to(ROOT)} checked ({syntax}, dependencies, build, install, test)")
        for path, _ in recipes:
            print(f"recipe: {path.relative_to(ROOT)} checked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
