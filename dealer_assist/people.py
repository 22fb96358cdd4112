"""A person's name as the product keeps it: the dealer at a table (``dealer`` action), the person
on the floor who records a check or a dispute (:mod:`dealer_assist.central.staff`).

>>> person_name("  田中 一郎 ")
'田中 一郎'
>>> person_name(""), person_name("a\\u0000b"), person_name(7), person_name("x" * 41)
(None, None, None, None)
"""
from __future__ import annotations

import unicodedata
from typing import Any, Optional

__all__ = ["NAME_MAX", "person_name"]

#: The most characters a name may have.
NAME_MAX = 40


def person_name(value: Any) -> Optional[str]:
    """The name trimmed, or None when it is none: not text, blank, over :data:`NAME_MAX`
    characters, or holding control or line-separator characters."""
    name = value.strip() if isinstance(value, str) else ""
    if not 0 < len(name) <= NAME_MAX or any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")
                                            for c in name):
        return None
    return name
