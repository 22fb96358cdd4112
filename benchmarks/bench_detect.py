"""Speed of card detection per 1280x720 frame, end to end (letterbox, detector, NMS, corner crops,
classifier, fusion), ONNX Runtime (the shipped runtime) against PyTorch (ultralytics + torch).

    .venv/bin/python benchmarks/bench_detect.py                  # ONNX Runtime only
    .venv/bin/python benchmarks/bench_detect.py --no-search      # also without the corner search
    .venv-train/bin/python benchmarks/bench_detect.py --torch    # both, in the training venv
    .venv/bin/python benchmarks/bench_detect.py --pool           # also with one ORT thread pool for all sessions
    .venv/bin/python benchmarks/bench_detect.py --spin           # also with the sessions' threads spinning
    .venv/bin/python benchmarks/bench_detect.py --no-blur        # also without the measure of each card's blur
    .venv/bin/python benchmarks/bench_detect.py --openvino       # stage 1 in OpenVINO too (pip install openvino)

Frames: the TEST split frames of runs/eval-test (rendered by eval_detect.py) or sample_frames/.
Each path runs a warm-up, then every frame ``--repeat`` times; the median is reported.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_assist.vision.detector import CLASS_NAMES, CardDetector, DetectorSettings, read_image  # noqa: E402


def frames_from(paths: list[Path], n: int) -> list[np.ndarray]:
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(q for q in p.rglob("*") if q.suffix.lower() in {".jpg", ".png"})
        elif p.is_file():
            files.append(p)
    return [read_image(f) for f in files[:n]]


def time_it(fn, frames: list[np.ndarray], repeat: int) -> dict:
    for f in frames[:3]:
        fn(f)
    ms = []
    stage1 = []
    for _ in range(repeat):
        for f in frames:
            t0 = time.perf_counter()
            fn(f)
            ms.append((time.perf_counter() - t0) * 1000.0)
    return {"median_ms": round(statistics.median(ms), 1), "p90_ms": round(float(np.percentile(ms, 90)), 1),
            "frames": len(ms), **({"stage1_median_ms": round(statistics.median(stage1), 1)} if stage1 else {})}


def time_pair(fn_a, fn_b, frames: list[np.ndarray], repeat: int) -> tuple[dict, dict]:
    """Two readers timed frame by frame in turn, so that a noisy machine slows both alike."""
    for f in frames[:3]:
        fn_a(f)
        fn_b(f)
    ms_a, ms_b = [], []
    for _ in range(repeat):
        for f in frames:
            for fn, ms in ((fn_a, ms_a), (fn_b, ms_b)):
                t0 = time.perf_counter()
                fn(f)
                ms.append((time.perf_counter() - t0) * 1000.0)
    return tuple({"median_ms": round(statistics.median(ms), 1), "p90_ms": round(float(np.percentile(ms, 90)), 1),
                  "frames": len(ms)} for ms in (ms_a, ms_b))


class TorchDetector(CardDetector):
    """The same pipeline with ultralytics' PyTorch model for stage 1 and the torch corner net
    (the ONNX corner classifier when ``cls_pt`` is not a file: a machine that only has the
    shipped models can rebuild stage 1 with ``python -m dealer_assist.vision.recover``, not the
    classifier's checkpoint)."""

    def __init__(self, model_dir: Path, obb_pt: Path, cls_pt: Path):
        super().__init__(model_dir)
        os.environ.setdefault("YOLO_OFFLINE", "1")
        import torch
        from ultralytics import YOLO

        from dealer_assist.vision.train import build_corner_net

        self.torch = torch
        self.yolo = YOLO(str(obb_pt))
        self.torch_classifier = cls_pt.is_file()
        if not self.torch_classifier:
            return
        net = build_corner_net()
        state = torch.load(str(cls_pt), map_location="cpu", weights_only=False)
        net.load_state_dict(state["model"])
        self.net = net.eval()
        self.cls = self._classify

    def _classify(self, crops: np.ndarray):
        with self.torch.no_grad():
            x = self.torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2))).float()
            p, e = self.net.forward_export(x)
        return p.numpy(), e.numpy()

    def find_boxes(self, image: np.ndarray):
        r = self.yolo.predict(image, imgsz=list(self.input_shape), conf=self.settings.conf,
                              iou=self.settings.iou, verbose=False, device="cpu")[0]
        if r.obb is None or len(r.obb) == 0:
            return np.zeros((0, 5)), np.zeros((0, len(CLASS_NAMES)))
        boxes = r.obb.xywhr.numpy().astype(np.float64)
        scores = np.zeros((len(boxes), len(CLASS_NAMES)))
        scores[np.arange(len(boxes)), r.obb.cls.numpy().astype(int)] = r.obb.conf.numpy()
        return boxes, scores


def time_openvino(det: CardDetector, model_dir: Path, frames: list[np.ndarray], repeat: int) -> dict:
    """The detector network alone, ONNX Runtime (``det``'s session) against OpenVINO at f32 and at
    OpenVINO's default inference precision for this CPU (bf16 where the CPU has it)."""
    import openvino as ov

    from dealer_assist.vision.detector import OBB_FILE, letterbox

    xs = [np.ascontiguousarray(letterbox(f, det.input_shape)[0][:, :, ::-1].transpose(2, 0, 1)[None],
                               dtype=np.float32) / 255.0 for f in frames]
    core = ov.Core()
    path = str(model_dir / OBB_FILE)
    hint = core.get_property("CPU", "INFERENCE_PRECISION_HINT")
    default_precision = hint.get_type_name() if hasattr(hint, "get_type_name") else str(hint)
    runners = {"onnxruntime": lambda x: det.obb.run(None, {det.input_name: x})[0]}
    for label, cfg in (("openvino_f32", {"INFERENCE_PRECISION_HINT": "f32"}),
                       (f"openvino_default_{default_precision}", {})):
        req = core.compile_model(path, "CPU", {"PERFORMANCE_HINT": "LATENCY", **cfg}).create_infer_request()
        runners[label] = lambda x, req=req: req.infer({0: x})[0]
    res: dict = {"cpu": str(core.get_property("CPU", "FULL_DEVICE_NAME"))}
    ref = [runners["onnxruntime"](x) for x in xs]
    for label, run in runners.items():
        t = time_it(run, xs, repeat)
        diff = max(float(np.abs(run(x) - r).max()) for x, r in zip(xs, ref))
        res[label] = {"median_ms": t["median_ms"], "p90_ms": t["p90_ms"], "max_abs_diff": round(diff, 5)}
    return res


def argv_for_child(args: argparse.Namespace) -> list[str]:
    """The arguments that time the default reader alone on the same frames."""
    more = ["--frames", *args.frames] if args.frames else []
    return ["--n", str(args.n), "--repeat", str(args.repeat), "--models", args.models, *more]


def child(argv: list[str], env: dict[str, str]) -> dict:
    """The default reader's figures (``onnxruntime``) from this script run again with ``env``."""
    import subprocess

    done = subprocess.run([sys.executable, __file__, *argv], env={**os.environ, **env},
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])["onnxruntime"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", nargs="*", default=None, help="images or folders (default: test frames)")
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--torch", action="store_true", help="also time the PyTorch path (training venv)")
    ap.add_argument("--obb-pt", default=str(ROOT / "runs" / "obb" / "detector" / "weights" / "last.pt"))
    ap.add_argument("--cls-pt", default=str(ROOT / "runs" / "cls" / "last.pt"))
    ap.add_argument("--threads", type=int, default=0, help="ONNX Runtime / torch threads (0: all cores)")
    ap.add_argument("--no-search", action="store_true",
                    help="also time the reading without the corner search (DetectorSettings(search=False))")
    ap.add_argument("--no-look", action="store_true",
                    help="also time the reading with and without the card-look model "
                         "(DetectorSettings(look=False)), frame by frame in turn")
    ap.add_argument("--no-rescue", action="store_true",
                    help="also time the reading with and without the rescue of fanned cards "
                         "(DetectorSettings(rescue_conf=0)), frame by frame in turn")
    ap.add_argument("--no-blur", action="store_true",
                    help="also time the reading with and without the measure of each card's blur "
                         "(DetectorSettings(blur_limit=None); dealer_assist.vision.focus), frame by frame in turn")
    ap.add_argument("--pool", action="store_true",
                    help="also time the reader with one ONNX Runtime thread pool shared by its sessions "
                         "(DEALER_ASSIST_ORT_POOL=shared) against a pool per session, the default (see "
                         "dealer_assist.vision.classifier.session_options): in child processes, one way "
                         "then the other, three times (a process has one way)")
    ap.add_argument("--spin", action="store_true",
                    help="also time the reader with its sessions' threads spinning (ONNX Runtime's own "
                         "default; the project turns it off, see dealer_assist.vision.classifier."
                         "session_options), in a child process")
    ap.add_argument("--openvino", action="store_true",
                    help="also time stage 1 (the detector network alone) in OpenVINO, at full float "
                         "precision and at its default precision on this CPU, against ONNX Runtime on "
                         "the same inputs, with the largest difference of their outputs "
                         "(needs: pip install openvino; not a project dependency)")
    args = ap.parse_args(argv)
    srcs = [Path(p) for p in args.frames] if args.frames else \
        [ROOT / "runs" / "eval-test" / "images" / "test", ROOT / "sample_frames"]
    frames = frames_from([p for p in srcs if p.exists()], args.n)
    if not frames:
        print("no frames: run benchmarks/eval_detect.py first, or pass --frames", file=sys.stderr)
        return 2
    out: dict = {"cpu_count": os.cpu_count(), "frames": len(frames),
                 "frame_size": [int(frames[0].shape[1]), int(frames[0].shape[0])]}
    det = CardDetector(args.models)
    out["onnxruntime"] = time_it(det.detect, frames, args.repeat)
    out["onnxruntime"]["stage1_median_ms"] = time_it(det.find_boxes, frames, 1)["median_ms"]
    print(f"ONNX Runtime: {json.dumps(out['onnxruntime'])}", flush=True)
    if args.no_search:
        sdet = CardDetector(args.models, settings=DetectorSettings(search=False))
        out["onnxruntime_no_search"] = time_it(sdet.detect, frames, args.repeat)
        print(f"ONNX Runtime, no corner search: {json.dumps(out['onnxruntime_no_search'])}", flush=True)
    # a switch of the reader, timed frame by frame in turn with it and without
    for on, settings, key, what in ((args.no_look, DetectorSettings(look=False), "look", "the look"),
                                    (args.no_rescue, DetectorSettings(rescue_conf=0.0), "rescue", "the rescue"),
                                    (args.no_blur, DetectorSettings(blur_limit=None), "blur", "the blur measure")):
        if not on:
            continue
        with_it, without = time_pair(det.detect, CardDetector(args.models, settings=settings).detect, frames, args.repeat)
        out[f"onnxruntime_{key}_vs_no_{key}"] = {key: with_it, f"no_{key}": without}
        print(f"ONNX Runtime, timed in turn with and without {what}: {json.dumps(with_it)} / "
              f"{json.dumps(without)}", flush=True)
    if args.pool:
        ways = {"shared": [], "session": []}
        for _ in range(3):
            for way in ways:
                ways[way].append(child(argv_for_child(args), {"DEALER_ASSIST_ORT_POOL": way})["median_ms"])
        out["onnxruntime_pool"] = {f"{way}_median_ms": ms for way, ms in ways.items()}
        print(f"ONNX Runtime, one shared thread pool / a pool per session (the default), alternating child processes: "
              f"{ways['shared']} / {ways['session']} ms (medians of each)", flush=True)
    if args.spin:
        # a child process: spinning threads would slow whatever runs next
        out["onnxruntime_spinning"] = child(argv_for_child(args), {"DEALER_ASSIST_ORT_POOL": "session",
                                                                   "DEALER_ASSIST_ORT_SPIN": "1"})
        print(f"ONNX Runtime, thread spinning on: {json.dumps(out['onnxruntime_spinning'])}", flush=True)
    if args.openvino:
        out["openvino_stage1"] = time_openvino(det, Path(args.models), frames, args.repeat)
        print(f"stage 1 network, ONNX Runtime against OpenVINO: {json.dumps(out['openvino_stage1'])}", flush=True)
    if args.torch:
        import torch
        if args.threads:
            torch.set_num_threads(args.threads)
        tdet = TorchDetector(Path(args.models), Path(args.obb_pt), Path(args.cls_pt))
        out["pytorch"] = time_it(tdet.detect, frames, args.repeat)
        out["pytorch"]["stage1_median_ms"] = time_it(tdet.find_boxes, frames, 1)["median_ms"]
        out["pytorch"]["classifier"] = "torch" if tdet.torch_classifier else "onnxruntime (no --cls-pt file)"
        print(f"PyTorch:      {json.dumps(out['pytorch'])}", flush=True)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
