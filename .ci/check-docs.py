#!/usr/bin/env python3
"""Docs that match the binary: every `minkowski` subcommand and `--flag` that README.md and
docs/*.md name must exist in the binary's `--help` (of the subcommand it belongs to), and every
relative Markdown link in the repository's Markdown files must resolve (the file, and the
`#anchor` when there is one: a heading's GitHub slug or an explicit `<a id=...>`).

Which flag belongs to which command: code (fenced blocks and `inline spans`) is read as command
lines. A line or span that runs the engine (`minkowski`, `./minkowski-dev`,
`target/release/minkowski`, after `nice`, `timeout` or `VAR=value` prefixes) names its
subcommand in the next word, and every `--flag` after it (up to the end of the command,
backslash continuations included) must be one of that subcommand's. A span that is only a
flag (`--sample N` in a table) belongs to the command the text last showed; when that was
another program (`cargo`, `scripts/label.py`, `pkg-config`, ...) it is not checked. A word
after `minkowski` that is neither a subcommand, nor a flag, nor a quoted UCI line, nor a UCI
command is an unknown subcommand.

Usage: python3 .ci/check-docs.py [--bin target/release/minkowski] [FILE.md ...]
(default: README.md and docs/*.md for flags, every tracked Markdown file for links).
`--self-test` checks the checker on planted mistakes. Exit status 1 lists every problem.
"""

import argparse
import os
import re
import subprocess
import sys
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Words that start a command line before the program itself.
PREFIXES = {"nice", "nohup", "timeout", "time", "/usr/bin/time", "exec", "$", "sudo"}
# UCI commands the binary runs when given as arguments (`minkowski isready quit`).
UCI_WORDS = {"uci", "isready", "quit", "ucinewgame", "position", "go", "stop", "setoption",
             "ponderhit", "debug", "register", "d", "eval", "bench", "genfens"}
SHELL_BLOCKS = {"", "sh", "bash", "shell", "console", "text"}
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
FENCE = re.compile(r"^\s*(```|~~~)")


def run_help(binary, args):
    out = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise SystemExit(f"check-docs: `{binary} {' '.join(args)} --help` failed: {out.stderr}")
    return out.stdout


def read_cli(binary):
    """{subcommand or "": set of its flags} from the binary's help texts."""
    top = run_help(binary, [])
    subcommands = []
    in_commands = False
    for line in top.splitlines():
        if line.startswith("Commands:"):
            in_commands = True
            continue
        if in_commands:
            m = re.match(r"^  ([a-z][a-z0-9-]*)\s", line + " ")
            if not m:
                break
            if m.group(1) != "help":
                subcommands.append(m.group(1))
    flags_of = lambda text: set(re.findall(r"(?:^|\s|,)(--[a-z][a-z0-9-]*)", text))
    cli = {"": flags_of(top)}
    texts = [top]
    for sub in subcommands:
        text = run_help(binary, [sub])
        cli[sub] = flags_of(text)
        texts.append(text)
    # Flags that take a value (`--config <CONFIG>`): the word after them is not a subcommand.
    takes_value = set()
    for text in texts:
        takes_value.update(re.findall(r"(--[a-z][a-z0-9-]*)[ =]<", text))
    return cli, takes_value


def is_engine(word):
    word = word.strip("`'\"")
    base = word.rsplit("/", 1)[-1]
    return base in ("minkowski", "minkowski-dev", "minkowski.exe") and "::" not in word


def commands_in(text, pipes=True):
    """Split a piece of code into commands: lists of shell-ish words (quotes kept together).
    In a usage line (`[--movetime MS | --depth N]`) a `|` means "or", not a pipe."""
    commands = []
    for part in re.split(r"&&|\|\||;|\||\n" if pipes else r"&&|;|\n", text):
        words = re.findall(r'"[^"]*"|\'[^\']*\'|\S+', part)
        if words:
            commands.append(words)
    return commands


def program_of(words):
    """(index of the program word, the word) after prefixes such as `nice -n 19` or `X=1`."""
    i = 0
    while i < len(words):
        w = words[i]
        if w in PREFIXES or re.match(r"^[A-Z_][A-Z0-9_]*=", w):
            i += 1
            # The numeric or option arguments of nice/timeout/time.
            while i < len(words) and (words[i].startswith("-") or re.match(r"^[\d.]+$", words[i])
                                      or words[i].startswith('"cpu_user')):
                i += 1
            continue
        return i, w
    return None, None


class Checker:
    def __init__(self, cli, takes_value):
        self.cli = cli
        self.takes_value = takes_value
        self.problems = []
        self.flags_checked = 0
        self.commands_checked = 0

    def problem(self, where, text):
        self.problems.append(f"{where}: {text}")

    def check_command(self, words, where):
        """Check one command; return the subcommand context it sets ('' for the top level,
        None when it is not the engine)."""
        i, program = program_of(words)
        if program is None:
            return "keep"
        if not is_engine(program):
            return None
        rest = words[i + 1:]
        sub = ""
        skip = False
        for w in rest:
            if skip:
                skip = False
                continue
            if w.startswith("-"):
                skip = w in self.takes_value
                continue
            if w.startswith(("<", "[", '"', "'", "$", "(")) or w in ("...", "\\"):
                break
            word = w.strip("`,.)")
            if word in self.cli:
                sub = word
            elif word not in UCI_WORDS:
                self.problem(where, f"`minkowski {word}`: no such subcommand "
                                    f"(the binary has: {', '.join(s for s in self.cli if s)})")
            break
        known = self.cli[sub] | self.cli[""] | {"--help", "--version"}
        self.commands_checked += 1
        for flag in FLAG.findall(" ".join(rest)):
            self.flags_checked += 1
            if flag not in known:
                name = f"minkowski {sub}".strip()
                self.problem(where, f"`{flag}` is not an option of `{name}` ({name} --help)")
        return sub

    def check_flags_alone(self, span, context, where):
        if context is None or context == "keep":
            return
        for flag in FLAG.findall(span):
            self.flags_checked += 1
            if flag not in self.cli[context] | self.cli[""] | {"--help", "--version"}:
                name = f"minkowski {context}".strip()
                self.problem(where, f"`{flag}` is not an option of `{name}` ({name} --help)")

    def check_file(self, path):
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        context = None
        block = None
        pending = ""
        for number, line in enumerate(lines, 1):
            where = f"{rel}:{number}"
            fence = FENCE.match(line)
            if fence:
                # Shell code is checked; TOML, Rust, Python and the like are not commands.
                info = line.strip()[3:].strip().lower()
                block = None if block is not None else info in SHELL_BLOCKS
                pending = ""
                continue
            if block is False:
                continue
            if block is not None:
                # A fenced line: one command, continued by a trailing backslash.
                code = re.sub(r"(^|\s)#.*$", "", line)  # shell comments
                if re.match(r"^\s*\$\s", code):
                    code = code.split("$", 1)[1]
                pending += " " + code.rstrip().rstrip("\\")
                if code.rstrip().endswith("\\"):
                    continue
                for words in commands_in(pending):
                    got = self.check_command(words, where)
                    if got != "keep":
                        context = got
                pending = ""
                continue
            for span in re.findall(r"`([^`]+)`", line):
                span = span.replace("\\|", "|")
                if span.lstrip().startswith("--"):
                    self.check_flags_alone(span, context, where)
                    continue
                for words in commands_in(span, pipes=False):
                    i, program = program_of(words)
                    if program is None:
                        continue
                    # An engine command is checked. A span with flags is an example of its
                    # program's use and sets the context for flags that follow alone; a mere
                    # mention (`minkowski datagen` in a sentence) does not.
                    has_flags = bool(FLAG.search(" ".join(words[i + 1:])))
                    if is_engine(program):
                        got = self.check_command(words, where)
                        if has_flags:
                            context = got
                    elif has_flags and re.match(r"^[\w./-]+$", program):
                        context = None


def slug(heading, seen):
    """GitHub's anchor for a heading text: markup dropped, lower case, punctuation removed,
    spaces as hyphens; a repeated slug gets -1, -2, ..."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # HTML tags
    text = text.replace("`", "").strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    text = text.replace(" ", "-")
    base, n = text, seen.get(text, 0)
    seen[text] = n + 1
    return base if n == 0 else f"{base}-{n}"


def anchors_of(path, cache={}):
    if path not in cache:
        seen, found, block = {}, set(), False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    block = not block
                    continue
                if block:
                    continue
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    found.add(slug(m.group(1), seen))
                found.update(re.findall(r'<a\s+(?:name|id)="([^"]+)"', line))
        cache[path] = found
    return cache[path]


def check_links(path, problems):
    rel = os.path.relpath(path, ROOT)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    block = False
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            block = not block
            continue
        if block:
            continue
        text = re.sub(r"`[^`]*`", "", line)  # inline code is not a link
        targets = re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text)
        targets += re.findall(r"^\s*\[[^\]]+\]:\s*(\S+)", text)
        for target in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = f"{rel}:{number}"
            if not os.path.exists(dest):
                problems.append(f"{where}: link to `{target}`: {os.path.relpath(dest, ROOT)} does not exist")
                continue
            if anchor and dest.endswith(".md") and anchor not in anchors_of(dest):
                problems.append(f"{where}: link to `{target}`: no heading `#{anchor}` in "
                                f"{os.path.relpath(dest, ROOT)}")


def markdown_files():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "*.md"], capture_output=True, text=True)
    files = [os.path.join(ROOT, f) for f in out.stdout.split()] if out.returncode == 0 else []
    if not files:  # no git: walk the tree
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs if x not in ("target", ".git", "node_modules")]
            files += [os.path.join(d, n) for n in names if n.endswith(".md")]
    return sorted(f for f in files if os.path.exists(f))


def self_test(cli, takes_value):
    """The checker must catch each planted mistake and accept the correct forms."""
    import tempfile
    cases = [
        ("```sh\nminkowski epd x.epd --movetime 100 --jobs 2\n```\n", 0),
        ("```sh\nminkowski epd x.epd --movetyme 100\n```\n", 1),
        ("```sh\nnice -n 19 ./target/release/minkowski bench \\\n    --deep 5\n```\n", 1),
        ("Run `minkowski banch` first.\n", 1),
        ("```sh\nminkowski datagen --out d.txt\n```\n\n| `--sample N` | ok |\n| `--sampel N` | typo |\n", 1),
        ("```sh\ncargo test --release --workspace\n```\n| `--whatever` | another program's |\n", 0),
        ('```sh\n./minkowski "position startpos" "go depth 10" quit\n```\n', 0),
        ("`minkowski --config my.toml` and `minkowski::eval::Evaluator`\n", 0),
        ("```toml\nminkowski = { path = \"x\" }\n```\n", 0),
        ("| `minkowski epd <FILE>... [--movetime MS \\| --dept N]` | x |\n", 1),
        ("```sh\nminkowski tune d.txt --epochs 9\n```\nSee `minkowski datagen`.\n`--only X`\n", 0),
    ]
    failures = 0
    for text, want in cases:
        with tempfile.NamedTemporaryFile("w", suffix=".md", dir=ROOT, delete=False) as f:
            f.write(text)
        try:
            checker = Checker(cli, takes_value)
            checker.check_file(f.name)
        finally:
            os.unlink(f.name)
        if len(checker.problems) != want:
            failures += 1
            print(f"self-test: {text!r}: expected {want} problem(s), got {checker.problems}")
    links = []
    with tempfile.NamedTemporaryFile("w", suffix=".md", dir=os.path.join(ROOT, "docs"), delete=False) as f:
        f.write("[ok](uci.md#configuration) [bad](uci.md#no-such-heading) [gone](nothere.md)\n"
                "[web](https://example.org/x.md) `[code](nothere.md)`\n")
    try:
        check_links(f.name, links)
    finally:
        os.unlink(f.name)
    if len(links) != 2:
        failures += 1
        print(f"self-test: links: expected 2 problems, got {links}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "minkowski"))
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if not os.path.exists(args.bin):
        raise SystemExit(f"check-docs: no binary at {args.bin} (build it, or pass --bin)")
    cli, takes_value = read_cli(args.bin)
    if args.self_test:
        failures = self_test(cli, takes_value)
        print(f"check-docs self-test: {'ok' if failures == 0 else f'{failures} failed'}")
        return 1 if failures else 0
    docs = args.files or [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    checker = Checker(cli, takes_value)
    for path in docs:
        checker.check_file(path)
    problems = checker.problems
    for path in (args.files or markdown_files()):
        check_links(path, problems)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-docs: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"docs: ok ({checker.commands_checked} engine commands and {checker.flags_checked} flags "
          f"in {len(docs)} files against the `--help` of {len(cli) - 1} subcommands; the links of "
          f"{len(args.files or markdown_files())} Markdown files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
