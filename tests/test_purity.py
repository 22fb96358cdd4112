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


def test_no_module_but_the_registry_branches_on_a_games_name():
    """One registry (issue 22): a game's differences live in its rules, its live hooks and its
    entry in ``games.GAMES``; no other module compares a game's name (``if game == "stud7"``)."""
    from dealer_assist.games import game_names

    names = set(game_names())
    offenders = []
    for path in sorted((RULES.parent).rglob("*.py")):
        if path.name == "games.py" or "rules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            named = [s.value for s in sides if isinstance(s, ast.Constant) and s.value in names]
            named += [e.value for s in sides if isinstance(s, (ast.Tuple, ast.List, ast.Set))
                      for e in s.elts if isinstance(e, ast.Constant) and e.value in names]
            about_game = any("game" in ast.unparse(s).lower() for s in sides)
            if named and about_game:
                offenders.append(f"{path.relative_to(RULES.parent)}:{node.lineno} {ast.unparse(node)}")
    assert offenders == []
