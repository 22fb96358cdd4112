"""Pack the renderer's fonts and photographs for a lent GPU machine that has none of Debian's
font and wallpaper packages (scripts/train-gpu-far.sh, scripts/train-gpu-corners.sh):

    .venv/bin/python scripts/pack_gpu_carry.py runs/gpu-carry/c && tar cJf runs/gpu-carry/c.txz -C runs/gpu-carry/c .

OUT gets ``fonts/dejavu`` (the DejaVu files the code names), ``fonts/extra/{liberation,
urw-base35, quicksand, noto}`` (the ``fresh-fonts`` typefaces, ``styles.EXTRA_FONT_DIRS``) and
``photos/`` (the ``world`` recipe's photographs, re-encoded at SIDE pixels, default 720, and GIMP's
patterns). On the machine, point DEALER_ASSIST_FONT_DIR, DEALER_ASSIST_EXTRA_FONT_DIRS and
DEALER_ASSIST_PHOTO_DIRS at the unpacked folders (docs/synth.md). At 720 px the archive was about
9.6 MB (forty-fourth session). A photograph of 30 kB or less is left out: the renderer skips
those.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
SIDE = int(os.environ.get("SIDE", "720"))
QUALITY = int(os.environ.get("QUAL", "80"))
EXTRA = ("/usr/share/fonts/truetype/liberation", "/usr/share/fonts/opentype/urw-base35",
         "/usr/share/fonts/truetype/quicksand", "/usr/share/fonts/truetype/noto")
PHOTOS = (("/usr/share/backgrounds", "backgrounds"), ("/usr/share/wallpapers", "wallpapers"),
          ("/usr/share/mypaint/backgrounds", "mypaint"), ("/usr/share/gimp/2.0/patterns", "patterns"))
SMALLEST = 30_000


def dejavu_files() -> list[str]:
    """The DejaVu files ``dealer_assist`` names."""
    text = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "dealer_assist").rglob("*.py"))
    return sorted(set(re.findall(r"DejaVu[A-Za-z-]*\.ttf", text)))


def encode(img, side: int) -> bytes | None:
    """``img`` shrunk to ``side`` pixels on its long side, as a JPEG over :data:`SMALLEST` bytes."""
    s = side / max(img.shape[:2])
    if s < 1:
        img = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    for q in (QUALITY, 90, 97):
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok and len(buf) > SMALLEST:
            return buf.tobytes()
    return None


def main(out: Path) -> int:
    shutil.rmtree(out, ignore_errors=True)
    (out / "fonts" / "dejavu").mkdir(parents=True)
    dejavu = dejavu_files()
    for f in dejavu:
        shutil.copyfile(Path("/usr/share/fonts/truetype/dejavu") / f, out / "fonts" / "dejavu" / f)
    for d in EXTRA:
        dst = out / "fonts" / "extra" / Path(d).name
        dst.mkdir(parents=True)
        for f in Path(d).iterdir() if Path(d).is_dir() else ():
            if f.suffix.lower() in (".ttf", ".otf"):
                shutil.copyfile(f, dst / f.name)
    seen = kept = 0
    for src, name in PHOTOS:
        for root, _, files in os.walk(src, followlinks=True):
            for f in sorted(files):
                p = Path(root) / f
                dst = out / "photos" / name / p.relative_to(src)
                low = f.lower()
                if low.endswith(".pat") and p.stat().st_size > 2000:
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(p, dst)
                    continue
                if not low.endswith((".jpg", ".jpeg", ".png", ".webp")) or p.stat().st_size <= SMALLEST:
                    continue
                seen += 1
                img = cv2.imread(str(p), cv2.IMREAD_COLOR)
                data = None if img is None else encode(img, SIDE)
                if data is not None:
                    dst = dst.with_suffix(".jpg")
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    dst.write_bytes(data)
                    kept += 1
    print(f"{out}: {len(dejavu)} DejaVu files, the extra typefaces, {kept} of {seen} photographs")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "runs/gpu-carry/c")))
