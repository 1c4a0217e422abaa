#!/usr/bin/env python3
"""Checks the links of README.md and of every page of the user guide (docs/*.md).

Each relative link must name a file or folder of the repository, and each `#anchor` a
heading of the page it points to, by the slug rule mdBook and GitHub share: the
heading's text in lower case, letters, digits, `-` and `_` kept, each space a `-`,
everything else dropped, and `-1`, `-2`, ... after a slug already taken on the page.
Every page in docs/ must also be listed in docs/SUMMARY.md, or the book leaves it out.
Links to other sites are not fetched. Prints one line per broken link, exits 1 if any.

    python3 .ci/links.py
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^ {0,3}(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](target); a target may hold one level of parentheses.
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]"  # [text], which may hold [brackets]
    r"\(\s*(<[^>]*>|(?:[^()\s]|\([^()\s]*\))*)"  # (target
    r"(?:\s+\"[^\"]*\")?\s*\)"  # "title")
)
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text):
    """The lines outside fenced code blocks, with their numbers."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if fenced is None:
                fenced = m.group(1)
            elif m.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            yield number, line


def heading_text(raw):
    """A heading's text as rendered: code spans' contents, links' texts, no markup."""
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), raw)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("*", "")


def slug(text):
    out = []
    for ch in text.lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


_anchors = {}


def anchors(path):
    """Every heading slug of a Markdown file, repeats numbered as the renderers do."""
    if path not in _anchors:
        seen = {}
        found = set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(heading_text(m.group(2)))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        _anchors[path] = found
    return _anchors[path]


def links(line):
    line = CODE_SPAN.sub("", line)
    for m in INLINE_LINK.finditer(line):
        yield m.group(1).strip("<>")
    m = REFERENCE_DEF.match(line)
    if m:
        yield m.group(1).strip("<>")


def check(page):
    errors = []
    where = page.relative_to(ROOT)
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for target in links(line):
            if not target or SCHEME.match(target):
                continue
            path_part, _, anchor = target.partition("#")
            dest = (page.parent / path_part).resolve() if path_part else page
            if not dest.exists():
                errors.append(f"{where}:{number}: {target}: no such file")
                continue
            if not anchor:
                continue
            if dest.suffix != ".md" or not dest.is_file():
                errors.append(f"{where}:{number}: {target}: anchor into a non-page")
            elif anchor not in anchors(dest):
                into = dest.relative_to(ROOT)
                errors.append(f"{where}:{number}: {target}: no such heading in {into}")
    return errors


def main():
    docs = ROOT / "docs"
    pages = [ROOT / "README.md"] + sorted(docs.rglob("*.md"))
    errors = []
    for page in pages:
        errors += check(page)
    summary = (docs / "SUMMARY.md").read_text(encoding="utf-8")
    listed = {
        (docs / target.partition("#")[0]).resolve()
        for _, line in prose_lines(summary)
        for target in links(line)
    }
    for page in sorted(docs.rglob("*.md")):
        if page.name != "SUMMARY.md" and page.resolve() not in listed:
            errors.append(f"{page.relative_to(ROOT)}: not listed in docs/SUMMARY.md")
    for error in errors:
        print(error)
    print(f"links: {len(pages)} pages checked, {len(errors)} broken", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
