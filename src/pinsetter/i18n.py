"""Translations: every user-facing text goes through `_` (gettext catalogs managed with Babel).

The command line chooses the language once (`set_language`): the `--lang` option,
else `PINSETTER_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else
English; the web app speaks each request's language (`using_language`, from
`?lang=`, the page's switch or Accept-Language: `negotiate`). Unknown languages
fall back to English without error. Game notation that is data (action texts in
records, `X`, `/`, `-`) is never translated. docs/i18n.md says how to add texts.

Module-level constants are marked with `N_` (extracted, not translated) and
translated where they are shown, so that a language chosen after import applies.
"""

from __future__ import annotations

import ast
import gettext
import os
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import IO, Any, Final

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "_",
    "choose_language",
    "current_language",
    "gettext_for",
    "negotiate",
    "ngettext",
    "normalise_language",
    "set_language",
    "translations_json",
    "using_language",
]

DOMAIN: Final = "pinsetter"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
DEFAULT_LANGUAGE: Final = "en"
LANGUAGES: Final = ("en", "ja")
LANGUAGE_ENV: Final = "PINSETTER_LANG"

# A context variable, so that each web request can speak its own language.
_current: ContextVar[str] = ContextVar("pinsetter_language", default=DEFAULT_LANGUAGE)


def normalise_language(tag: str | None) -> str | None:
    """`ja` from `ja_JP.UTF-8`, `ja-JP` or `JA`; None for an empty, `C`/`POSIX` or unsupported tag."""
    if not tag:
        return None
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def choose_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to use: `explicit`, else PINSETTER_LANG, else the locale, else English."""
    env = os.environ if environ is None else environ
    candidates = [explicit, env.get(LANGUAGE_ENV)]
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):  # the first one set decides, as in POSIX
            candidates.append(env[name])
            break
    for candidate in candidates:
        language = normalise_language(candidate)
        if language is not None:
            return language
    return DEFAULT_LANGUAGE


@cache
def gettext_for(language: str) -> gettext.NullTranslations:
    """The compiled catalog of `language` (English, the source language, needs none)."""
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language], fallback=True)


def set_language(language: str | None) -> str:
    """Use `language` from now on in this context (unknown: English); returns the language chosen."""
    chosen = normalise_language(language) or DEFAULT_LANGUAGE
    _current.set(chosen)
    return chosen


def current_language() -> str:
    return _current.get()


def _(message: str) -> str:
    """`message` in the current language.

    English is the source language: its text is the message itself (a server renders a view
    of dozens of words after every step, most often in English).
    """
    language = _current.get()
    if language == DEFAULT_LANGUAGE:
        return message
    return gettext_for(language).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the current language."""
    return gettext_for(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark `message` for extraction; translate it with `_` where it is shown."""
    return message


JS_KEYWORDS: Final = ("t", "tn")  # the web page's lookups (app.js), extracted from JavaScript only


@contextmanager
def using_language(language: str | None) -> Iterator[str]:
    """Speak `language` inside the block (a web request, a test), then the language before it."""
    token = _current.set(normalise_language(language) or DEFAULT_LANGUAGE)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def negotiate(accept_language: str | None) -> str:
    """The best language for an HTTP Accept-Language header (`ja,en;q=0.8`): English when none fits."""
    best, best_q = DEFAULT_LANGUAGE, -1.0
    for position, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        language = normalise_language(tag)
        if language is not None and quality > 0 and quality - position * 1e-6 > best_q:
            best, best_q = language, quality - position * 1e-6
    return best


@cache
def translations_json(language: str) -> dict[str, str]:
    """Every translated message of `language` (msgid to text), for the web page's `t()`; English: empty.

    A plural message appears under its singular msgid with its first form: the page's `tn()` uses it for
    every count, which is right for a language with one plural form (Japanese); one with more would need
    the catalog's plural rule as well.
    """
    catalog = gettext_for(normalise_language(language) or DEFAULT_LANGUAGE)
    messages: dict[Any, str] = getattr(catalog, "_catalog", {})
    found = {key: text for key, text in messages.items() if isinstance(key, str) and key and text}
    for key, text in messages.items():
        if isinstance(key, tuple) and key[1] == 0 and text:
            found[key[0]] = text
    return found


def extract_python_and_help(
    fileobj: IO[bytes], keywords: Any, comment_tags: Collection[str], options: Any
) -> Iterator[tuple[Any, ...]]:
    """Babel extractor for the Python sources: the `_()`/`N_()`/`ngettext()` calls (not the web page's
    `t()`/`tn()`, which are keywords for JavaScript only), and with `help_docstrings = true` (babel.cfg,
    the CLI) the docstrings of the functions Typer turns into commands, which are their --help."""
    from babel.messages.extract import extract_python

    source = fileobj.read()
    fileobj.seek(0)
    for found in extract_python(fileobj, keywords, comment_tags, options):
        if found[1] not in JS_KEYWORDS:
            yield found
    if str(options.get("help_docstrings", "")).lower() != "true":
        return
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        decorated = any(
            isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ("command", "callback")
            for d in node.decorator_list
        )
        doc = ast.get_docstring(node, clean=True) if decorated else None
        if doc:
            yield node.lineno, "_", doc, ["command help (the function's docstring)"]
