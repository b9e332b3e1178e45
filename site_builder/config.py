"""Site settings: the `[tool.crossword]` table of pyproject.toml, validated like front matter.

    [tool.crossword]
    title = "The Crossword Press"          # site title, in every page header and the feed
    base_url = "https://example.org/xw/"   # absolute links in the feed and sitemap; must end with '/'
    author = "The Crossword Press"         # default author for puzzles that name none
    licence = "Puzzles CC BY 4.0"          # footer line, and the feed's rights
    description = "Themed freeform crosswords"
    own_files = ["robots.txt", "CNAME"]    # files of your own in public/: kept, and no drift

Every key is optional; an unknown key is an error naming its line and the
closest known key.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from .errors import PuzzleError, PuzzleErrors


@dataclass(frozen=True)
class SiteConfig:
    title: str = "Crossword Press"
    base_url: str = "https://example.org/"
    author: str = ""
    licence: str = ""
    description: str = ""
    # files of the operator's own in public/ (a host's robots.txt or CNAME, a logo under static/): the build
    # leaves them, and `check` does not count them as drift
    own_files: tuple[str, ...] = ()


FIELDS = tuple(SiteConfig.__dataclass_fields__)


def example_address(url: str) -> bool:
    """Whether `url` is at a name kept for examples, no real site's (RFC 2606 and 6761: example.org, .com and
    .net and the names under them; .example, .test, .invalid, .localhost). The pages then claim no address
    of their own (canonical, og:url, og:image), which would send search engines and link previews to it."""
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    return any(host == d or host.endswith("." + d) for d in ("example.org", "example.com", "example.net")) or \
        host.rsplit(".", 1)[-1] in ("example", "test", "invalid", "localhost")


def _line_of(text: str, key: str) -> int | None:
    """The line of `key` in the [tool.crossword] table, or of the table header that makes it one of its
    keys (`[tool.crossword.colours]`, `[[tool.crossword.colours]]`); None when neither is found."""
    in_table = False
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("["):
            header = s.split("#", 1)[0].replace(" ", "").replace('"', "").replace("'", "")
            if header.strip("[]") == f"tool.crossword.{key}":
                return i
            in_table = header == "[tool.crossword]"
            continue
        if in_table and s.split("=", 1)[0].strip().strip("\"'") == key:
            return i
    return None


def _host(address: str) -> str | None:
    """The host name of an address; None where it has none, or an unclosed '[' or a port that is no port
    (reading `port` checks it) makes it no address."""
    try:
        parts = urlsplit(address)
        return parts.hostname if parts.port is None or parts.port >= 0 else None
    except ValueError:
        return None


IDNA_DEVIATIONS = "\u00df\u03c2\u200c\u200d"  # ß, final sigma, the zero-width (non-)joiner


def ascii_address(address: str) -> str:
    """The address as the feed, the sitemap and link previews must write it (RFC 3986, ASCII alone): a host
    name in other letters in its IDNA form (xn--), the path's other characters percent-encoded as UTF-8.
    UnicodeError where the host name has no IDNA form."""
    if address.isascii():
        return address
    parts = urlsplit(address)
    user, at, hostport = parts.netloc.rpartition("@")
    host, colon, port = hostport.rpartition(":") if re.search(r":\d*$", hostport) else (hostport, "", "")
    if not host.isascii():
        if any(ch in host for ch in IDNA_DEVIATIONS):
            # Python's codec is IDNA 2003, which spells straße.de as strasse.de, another domain than the
            # browsers' (IDNA 2008) xn--strae-oqa.de: the host's own xn-- form says which is meant
            raise UnicodeError("a letter the two IDNA standards spell differently")
        host = ".".join(label.encode("idna").decode("ascii") if not label.isascii() else label
                        for label in host.lower().split("."))
    path = quote(parts.path, safe="/%!$&'()*+,;=:@-._~")
    return urlunsplit((parts.scheme, f"{quote(user, safe='%:!$&()*+,;=-._~')}{at}{host}{colon}{port}", path, "", ""))


def load_config(pyproject: Path) -> SiteConfig:
    """Read `[tool.crossword]`; defaults when the file or the table is missing."""
    try:
        text = pyproject.read_text(encoding="utf-8")
    except FileNotFoundError:
        return SiteConfig()
    except UnicodeDecodeError as exc:
        line = pyproject.read_bytes().count(b"\n", 0, exc.start) + 1
        raise PuzzleError(pyproject, line, "not UTF-8 text; save it as UTF-8") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib puts the place in its message: "... (at line 48, column 11)"; say it the way every error does
        where = re.search(r"\s*\(at line (\d+), column (\d+)\)$", str(exc))
        if where:
            what = str(exc)[: where.start()]
            line = text.split("\n")[int(where[1]) - 1] if int(where[1]) <= text.count("\n") + 1 else ""
            col = int(where[2])
            if what == "Illegal character '\\n'" and (line.count('"') % 2 or line.count("'") % 2):
                what += "; a quoted value is not closed on its line: end it with the quote it starts with"
            elif what == "Cannot overwrite a value" and re.match(r"\s*[\w.\"'-]+\s*=", line):
                key = line.split("=", 1)[0].strip()
                what = f"key {key} is given twice; keep one"
                col = len(line) - len(line.lstrip()) + 1
            elif what == "Invalid value" and "=" in line and not line.split("=", 1)[1].strip()[:1] in "\"'[{0123456789tf-+":
                what += '; a text value goes in double quotes: key = "text"'
            raise PuzzleError(pyproject, int(where[1]), f"not valid TOML: {what}", col=col) from exc
        raise PuzzleError(pyproject, None, f"not valid TOML: {exc}") from exc
    tool = data.get("tool", {})
    table = tool.get("crossword", {}) if isinstance(tool, dict) else None
    if not isinstance(table, dict):
        pattern = r"\s*(tool\.)?crossword\s*=" if isinstance(tool, dict) else r"\s*tool\s*="
        line = next((i for i, s in enumerate(text.splitlines(), 1) if re.match(pattern, s)), None)
        raise PuzzleError(pyproject, line, "[tool.crossword] must be a table of settings, like title = \"My puzzles\"")
    errors: list[PuzzleError] = []
    values: dict[str, object] = {}
    for key, value in table.items():
        line = _line_of(text, key)
        if key not in FIELDS:
            hint = difflib.get_close_matches(key, FIELDS, n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else f" (known keys: {', '.join(FIELDS)})"
            errors.append(PuzzleError(pyproject, line, f"unknown [tool.crossword] key '{key}'{extra}"))
            continue
        if key == "own_files":
            problem = _own_files_problem(value)
            if problem:
                errors.append(PuzzleError(pyproject, line, f"[tool.crossword] 'own_files' {problem}"))
            else:
                values[key] = tuple(sorted(set(value)))
            continue
        if not isinstance(value, str):
            errors.append(PuzzleError(pyproject, line, f"[tool.crossword] '{key}' must be a string"))
            continue
        if key == "base_url" and not (value.startswith(("http://", "https://")) and ("?" in value or "#" in value
                                                                                     or value.endswith("/"))):
            errors.append(PuzzleError(pyproject, line, "'base_url' must start with http:// or https:// and end with '/'"))
            continue
        if key == "base_url":
            # every page's address is this plus its path: a query or fragment would swallow the path
            odd = next((ch for ch in value if ch.isspace() or ch in "\"'<>\\`"), None)
            what = ("a query ('?')" if "?" in value else "a fragment ('#')" if "#" in value
                    else f"the character {odd!r}" if odd else None if _host(value) else "no valid host name and port")
            if what:
                errors.append(PuzzleError(pyproject, line, f"'base_url' has {what}; write the site's address alone, "
                                          "like https://puzzles.example.org/ or https://example.org/puzzles/"))
                continue
            try:
                value = ascii_address(value)  # kreuzworträtsel/ as kreuzwortr%C3%A4tsel/, as every link must be
            except UnicodeError:
                errors.append(PuzzleError(pyproject, line, f"'base_url' has a host name, {_host(value)!r}, whose form in "
                                          "ASCII letters (IDNA) cannot be worked out here; write its xn-- form, as your "
                                          "domain's registrar gives it"))
                continue
        if key == "title" and not "".join(ch for ch in value if ch.isprintable()).strip():
            errors.append(PuzzleError(pyproject, line, "[tool.crossword] 'title' must not be empty: it heads every page "
                                      f"and the feed; name the site (title = \"My puzzles\") or remove the line for "
                                      f"the default, {SiteConfig.title!r}"))
            continue
        values[key] = value.strip()
    if errors:
        raise PuzzleErrors(errors)
    return SiteConfig(**values)


# the site's own files at public/'s top (`site.RESERVED_SLUGS` names its folders): never an author's
BUILD_FILES = ("index.html", "feed.xml", "sitemap.xml", "404.html", "sw.js")


def _own_files_problem(value: object) -> str | None:
    """Why `own_files` cannot be taken (None when it can): a list of paths inside public/, as / spells them."""
    example = ' (own_files = ["robots.txt", "CNAME"])'
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return "must be a list of file names in public/" + example
    for name in value:
        parts = name.split("/")
        if not name or name.startswith("/") or "\\" in name or any(p in ("", ".", "..") for p in parts):
            return (f"names {name!r}, which is no path inside public/: write it from public/ down, with '/' "
                    f"between folders" + example)
        if name in BUILD_FILES or _made_by_the_build(name):
            return f"names {name!r}, which the build makes; remove it from the list"
    return None


def _made_by_the_build(name: str) -> bool:
    """Whether every build writes a file of that name: a static file (a tag page or a puzzle's output
    depends on the puzzles, and the build writes it over whatever the list says, as it writes its own)."""
    from .site import site_files

    return name in site_files()
