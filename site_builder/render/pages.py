"""The archive's own pages: index, tag pages, the Atom feed, the sitemap and the 404 page (Jinja2 templates in
templates/)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import jinja2

from ..config import SiteConfig, example_address
from .html import storage_key
from .text import isolated, long_date, printable_value

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    """One Jinja2 environment: autoescape on for HTML and XML, undefined names are errors."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(["html", "xml", "j2"], default_for_string=True, default=True),
        undefined=jinja2.StrictUndefined,
        finalize=printable_value,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["count"] = count
    env.filters["isolated"] = isolated
    env.tests["example_address"] = example_address
    return env


def count(n: int, noun: str) -> str:
    """'1 answer', '2 answers', '0 crossings'."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _entry(info, config: SiteConfig) -> dict:
    p, layout = info.puzzle, info.layout
    slug = p.slug
    author = p.meta.author or config.author  # the site's default author stands in, as on the puzzle's page
    dates = (long_date(p.meta.date, weekday=False), p.meta.date.isoformat())
    return {
        "slug": slug,
        "title": p.meta.title,
        "date": dates[1],
        "date_long": dates[0],
        "author": author,
        "description": p.meta.description,
        "difficulty": p.meta.difficulty,
        "tags": p.meta.tags,
        "size": f"{layout.cols}×{layout.rows}",
        "answers": len(layout.placements),
        "crossings": layout.crossings,
        "page": f"{slug}/index.html",
        "pdf": f"{slug}/{slug}.pdf",
        "solution": f"{slug}/{slug}-solution.svg",
        "thumb": f"{slug}/{slug}-thumb.png",
        "key": storage_key(p, layout),  # archive.js shows the solver's progress from it
        "cells": len(layout.cells),
        # what the archive's finder matches a query against
        "find": " ".join(x for x in (p.meta.title, author, p.meta.description, p.meta.difficulty, " ".join(p.meta.tags),
                                     *dates) if x),
    }


# The last pages rendered, with what they were rendered from: a save that changes nothing they show (a
# clue, a layout of the same size) costs no render of the index, every tag page and the feed, which on an
# archive of 200 puzzles took 0.4 s of every rebuild in watch mode.
_last: list[tuple[tuple, dict[str, str]]] = []


def site_pages(infos: list, config: SiteConfig, fingerprint: str | None = None) -> dict[str, str]:
    """index.html, tags/<tag>.html, feed.xml, sitemap.xml and 404.html for the puzzles (newest first).

    `fingerprint` names the templates and code they are rendered with (the build's code fingerprint);
    given one, the pages of the last call are reused when the same puzzles show the same details.
    """
    env = environment()
    entries = [_entry(i, config) for i in infos]
    key = (fingerprint, str(TEMPLATES), config, tuple(tuple(e.items()) for e in entries)) if fingerprint else None
    if key is not None and _last and _last[0][0] == key:
        return dict(_last[0][1])
    files = _render_pages(env, entries, config)
    if key is not None:
        _last[:] = [(key, dict(files))]
    return files


FEED_ENTRIES = 50  # the newest puzzles in feed.xml: a reader fetches it often, and has seen the older ones


def years(entries: list[dict]) -> list[tuple[str, list[dict]]]:
    """The entries (newest first) by year: [("2026", [...]), ("2025", [...])]."""
    out: list[tuple[str, list[dict]]] = []
    for e in entries:
        year = e["date"][:4]
        if not out or out[-1][0] != year:
            out.append((year, []))
        out[-1][1].append(e)
    return out


def _render_pages(env, entries: list[dict], config: SiteConfig) -> dict[str, str]:
    counts = Counter(t for e in entries for t in e["tags"])
    tags = [(tag, counts[tag]) for tag in sorted(counts)]
    files = {
        "index.html": env.get_template("index.html").render(
            site=config, entries=entries, years=years(entries), tags=tags, root="", heading=None
        ),
        "feed.xml": env.get_template("feed.xml").render(
            site=config, entries=entries[:FEED_ENTRIES], updated=max((e["date"] for e in entries), default="1970-01-01")
        ),
    }
    files["sitemap.xml"] = env.get_template("sitemap.xml").render(site=config, entries=entries, tags=tags)
    # a host serves it for any address without a page, at any depth: its links start from the site's own path
    files["404.html"] = env.get_template("404.html").render(site=config, tags=tags, root=urlsplit(config.base_url).path)
    for tag, _n in tags:
        tagged = [e for e in entries if tag in e["tags"]]
        files[f"tags/{tag}.html"] = env.get_template("index.html").render(
            site=config, entries=tagged, years=years(tagged), tags=tags, root="../", heading=tag
        )
    return files

