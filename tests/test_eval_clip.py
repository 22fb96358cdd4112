"""benchmarks/eval_clip.py: the sample clip read frame by frame against its labels, as it comes
and as a worse camera gives it (--camera)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_clip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "eval_clip.py"), *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)


def test_the_clip_read_through_a_camera_out_of_focus_loses_sureness_and_says_how_it_was_read(tmp_path):
    plain, soft = tmp_path / "plain.json", tmp_path / "soft.json"
    cal = str(ROOT / "sample_frames" / "clip" / "table.yaml")
    assert run_clip("--calibration", cal, "--json", str(plain)).returncode == 0
    run = run_clip("--calibration", cal, "--camera", "defocus:0.025", "--json", str(soft))
    assert run.returncode == 0, run.stderr
    p, s = json.loads(plain.read_text()), json.loads(soft.read_text())
    assert p["camera"] == [] and s["camera"] == [{"name": "defocus", "amount": 0.025}]
    # the clip as rendered is read whole; blurred by 2.5 % of a card, fewer names are sure
    assert p["card_recall"] == 1.0 and p["wrong_named_sure"] == 0
    assert s["right_not_sure"] > p["right_not_sure"] + 0.1
    bad = run_clip("--camera", "motion:2")
    assert bad.returncode == 2 and "--camera: motion wants an amount" in bad.stderr and "Traceback" not in bad.stderr
