"""Frame sources: files give every frame in order; live sources give the newest frame, survive a
camera dropping out, and never raise out of the iterator. No camera needed: live sources get a
fake capture through ``capture_factory``."""
from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from dealer_assist.errors import UserError
from dealer_assist.live.sources import Frame, SourceAlert, open_source

FAST = (0.01, 0.04)   # reconnection backoff for tests: same doubling, shorter waits


def _frames(items):
    return [it for it in items if isinstance(it, Frame)]


def _alerts(items):
    return [it for it in items if isinstance(it, SourceAlert)]


# -- folders ------------------------------------------------------------------------------------------
def test_folder_gives_every_image_in_name_order_and_skips_an_unreadable_one(tmp_path):
    for i in (0, 1, 3, 10):
        cv2.imwrite(str(tmp_path / f"frame_{i:03d}.png"), np.full((6, 8, 3), i * 10, np.uint8))
    (tmp_path / "frame_002.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "notes.txt").write_text("ignored")
    src = open_source(str(tmp_path), fps=10)
    assert not src.live and "5 images" in src.describe()
    items = list(src)
    frames = _frames(items)
    assert [f.index for f in frames] == [0, 1, 3, 4]          # position in name order
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 10, 30, 100]
    assert [f.t for f in frames] == [0.0, 0.1, 0.3, 0.4]
    (bad,) = _alerts(items)
    assert bad.code == "frame_unreadable" and "frame_002.jpg" in bad.message and bad.message_ja
    assert bad.t == 0.2 and items.index(bad) == 2             # in its place in the sequence


def test_folder_reads_every_format_detect_reads_whatever_the_case_of_its_names(tmp_path):
    """A folder of frames saved by another tool (upper-case names, WebP, TIFF) plays as detect reads
    it: one list of image names serves both (dealer_assist.imagefiles)."""
    for i, name in enumerate(("a.PNG", "b.webp", "c.TIFF", "d.Jpeg")):
        assert cv2.imwrite(str(tmp_path / name.lower()), np.full((6, 8, 3), i * 10, np.uint8))
        (tmp_path / name.lower()).rename(tmp_path / name)
    frames = _frames(list(open_source(str(tmp_path), fps=10)))
    assert len(frames) == 4 and [int(f.image[0, 0, 0]) // 10 for f in frames[:3]] == [0, 1, 2]


def test_folder_default_rate_is_15_fps(tmp_path):
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.bmp"), np.zeros((4, 4, 3), np.uint8))
    assert [f.t for f in _frames(open_source(str(tmp_path)))] == [0.0, round(1 / 15, 6)]


# -- video files --------------------------------------------------------------------------------------
@pytest.fixture()
def video(tmp_path):
    """A 30-frame 15 fps mp4 whose frame i shows a bright bar at row 2*i (readable after coding)."""
    path = tmp_path / "clip.mp4"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 15.0, (96, 64))
    assert w.isOpened()
    for i in range(30):
        img = np.zeros((64, 96, 3), np.uint8)
        img[2 * i:2 * i + 4, :] = 255
        w.write(img)
    w.release()
    return path


def _bar_row(img) -> int:
    return int(np.argmax(img[:, :, 1].mean(axis=1)))


def test_video_gives_every_frame_in_order_at_its_own_rate(video):
    src = open_source(str(video), fps=99)        # --fps is for folders: the file's own rate wins
    assert src.fps == pytest.approx(15.0) and not src.live
    frames = _frames(src)
    src.close()
    assert [f.index for f in frames] == list(range(30))
    assert [f.t for f in frames] == [round(i / 15, 6) for i in range(30)]
    rows = [_bar_row(f.image) for f in frames]
    assert all(abs(r - (2 * i + 1.5)) <= 2 for i, r in enumerate(rows))   # frame i is frame i


def test_video_realtime_skips_what_a_slow_consumer_missed(video):
    src = open_source(str(video), realtime=True)
    got, start = [], time.monotonic()
    for f in src:
        got.append(f)
        time.sleep(0.2)                          # three frame times at 15 fps
    took = time.monotonic() - start
    src.close()
    idx = [f.index for f in got]
    assert idx == sorted(set(idx)) and idx[0] == 0
    assert 6 <= len(got) <= 14 and src.dropped == 30 - len(got)
    assert took < 3.5                            # the 2 s clip is not played slower than real time
    for f in got:                                # the frame given is the one due, not a stale one
        assert abs(_bar_row(f.image) - (2 * f.index + 1.5)) <= 2


def test_video_realtime_is_paced(video):
    src = open_source(str(video), realtime=True)
    start = time.monotonic()
    n = len(_frames(src))
    took = time.monotonic() - start
    assert n == 30 and src.dropped == 0 and took >= 29 / 15 - 0.05


# -- bad specs ----------------------------------------------------------------------------------------
def test_bad_specs_are_clear_errors(tmp_path):
    with pytest.raises(UserError, match="no such file or camera: nowhere.mp4"):
        open_source("nowhere.mp4")
    with pytest.raises(UserError, match="no images"):
        open_source(str(tmp_path))
    phone = tmp_path / "phone"
    phone.mkdir()
    (phone / "IMG_0001.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    with pytest.raises(UserError, match="its 1 HEIC .HEIF. photo cannot be read here; convert it to JPEG"):
        open_source(str(phone))
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x00" * 100)
    with pytest.raises(UserError, match="cannot read .*junk.mp4 as a video"):
        open_source(str(junk))
    img = tmp_path / "one.png"
    cv2.imwrite(str(img), np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(UserError, match="single image"):
        open_source(str(img))
    for fps in (0, -5, 1e-320, float("nan"), 1e9):       # 1e-320 fps once made a frame's time no number
        with pytest.raises(UserError, match="--fps must be a number from 0.01 to 1000"):
            open_source(str(tmp_path), fps=fps)
    with pytest.raises(UserError, match="no source"):
        open_source("  ")


# -- live: a fake camera --------------------------------------------------------------------------------
class World:
    """A fake camera shared by every capture the factory opens: it delivers a frame every
    ``period`` seconds (the frame's pixel value is its serial number), and a test can unplug it."""

    def __init__(self, period: float = 0.004):
        self.period = period
        self.plugged = True
        self.serial = 0
        self.opens: list[float] = []
        self.lock = threading.Lock()

    def factory(self, spec: str):
        self.opens.append(time.monotonic())
        return FakeCapture(self)


class FakeCapture:
    def __init__(self, world: World):
        self.world = world
        self.opened = world.plugged

    def isOpened(self):
        return self.opened

    def read(self):
        time.sleep(self.world.period)
        if not (self.opened and self.world.plugged):
            return False, None
        with self.world.lock:
            self.world.serial += 1
            n = self.world.serial
        img = np.zeros((4, 4, 3), np.uint16).astype(np.int64)
        img[...] = n
        return True, img

    def get(self, prop):
        return 30.0 if prop == cv2.CAP_PROP_FPS else 0.0

    def release(self):
        self.opened = False


def _collect(src, until, limit_s=5.0, slow=0.0):
    """Items from ``src`` until ``until(items)`` is true (or ``limit_s`` passes)."""
    items, start = [], time.monotonic()
    for it in src:
        items.append(it)
        if until(items) or time.monotonic() - start > limit_s:
            break
        if slow and isinstance(it, Frame):
            time.sleep(slow)
    return items


def test_live_slow_consumer_always_gets_the_newest_frame():
    world = World(period=0.004)
    src = open_source("0", capture_factory=world.factory, backoff=FAST)
    assert src.live and src.fps == 30.0 and "camera 0" in src.describe()
    seen, behind = [], []
    try:
        for it in src:
            assert isinstance(it, Frame)
            # how many frames the camera has delivered since the one we were given
            behind.append(world.serial - int(it.image[0, 0, 0]))
            seen.append(it)
            if len(seen) == 8:
                break
            time.sleep(0.05)                    # a slow consumer: ~12 camera frames per step
    finally:
        src.close()
    # the newest frame (a stale one would be ~12 behind; allow for a busy machine now and then)
    assert sum(b <= 3 for b in behind) >= 6, behind
    idx = [f.index for f in seen]
    assert idx == sorted(set(idx)) and idx[-1] - idx[0] >= 40      # gaps: stale frames skipped
    assert src.dropped >= 40
    assert [f.t for f in seen] == sorted(f.t for f in seen)


def test_live_camera_drops_out_and_comes_back():
    world = World()
    src = open_source("rtsp://user:pw@10.0.0.9/live", capture_factory=world.factory, backoff=FAST)
    assert "pw" not in src.describe()
    items = []
    try:
        items += _collect(src, lambda it: len(_frames(it)) >= 5)
        world.plugged = False
        items += _collect(src, lambda it: any(a.code == "camera_lost" for a in _alerts(it)))
        time.sleep(0.1)                          # a few reconnection attempts fail
        world.plugged = True
        items += _collect(src, lambda it: len(_frames(it)) >= 3)
    finally:
        src.close()
    codes = [a.code for a in _alerts(items)]
    assert codes == ["camera_lost", "camera_back"]
    lost, back = _alerts(items)
    assert "reconnecting" in lost.message and "再接続" in lost.message_ja and "pw" not in lost.message
    assert "back" in back.message and "復旧" in back.message_ja
    i_lost, i_back = items.index(lost), items.index(back)
    assert i_lost < i_back and not _frames(items[i_lost:i_back])       # no frames while lost
    assert _frames(items[i_back:])                                      # frames again after
    assert len(world.opens) >= 3                                        # it did retry


def test_live_backoff_doubles_up_to_the_cap():
    world = World()
    src = open_source("0", capture_factory=world.factory, backoff=(0.02, 0.08), max_retries=6)
    world.plugged = False
    items = _collect(src, lambda it: False, limit_s=5)
    src.close()
    assert [a.code for a in _alerts(items)] == ["camera_lost", "source_ended"]
    ended = _alerts(items)[-1]
    assert "6 attempts" in ended.message and ended.message_ja
    gaps = np.diff(world.opens[1:])            # the first open was at start-up
    assert len(gaps) == 5
    expected = [0.04, 0.08, 0.08, 0.08, 0.08]
    for g, e in zip(gaps, expected):
        assert e * 0.9 <= g <= e + 0.15


def test_live_gives_up_without_raising():
    world = World()
    src = open_source("1", capture_factory=world.factory, backoff=FAST, max_retries=0)
    items = _collect(src, lambda it: len(_frames(it)) >= 2)
    world.plugged = False
    items += list(src)                          # ends by itself
    src.close()
    assert [a.code for a in _alerts(items)] == ["camera_lost", "source_ended"]


def test_live_read_that_raises_is_a_lost_camera():
    class Exploding(FakeCapture):
        def read(self):
            raise RuntimeError("driver fault")

    calls = {"n": 0}
    world = World()

    def factory(spec):
        calls["n"] += 1
        return FakeCapture(world) if calls["n"] > 1 else Exploding(world)

    src = open_source("0", capture_factory=factory, backoff=FAST, max_retries=5)
    items = _collect(src, lambda it: len(_frames(it)) >= 2)
    src.close()
    assert [a.code for a in _alerts(items)][:2] == ["camera_lost", "camera_back"]


def test_live_camera_missing_at_start_is_retried_like_one_lost_mid_run():
    world = World()
    world.plugged = False
    src = open_source("7", capture_factory=world.factory, backoff=FAST)     # no error: it waits
    items = []
    try:
        items += _collect(src, lambda it: any(a.code == "camera_lost" for a in _alerts(it)))
        time.sleep(0.1)                          # a few attempts fail
        world.plugged = True                     # the camera is plugged in
        items += _collect(src, lambda it: len(_frames(it)) >= 3)
    finally:
        src.close()
    assert [a.code for a in _alerts(items)] == ["camera_lost", "camera_back"]
    lost = _alerts(items)[0]
    assert "camera 7 cannot be opened; trying again" in lost.message and "再接続" in lost.message_ja
    assert isinstance(items[0], SourceAlert) and len(_frames(items)) >= 3
    assert src.fps == 30.0 and src.gave_up is None          # the rate the camera gives, once it is there


def test_live_camera_missing_at_start_with_no_retry_is_a_user_error():
    world = World()
    world.plugged = False
    with pytest.raises(UserError, match="no such file or camera: 7"):
        open_source("7", capture_factory=world.factory, give_up_after=0)


@pytest.mark.parametrize("when", ["at start-up", "mid-run"])
def test_live_gives_up_after_the_set_seconds_with_a_clear_reason(when):
    world = World()
    world.plugged = when == "mid-run"
    src = open_source("0", capture_factory=world.factory, backoff=(0.02, 0.05), give_up_after=0.4)
    items = _collect(src, lambda it: len(_frames(it)) >= 2, limit_s=2) if world.plugged else []
    world.plugged = False
    start = time.monotonic()
    items += list(src)                           # ends by itself
    took = time.monotonic() - start
    src.close()
    assert [a.code for a in _alerts(items)] == ["camera_lost", "source_ended"]
    lost, ended = _alerts(items)
    assert "stops after 0.4 s" in lost.message and "0.4 秒" in lost.message_ja
    assert "--give-up-after 0.4" in ended.message and "停止します" in ended.message_ja
    assert src.gave_up == (ended.message, ended.message_ja)
    assert 0.35 <= ended.t - lost.t <= 1.5 and took < 3.0
    assert len(world.opens) >= 4                 # it did retry with backoff until then


def test_bad_give_up_after_is_a_clear_error():
    with pytest.raises(UserError, match="--give-up-after must be 0 or more"):
        open_source("0", give_up_after=-1)


def test_opencv_and_ffmpeg_messages_stay_off_the_terminal(tmp_path):
    import subprocess
    import sys

    junk = tmp_path / "junk.mp4"
    junk.write_bytes(np.random.default_rng(0).integers(0, 255, 3000, dtype=np.uint8).tobytes())
    code = ("import sys\n"
            "from dealer_assist.errors import UserError\n"
            "from dealer_assist.live.sources import open_source\n"
            "for spec in (sys.argv[1], '57'):\n"
            "    try:\n"
            "        open_source(spec, give_up_after=0)\n"
            "    except UserError as exc:\n"
            "        print(exc, file=sys.stderr)\n")
    env = {k: v for k, v in __import__("os").environ.items()
           if not k.startswith(("OPENCV_", "DEALER_ASSIST_DEBUG"))}
    out = subprocess.run([sys.executable, "-c", code, str(junk)], capture_output=True, text=True, env=env,
                         timeout=120)
    lines = out.stderr.strip().splitlines()
    assert lines == [f"cannot read {junk} as a video (or an image folder)",
                     "no such file or camera: 57 (cannot open camera 57)"], out.stderr
    # with DEALER_ASSIST_DEBUG=1 the libraries' own words are let through, for whoever debugs
    out = subprocess.run([sys.executable, "-c", code, str(junk)], capture_output=True, text=True,
                         env=dict(env, DEALER_ASSIST_DEBUG="1"), timeout=120)
    assert len(out.stderr.strip().splitlines()) > 2


def test_close_stops_the_grabber():
    world = World()
    src = open_source("0", capture_factory=world.factory, backoff=FAST)
    it = iter(src)
    next(it)
    src.close()
    n = world.serial
    time.sleep(0.05)
    assert world.serial - n <= 1
    assert not any(t.name.startswith("grab-") and t.is_alive() for t in threading.enumerate())
