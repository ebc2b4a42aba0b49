"""Text that comes from users (player names, file names) is data, never markup or terminal control.

Policy (docs/records.md, "Names"): a player name is 1 to 40 characters after
trimming, with no control characters (C0/C1, DEL) and no bidirectional
overrides, which would reorder what follows them on screen; a name typed in
(command line, launcher, web) has no line or paragraph separator and no
invisible format character either (but the joiners of emoji and scripts),
while records and histories written before that rule keep theirs; such names are
refused where they enter (command line, launcher, records). Markup-looking
text such as `[bold]` or `<script>` is allowed and always shown literally:
every interface renders names as plain text. Text that was never checked (a
file name in an error message) goes through `visible`, which spells control
characters out as escapes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from pinsetter.i18n import _

__all__ = [
    "MAX_NAME",
    "check_name",
    "check_new_name",
    "name_key",
    "name_problem",
    "new_name_problem",
    "repeated_name",
    "visible",
]

MAX_NAME = 40
# Bidirectional embeddings, overrides and isolates: they reorder the text after them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


# Invisible format characters a name may need: the zero-width (non-)joiner of emoji sequences and
# Indic and Persian scripts, and the tags of subdivision flags (England's, Scotland's).
JOINERS = frozenset("\u200c\u200d")
TAGS = range(0xE0020, 0xE0080)


def _is_control(char: str) -> bool:
    """C0/C1 controls, lone surrogates (undecodable bytes) and bidirectional controls: never in a name."""
    return unicodedata.category(char) in ("Cc", "Cs") or char in BIDI_CONTROLS


def _is_invisible(char: str) -> bool:
    """Line and paragraph separators (a line break to `splitlines`) and invisible format characters
    (a zero-width space or a byte-order mark makes two names that look the same), except the joiners
    and tags names need. Refused in a name typed from session 7 on; a stored one still reads."""
    category = unicodedata.category(char)
    if category == "Cf":
        return char not in JOINERS and ord(char) not in TAGS and char not in BIDI_CONTROLS
    return category in ("Zl", "Zp")


# Letters and symbols that show as a blank or as nothing, though Unicode's categories call them
# neither a space nor a format character: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the
# Braille blank (U+2800), the combining grapheme joiner, the Khmer inherent vowels, the Mongolian vowel
# separator, the musical null notehead, the Hangul Jamo fillers' halfwidth form.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e\U0001d159")
# Variation selectors choose how the character before them is drawn (text or emoji): a name may need
# one (U+FE0F after a heart), but `ann` and `ann` + U+FE0F are the same name.
VARIATION_SELECTORS = frozenset(
    [*map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0)), "\u180b", "\u180c", "\u180d", "\u180f"]
)


def _is_blank(char: str) -> bool:
    """Shows nothing, or a blank, by itself: spaces, marks that only change the character before them,
    format characters, the blank-looking letters and the variation selectors."""
    return (
        unicodedata.category(char) in ("Zs", "Zl", "Zp", "Mn", "Me", "Cf", "Cc")
        or char in BLANK_LOOKING
        or char in VARIATION_SELECTORS
    )


def _is_unprintable(char: str) -> bool:
    return _is_control(char) or _is_invisible(char)


def visible(text: str) -> str:
    """`text` with every control character written as an escape (`ESC` -> `\\x1b`), safe to print."""
    if not any(_is_unprintable(c) for c in text):
        return text
    return "".join(_escape(c) if _is_unprintable(c) else c for c in text)


def _escape(char: str) -> str:
    """`ESC` -> `\\x1b`; a lone surrogate (which no codec encodes) -> `\\udcff`."""
    if 0xD800 <= ord(char) <= 0xDFFF:
        return f"\\u{ord(char):04x}"
    return char.encode("unicode_escape").decode("ascii")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player name, or None if it can."""
    if len(name) <= MAX_NAME and _is_good_name(name):  # long text is never kept by the cache
        return None
    return _problem(name)


@lru_cache(maxsize=4096)
def _is_good_name(name: str) -> bool:
    """Whether `name` is a valid player name, remembered: a live table's record checks its names at every step."""
    return _problem(name) is None


def _problem(name: str) -> str | None:
    """`name_problem`, worked out (in the current language)."""
    if not name.strip():
        return _("a player name cannot be empty")
    if len(name) > MAX_NAME:
        return _("player name {name}... is longer than {most} characters").format(
            name=f"'{visible(name[:20])}'", most=MAX_NAME
        )
    bad = next((c for c in name if _is_control(c)), None)
    if bad is not None:
        # Quoted, not repr: the escapes `visible` wrote are shown once.
        return _("player name {name} contains the control character {code}").format(
            name=f"'{visible(name)}'", code=f"U+{ord(bad):04X}"
        )
    if name != name.strip():
        return _("player name {name} starts or ends with spaces").format(name=repr(name))
    return None


def new_name_problem(name: str) -> str | None:
    """Why `name` cannot be a new player's name (typed in now), or None: `name_problem`, no invisible
    character, no letter that shows as a blank, and something to see. Records and histories written
    before these rules keep their names."""
    problem = name_problem(name)
    if problem is not None:
        return problem
    bad = next((c for c in name if _is_invisible(c)), None)
    if bad is not None:
        return _("player name {name} contains the invisible character {code}").format(
            name=f"'{visible(name)}'", code=f"U+{ord(bad):04X}"
        )
    bad = next((c for c in name if c in BLANK_LOOKING), None)
    if bad is not None:
        return _("player name {name} contains {code}, which shows as a blank").format(
            name=_shown(name), code=f"U+{ord(bad):04X}"
        )
    if all(_is_blank(c) for c in name):
        return _("player name {name} shows nothing: it has no character to see").format(name=_shown(name))
    return None


def _shown(name: str) -> str:
    """A name in a message about what cannot be seen in it: those characters spelled out, quoted."""
    return "'" + "".join(_escape(c) if _is_unseen(c) else c for c in visible(name)) + "'"


def _is_unseen(char: str) -> bool:
    """Shows as nothing or as a blank that is not a plain space (marks on a letter are seen)."""
    hidden = unicodedata.category(char) in ("Zs", "Zl", "Zp", "Cf") and char != " "
    return hidden or char in BLANK_LOOKING or char in VARIATION_SELECTORS


def name_key(name: str) -> str:
    """What a name is compared by: two names that look alike have one key.

    Compatibility forms and case are folded (NFKC, casefold: `Ann`, fullwidth `ANN` and `ann` are one
    name), variation selectors, joiners and other invisible characters are left out (`ann` and
    `ann` + U+FE0F), and runs of spaces are one space.
    """
    seen = "".join(c for c in name if c not in VARIATION_SELECTORS and unicodedata.category(c) != "Cf")
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", seen).casefold())
    return " ".join(folded.split())


def repeated_name(names: Iterable[str]) -> str | None:
    """Why these players cannot play one game or sit at one table: two names with one `name_key`, or None."""
    first: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key not in first:
            first[key] = name
        elif first[key] == name:
            return _("player name {name} is given twice").format(name=_shown(name))
        else:
            message = _(
                "player names {first} and {second} are one name (capitals and character widths do not make two names)"
            )
            return message.format(first=_shown(first[key]), second=_shown(name))
    return None


def check_new_name(name: str) -> str:
    """`name` itself if a new player may take it; ValueError with the reason otherwise."""
    problem = new_name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    return name


def check_name(name: str) -> str:
    """`name` itself if it is a valid player name; ValueError with the reason otherwise."""
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    return name
