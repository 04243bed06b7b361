"""Names as people type them, and as a terminal may print them.

A player's or a match's name is read in one way everywhere (:func:`clean_name`): Unicode NFC,
spaces trimmed at both ends, and no character that a screen does not show as itself (control
characters such as ESC, invisible formatting such as the right-to-left override or a zero-width
space, lone surrogates, private-use or line separators). Such a name is refused with a message
naming the character, never silently changed, so what is stored is what everybody sees.

Names written before this rule may still hold such characters: :func:`printable` shows them
escaped (``\\x1b``, ``\\u202e``) wherever text goes to a terminal.

>>> clean_name("  Anna ", "players[0]")
'Anna'
>>> clean_name("Ann\\u0061\\u0301", "players[0]") == "Ann\\u00e1"
True
>>> printable("Anna\\x1b]52;c;aGk=\\x07")
'Anna\\\\x1b]52;c;aGk=\\\\x07'
>>> name_key("Anna ") == name_key("anna")
True
"""

from __future__ import annotations

import unicodedata

from scopa.errors import InputError, Phrase
from scopa.i18n import N_

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
"""Control, format (invisible), surrogate, private-use, line and paragraph separators."""


BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
"""Letters and signs that a screen shows as nothing at all (the Hangul fillers, the braille
blank, Khmer's inherent vowels): a name made of them looks blank."""


def hidden(ch: str) -> bool:
    """Whether a character is not shown as itself (control, invisible formatting, the
    blank-looking letters, ...).

    >>> hidden("\u3164"), hidden("a"), hidden("\x1b")
    (True, False, True)
    """
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or ch in BLANK_LOOKING


def character_name(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE`` (or ``U+001B`` for those without a name)."""
    code = f"U+{ord(ch):04X}"
    name = unicodedata.name(ch, "")
    return f"{code} {name}" if name else code


MAX_NAME = 40
"""The most characters a name has: a player's, a seat's at a table, a person's after a rename
(the forms' ``maxlength`` and the API's schemas say the same)."""


def clean_name(text: str, where: str, what: str = N_("a name")) -> str:
    """``text`` normalised (NFC, trimmed); :class:`InputError` at ``where`` if it holds a
    character that does not show as itself (the message names it)."""
    for ch in text:
        if hidden(ch):
            raise InputError(
                where,
                N_("{what} cannot hold the invisible or control character {value}"),
                code="variant.cannot_hold_invisible_control",
                what=Phrase(what),  # said in the reader's language
                value=character_name(ch),
            )
    return unicodedata.normalize("NFC", text).strip()


DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's default-ignorable code points (DerivedCoreProperties.txt,
``Default_Ignorable_Code_Point``): shown as nothing, so never what tells two names apart."""


def ignorable(ch: str) -> bool:
    """Whether ``ch`` is a default-ignorable code point (or any invisible format character).

    >>> ignorable("\u034f"), ignorable("\ufe0f"), ignorable("a")
    (True, True, False)
    """
    point = ord(ch)
    return unicodedata.category(ch) == "Cf" or any(a <= point <= b for a, b in DEFAULT_IGNORABLE)


def name_key(text: str) -> str:
    """What two spellings of the same person share: NFKC, casefolded, trimmed, with no
    default-ignorable character (``"anna"``, ``"Anna "``, ``"Anna\u034f"``, ``"\uff21nna"`` →
    one key).

    >>> name_key("Anna\u034f") == name_key("\uff21\uff2e\uff2e\uff21") == name_key(" anna")
    True
    >>> name_key(" anna")
    'anna'
    """
    kept = "".join(ch for ch in unicodedata.normalize("NFKC", text) if not ignorable(ch))
    return unicodedata.normalize("NFKC", kept.casefold()).strip()


def printable(text: str) -> str:
    """``text`` safe for a terminal: each hidden character shown as its escape."""
    if not any(hidden(ch) for ch in text):
        return text
    out = []
    for ch in text:
        if not hidden(ch):
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


def printable_lines(text: str, json_text: bool = False) -> str:
    """Exported text safe for a terminal, its lines kept: each hidden character but the line
    ends escaped, as JSON's ``\\uXXXX`` in JSON text (still valid JSON, the same data), as
    :func:`printable` shows it otherwise."""
    if not any(hidden(ch) and ch not in "\r\n" for ch in text):
        return text
    out = []
    for ch in text:
        if ch in "\r\n" or not hidden(ch):
            out.append(ch)
        elif json_text:
            units = ch.encode("utf-16-be")
            out.extend(
                f"\\u{int.from_bytes(units[i : i + 2], 'big'):04x}" for i in range(0, len(units), 2)
            )
        else:
            out.append(printable(ch))
    return "".join(out)
