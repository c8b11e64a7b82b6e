#!/usr/bin/env python3
"""Writes pushctl(1) from the binaries' own argument definitions.

    Scripts/manpage.py PUSHCTL [PUSHCTL_MOCK] [PUSHCTL_APP] > pushctl.1

Reads `--experimental-dump-help` (swift-argument-parser's description of every command and
option), so the page cannot drift from the flags; adds what the parser does not know: the
environment, the exit statuses and the files. pushctl-mock and pushctl-app, when given, supply
the real options of `mock`, `demo` and `check` (pushctl only hands those over). Every character outside ASCII is
written as a groff escape or an ASCII equivalent, so the page renders the same in any locale
(`man -l` with LANG=C included) without warnings.
"""
import datetime
import json
import os
import subprocess
import sys
import time

# Characters the help text uses, as groff knows them on every output device (ascii included).
GLYPHS = {
    "\u2016": "||",  # r‖s
    "\u2014": "\\(em", "\u2013": "\\(en", "\u2026": "...",
    "\u2264": "\\(<=", "\u2265": "\\(>=", "\u00d7": "\\(mu", "\u2192": "\\(->", "\u2190": "\\(<-",
    "\u2018": "\\(oq", "\u2019": "\\(cq", "\u201c": "\\(lq", "\u201d": "\\(rq",
    "\u00b5": "\\(mc", "\u2713": "ok", "\u2717": "x", "\u00a0": "\\ ",
}

ENVIRONMENT = [
    ("PUSHCTL_KEY_FILE", "The .p8 key that signs provider tokens, as --key-file; or an RFC 7512 pkcs11: URI of a key "
                         "inside a PKCS#11 token (an HSM, a smart card, SoftHSM2), with module-path and a PIN if "
                         "needed: pin-source=file:PATH (a file holding it, preferred) or pin-value. A PIN is handed "
                         "to the engine, never shown, and belongs here, not on the command line. A PKCS#11 module, "
                         "like a signer, runs code in pushctl: name only one from trusted configuration."),
    ("PUSHCTL_KEY", "The .p8 key's PEM itself (a CI secret; \\n for newlines is read as newlines), instead of a "
                    "key file: never written to disk, never printed, and taken out of the environment at start, so "
                    "no child (a signer, xcrun, the mock) inherits it. --key-file or --signer wins over it; with "
                    "PUSHCTL_KEY_FILE also set it is a usage error."),
    ("PUSHCTL_SIGNER", "An external signer, as --signer: a command run with /bin/sh -c that reads the JWT's signing "
                       "input on standard input and prints its ES256 signature (DER or raw r||s, bytes, base64 or "
                       "base64url, Vault's vault:v1: prefix), within 30 s (then its process group is killed, exit "
                       "75; SIGINT or SIGTERM kills it too, exit 130 or 143); at most 64 KiB of its output is read. "
                       "Checked with --public-key (or KEYID.pem here) when given. Its environment is an allow list: "
                       "PATH, HOME, the locale, TMPDIR, AWS_*, VAULT_*, GOOGLE_*, CLOUDSDK_*, AZURE_*, GitHub's OIDC "
                       "request variables, the proxy and CA variables, PUSHCTL_KEY_ID and PUSHCTL_TEAM_ID; no other "
                       "PUSHCTL_* variable."),
    ("PUSHCTL_PKCS11_MODULE", "The PKCS#11 module (a .so) for a pkcs11: key, when the URI has no module-path; "
                              "default: libp11's own (p11-kit's proxy). Loading it runs its code (exit 69 when it "
                              "does not load)."),
    ("PUSHCTL_CACHE_KEY", "A secret (16 characters or more; 32 random ones are better) that seals the token cache "
                          "when no key file is on disk (a PKCS#11 token, an external signer). Without it those "
                          "tokens are not cached, and each run signs anew. Taken out of the environment at start."),
    ("PUSHCTL_KEY_ID", "The key's 10-character Key ID, as --key-id (default: the <ID> in a file named AuthKey_<ID>.p8)."),
    ("PUSHCTL_TEAM_ID", "The 10-character Team ID, as --team-id."),
    ("PUSHCTL_TOPIC", "The app's bundle id, as --topic."),
    ("PUSHCTL_ENV", "sandbox (the default) or production; --sandbox and --production win."),
    ("PUSHCTL_ENDPOINT", "Send to this https://host[:port] instead of Apple's hosts (e.g. pushctl mock's), as --endpoint."),
    ("PUSHCTL_CACERT", "Also trust this CA certificate (PEM), as --cacert."),
    ("PUSHCTL_JWT", "A provider token minted elsewhere (e.g. by pushctl jwt on another machine), as --jwt; never put it on a command line."),
    ("PUSHCTL_CERT", "A client certificate (.p12 or PEM) for certificate authentication, as --cert."),
    ("PUSHCTL_CERT_PASSWORD", "The password of the PUSHCTL_CERT .p12 file."),
    ("PUSHCTL_PROXY", "Connect through this proxy, as --proxy: http://, https://, socks5:// or socks5h://HOST:PORT."),
    ("PUSHCTL_METRICS_PUSH", "The Pushgateway send --metrics-push pushes to; a URL with a password belongs here, not on "
                             "the command line."),
    ("PUSHCTL_CACHE_DIR", "Where provider tokens are cached for reuse (up to 50 minutes, mode 0600); "
                          "default $XDG_CACHE_HOME/pushctl, else ~/.cache/pushctl. Used only when it is a directory "
                          "owned by you and writable by no one else."),
    ("https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY",
     "Read by libcurl when neither --proxy nor PUSHCTL_PROXY is given (in that order)."),
    ("no_proxy, NO_PROXY",
     "Hosts libcurl reaches without the proxy from https_proxy or all_proxy. "
     "--proxy and PUSHCTL_PROXY win over it: a proxy given to pushctl is used for every host."),
    ("XDG_CACHE_HOME, HOME", "Where the token cache goes when PUSHCTL_CACHE_DIR is not set."),
    ("TMPDIR", "Where a tokens or requests file read from a pipe is kept (unlinked) while it is sent."),
    ("NO_COLOR", "Turns colour off (colour is only ever used on a terminal)."),
    ("PUSHCTL_APP", "The app a payload is checked against, as --app of send, check and mock: its source folder "
                    "(an Xcode project's) or a built .app. Nothing of it is read unless a command is given it."),
    ("PUSHCTL_LANG", "The language of messages and text output: en or es, as --lang. An empty value is warned about."),
    ("LC_ALL, LC_MESSAGES, LANG", "Read in that order when neither --lang nor PUSHCTL_LANG is given: a value starting "
                                  "with es means Spanish. JSON output's keys, reasons and statuses never change; its "
                                  "explanation field follows the language only when --lang is given. --help, this page "
                                  "and the completions are in English."),
    ("COLUMNS", "The width text is wrapped to when the output is not a terminal (a terminal's own width is used otherwise)."),
    ("CI_NODE_INDEX, CI_NODE_TOTAL", "GitLab's parallel job: --shard auto sends shard CI_NODE_INDEX of CI_NODE_TOTAL."),
    ("AWS_BATCH_JOB_ARRAY_INDEX, AWS_BATCH_JOB_ARRAY_SIZE", "An AWS Batch array job: --shard auto sends shard INDEX + 1 of SIZE."),
    ("JOB_COMPLETION_INDEX", "A Kubernetes Indexed Job: --shard auto/N sends shard INDEX + 1 of N (N: the Job's completions). "
                             "A variable set but empty or not a number, or an index outside the count, is a usage error."),
    ("GITHUB_STEP_SUMMARY", "When set (GitHub Actions), send and report append a Markdown summary to this file; "
                            "with GITHUB_ACTIONS=true it also prints one ::error annotation per rejection reason."),
]

NOTES = [
    ("The libcurl pushctl sends with (pushctl --version --verbose)",
     "pushctl --version --verbose prints the version, then libcurl's version, whether it has HTTP/2 and the TLS "
     "library it was built on, as doctor's libcurl row does. pushctl sends only through a libcurl with HTTP/2 "
     "(nghttp2) built on OpenSSL 3: any other (macOS's own, on LibreSSL and Secure Transport; one on GnuTLS; one "
     "without HTTP/2) is refused before anything is sent, exit 69, saying what to install."),
    ("A notification sent twice (send --journal)",
     "A journaled run gives every device notification an apns-id, and each one a device displays (push type "
     "alert) an apns-collapse-id: pushctl- and 22 base64url characters of SHA-256 over the run's id (kept in the "
     "journal's first line), the notification's place in the list and its token. Every try, and --resume after a "
     "stop, a kill or a lost answer, sends the same two ids, so a copy that reaches the device twice replaces the "
     "first while it is still in Notification Center; one already dismissed or opened is shown again. Background, "
     "voip, Live Activity and the other push types are not displayed as alerts and get no collapse id. An id the "
     "user gives (--collapse-id, --apns-id, a requests-file line's collapse-id or apns-id) is never replaced; "
     "--no-collapse-id sends no collapse id (the apns-id stays). A journal written before runs had an id derives "
     "one from the run it names."),
    ("Pacing (send --rate N, --spread DURATION)",
     "--rate starts at most N requests a second across all the run's connections, retries included, by a token "
     "bucket holding 10 ms of the rate (at least one request): the run waits for the next start without using the "
     "CPU. --spread DURATION sets the rate to the notifications' count over it (not with --follow, whose count is "
     "not known). Each process paces itself: with --shard K/N the rate is per shard, so N shards send up to N times "
     "it; give each --rate TOTAL/N for a fleet's total. A stop, a server that is slow to answer, or a small "
     "--concurrency can make a run slower than its rate, never faster."),
    ("Following a stream (send --follow)",
     "With --tokens-file or --requests-file (- for standard input, a pipe or a FIFO), --follow reads the lines as "
     "they arrive, with no spool and nothing read ahead: the run waits on the input and its transfers at once "
     "(poll(2), no spinning), checks each line and sends it when there is room. A line that is not a notification "
     "(a bad token, bad JSON, over the length limit) gets its own result, line N, rejected and not sent (exit 1), "
     "and the stream goes on. Results are written in input order as soon as they are final; at most 4096 lines are "
     "read past the first result not yet written, so memory stays flat over an endless stream, and a token given "
     "twice is sent twice. The end of the input ends the run with its summary; a signal stops it as any run "
     "(the lines not yet read are not this run's). --shard skips the lines of other shards; --rate paces the "
     "stream. Not with --journal or --resume: a stream is not read twice, so let the queue deliver again what has "
     "no result (jsonl output names each). Not with --spread, --dry-run, --detect-environment or --apns-id."),
]

EXIT_STATUS = [
    ("0", "Every notification accepted (for jwt verify: the signature is valid and APNs' checks passed; "
          "for doctor: no check failed)."),
    ("1", "APNs rejected at least one notification (final, after the retries allowed); for jwt verify, the "
          "signature or an APNs check failed; for doctor, a check failed."),
    ("64", "Usage error: bad or missing flags."),
    ("65", "Bad input data: payload, device token, header value, key contents (a damaged .p8: a private scalar "
           "out of range, a public half that does not match), a malformed JWT, an external signer that failed or "
           "printed no valid signature. Nothing was sent."),
    ("66", "An input file is missing or unreadable, an external signer that cannot be started, or no key in the "
           "PKCS#11 token for the URI (or a wrong PIN). Nothing was sent."),
    ("69", "APNs could not be reached: DNS, connection, TLS or proxy; or OpenSSL cannot reach a PKCS#11 token "
           "(no pkcs11 engine, a module that does not load)."),
    ("73", "An output file could not be created (key generate never overwrites a key; --unregistered-out)."),
    ("74", "The results could not be written (standard output closed, or the disk full); every notification "
           "was still sent."),
    ("75", "Temporary failure: retries exhausted on 429, 5xx or timeouts, a server that stopped answering, "
           "the run's time budget spent, a tokens file that changed during the run, an external signer that "
           "did not answer within 30 s, or the --journal held by another run (nothing was sent). For report: some "
           "tokens are left to send again, or a shard is missing."),
    ("129, 130, 143", "A run stopped by SIGHUP, SIGINT or SIGTERM: no new request was started, those in flight had "
                      "a grace (5 s, or what was left of --timeout), and every notification got one result "
                      "(in-doubt or not-sent for the unanswered ones) and the summary; --journal with --resume "
                      "carries the run on."),
]


def text(value):
    """Plain text for groff: escapes, no leading control characters, ASCII only."""
    out = []
    for ch in value.replace("\\", "\\e").replace("-", "\\-"):
        if ord(ch) < 128:
            out.append(ch)
        else:
            out.append(GLYPHS.get(ch, "\\[u%04X]" % ord(ch)))
    line = "".join(out)
    return "\\&" + line if line.startswith((".", "'")) else line


def paragraphs(discussion):
    """A discussion as groff: blank lines start paragraphs, indented lines (examples) stay as typed."""
    lines = []
    block = []  # the indented lines being collected

    def flush():
        if block:
            while block and not block[-1].strip():
                block.pop()
            lines.extend([".PP", ".RS 2", ".nf"] + [text(b) if b.strip() else ".sp" for b in block] + [".fi", ".RE"])
            block.clear()

    pending_break = False
    for raw in discussion.rstrip().split("\n"):
        if raw.startswith("  ") or (block and not raw.strip()):
            if not block:
                pending_break = False
            block.append(raw[2:] if raw.startswith("  ") else "")
            continue
        flush()
        if not raw.strip():
            pending_break = True
            continue
        if pending_break or not lines or lines[-1] == ".RE":
            lines.append(".PP")
            pending_break = False
        lines.append(text(raw))
    flush()
    return lines


def option_tag(argument):
    names = argument.get("names") or []
    shown = []
    for name in names:
        prefix = "-" if name["kind"] == "short" else "--"
        shown.append("\\fB" + text(prefix + name["name"]) + "\\fR")
    tag = ", ".join(shown) if shown else "\\fI" + text(argument.get("valueName", "value")) + "\\fR"
    if argument["kind"] == "option":
        tag += " \\fI" + text(argument.get("valueName", "value")) + "\\fR"
    if argument.get("isRepeating") and argument["kind"] != "flag":
        tag += " ..."
    return tag


def command(info, path, out):
    name = " ".join(path)
    out += [".SS " + '"' + text(name) + '"', text(info.get("abstract", ""))]
    if info.get("discussion"):
        out += paragraphs(info["discussion"])
    for argument in info.get("arguments", []):
        if not argument.get("shouldDisplay", True):
            continue
        if argument.get("preferredName", {}).get("name") in ("help", "version"):
            continue
        out += [".TP", option_tag(argument), text(argument.get("abstract") or "")]
        if argument.get("defaultValue") and argument["kind"] == "option":
            out[-1] += " " + text("(default: %s)" % argument["defaultValue"])
    for sub in info.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            command(sub, path + [sub["commandName"]], out)


def dump(binary):
    result = subprocess.run([binary, "--experimental-dump-help"], capture_output=True, check=True)
    return json.loads(result.stdout)["command"]


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit("usage: manpage.py PUSHCTL [PUSHCTL_MOCK] [PUSHCTL_APP] > pushctl.1")
    root = dump(sys.argv[1])
    version = subprocess.run([sys.argv[1], "--version"], capture_output=True, text=True).stdout.strip()
    for path in sys.argv[2:]:
        companion = {sub["commandName"]: sub for sub in dump(path).get("subcommands", [])}
        root["subcommands"] = [companion.get(sub["commandName"], sub) if sub["commandName"] in ("mock", "demo", "check") else sub
                               for sub in root["subcommands"]]
    mentioned = json.dumps(root)
    # SOURCE_DATE_EPOCH keeps the page reproducible in a release build.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    stamp = datetime.datetime.fromtimestamp(int(epoch) if epoch else time.time(), datetime.timezone.utc)
    out = [
        '.\\" pushctl(1), written by Scripts/manpage.py from the argument definitions.',
        '.TH PUSHCTL 1 "%s" "pushctl %s" "User Commands"' % (stamp.strftime("%Y-%m-%d"), text(version)),
        ".SH NAME",
        "pushctl \\- " + text(root.get("abstract", "")),
        ".SH SYNOPSIS",
        ".B pushctl",
        ".I command",
        "[\\fIoptions\\fR]",
        ".SH DESCRIPTION",
    ]
    # The top-level discussion's exit list is replaced by EXIT STATUS below.
    discussion = root.get("discussion", "").split("\n\nExit status:")[0]
    out += paragraphs(discussion)
    out += [".SH COMMANDS"]
    for sub in root.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            command(sub, ["pushctl", sub["commandName"]], out)
    out += [".SH ENVIRONMENT", "Flags win over the environment."]
    for name, meaning in ENVIRONMENT:
        # A variable of a command this build does not have (the cert command's) is left out.
        if name.startswith("PUSHCTL_CERT") and name not in mentioned:
            continue
        out += [".TP", "\\fB" + text(name) + "\\fR", text(meaning)]
    out += [".SH EXIT STATUS"]
    for code, meaning in EXIT_STATUS:
        out += [".TP", "\\fB" + code + "\\fR", text(meaning)]
    out += [".PP", text("When one run has several outcomes, the first of 69, 75, 1 in that order wins; "
                        "74 outranks them all, since the caller could not read the results.")]
    out += [".SH NOTES"]
    for title, meaning in NOTES:
        out += [".TP", "\\fB" + text(title) + "\\fR", text(meaning)]
    out += [".SH FILES", ".TP", text("~/.cache/pushctl/"),
            text("Cached provider tokens (see PUSHCTL_CACHE_DIR)."),
            ".TP", text("--journal, --unregistered-out, --simulator-file"),
            text("Made private (mode 0600: they hold device tokens) and never opened through a symbolic link: "
                 "a link at the path is refused (exit 73). A journal is locked as a file, so a hard link or "
                 "another path to it is still one run."),
            ".SH SEE ALSO", "\\fBcurl\\fR(1), \\fBopenssl\\fR(1)"]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
