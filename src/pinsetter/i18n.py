"""Translations: every user-facing text goes through `_` (gettext catalogs managed with Babel).

The language is chosen once per process (`set_language`): the `--lang` option,
else `PINSETTER_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else
English. Unknown languages fall back to English without error. Game notation
that is data (action texts in records, `X`, `/`, `-`) is never translated.

Module-level constants are marked with `N_` (extracted, not translated) and
translated where they are shown, so that a language chosen after import applies.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "_",
    "choose_language",
    "current_language",
    "gettext_for",
    "ngettext",
    "normalise_language",
    "set_language",
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
    """`message` in the current language."""
    return gettext_for(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the current language."""
    return gettext_for(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark `message` for extraction; translate it with `_` where it is shown."""
    return message
