"""The rules engine stays pure: usable and testable without OpenCV, Qt, models or files."""
import ast
import pathlib

FORBIDDEN = {"cv2", "PySide6", "onnxruntime", "ultralytics", "torch", "sqlite3", "subprocess",
             "socket", "os", "shutil", "pathlib", "io"}
RULES = pathlib.Path(__file__).resolve().parent.parent / "dealer_assist" / "rules"


def test_rules_engine_imports_nothing_impure():
    offenders = []
    live = RULES.parent / "live"
    for path in sorted(RULES.rglob("*.py")) + [live / "tracker.py", live / "handflow.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
                offenders.append(f"{path.name}:{node.lineno} calls open()")
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.name}:{node.lineno} imports {name}")
    assert offenders == []
