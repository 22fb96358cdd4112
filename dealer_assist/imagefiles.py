"""Image files as every command reads them: which files of a folder are images, and what to say of
a photo that cannot be read here.

One list serves ``detect``, ``run``'s image folders and the real-photo yardstick, so a folder of
``.webp`` or ``.JPG`` photos is read alike by all of them. A phone's HEIC (HEIF) photo is the
commonest picture OpenCV cannot read; it is named as such, with what to do, rather than called
"not an image".

>>> is_image("IMG_0042.JPG"), is_image("table.webp"), is_image("IMG_0043.HEIC"), is_image("notes.txt")
(True, True, False, False)
>>> is_heif(b"\\x00\\x00\\x00\\x18ftypheic\\x00\\x00\\x00\\x00mif1heic"), is_heif(b"\\xff\\xd8\\xff\\xe0")
(True, False)
>>> is_heif(b"\\x00\\x00\\x00\\x1cftypavif\\x00\\x00\\x00\\x00avifmif1miaf")   # AVIF: OpenCV reads it
False
"""
from __future__ import annotations

import os
from pathlib import Path

from dealer_assist.i18n import Msg, _, _n

#: The names of image files a folder is read for (compared in lower case): what OpenCV reads
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".jpe", ".png", ".bmp", ".webp", ".tif", ".tiff", ".avif"})
#: A phone's HEIC / HEIF photos (an iPhone's default): OpenCV cannot read them
HEIF_SUFFIXES = frozenset({".heic", ".heif", ".hif"})
#: ISO media file brands of a HEIF still image (the ``ftyp`` box); ``avif`` is left out: it is read
HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs",
                         b"mif1", b"msf1", b"mif2"})


def is_image(path: str | os.PathLike) -> bool:
    """Whether a file's name is that of an image the commands read (:data:`IMAGE_SUFFIXES`)."""
    return Path(path).suffix.lower() in IMAGE_SUFFIXES


def is_heif(head: bytes) -> bool:
    """Whether a file's first bytes are a HEIF (HEIC) image's: an ISO media ``ftyp`` box whose major
    brand is a HEIF one (an AVIF file's is ``avif``, which OpenCV reads)."""
    return len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS


def is_heif_photo(path: str | os.PathLike, head: bytes | None = None) -> bool:
    """Whether a file is a HEIC (HEIF) photo: by its first bytes (``head``; read from the file where
    not given) or by its name."""
    if head is None:
        try:
            with open(path, "rb") as f:
                head = f.read(16)
        except OSError:
            head = b""
    return is_heif(head) or Path(path).suffix.lower() in HEIF_SUFFIXES


def heif_advice(path: str | os.PathLike | None = None) -> Msg:
    """What to do with a HEIC photo: the words :func:`unreadable_reason` and a folder's count use."""
    if path is None:
        return _("a HEIC (HEIF) photo, which cannot be read here: convert it to JPEG or PNG, or have the "
                 "phone take JPEG (iPhone: Settings > Camera > Formats > Most Compatible)")
    return _("{path}: a HEIC (HEIF) photo, which cannot be read here: convert it to JPEG or PNG, or have "
             "the phone take JPEG (iPhone: Settings > Camera > Formats > Most Compatible)", path=os.fspath(path))


def unreadable_reason(path: str | os.PathLike, head: bytes, named: bool = True) -> Msg:
    """Why a file OpenCV did not decode is not read: a HEIC photo (by its bytes or its name) is named
    as one, with what to do; anything else is "not a readable image"."""
    if is_heif_photo(path, head):
        return heif_advice(path if named else None)
    return _("{path}: not a readable image", path=Path(path)) if named else _("not a readable image")


def images_in(folder: str | os.PathLike) -> tuple[list[Path], list[Path]]:
    """The image files of ``folder`` (:func:`is_image`) and the HEIC photos beside them, which are
    not read, each sorted by name. Raises :class:`OSError` where the folder cannot be listed."""
    found: list[Path] = []
    heif: list[Path] = []
    for p in Path(folder).iterdir():
        suffix = p.suffix.lower()
        if suffix in IMAGE_SUFFIXES and p.is_file():
            found.append(p)
        elif suffix in HEIF_SUFFIXES and p.is_file():
            heif.append(p)
    return sorted(found), sorted(heif)


def heif_folder(folder: str | os.PathLike, n: int) -> Msg:
    """A folder that holds no image but ``n`` HEIC photos: what to do."""
    return _n("no images in the folder {folder}: its {n} HEIC (HEIF) photo cannot be read here; convert it "
              "to JPEG or PNG", "no images in the folder {folder}: its {n} HEIC (HEIF) photos cannot be read "
              "here; convert them to JPEG or PNG", n, folder=os.fspath(folder), n=n)
