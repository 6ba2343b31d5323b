"""`pip install .` works away from the checkout: every package and all of data/ is in the
wheel, and every environment variable the code reads is a documented setting."""

from __future__ import annotations

import ast
import os
import shutil
import site
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CODE = ("engine", "render", "bot", "ai", "i18n")  # what ships; ai/ and i18n/ once they exist
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", ".ci-venv", "__pycache__", "build",
                                     "dist", "*.egg-info", ".pytest_cache", ".hypothesis",
                                     ".ruff_cache", "*.db", ".env")


def test_every_package_is_listed_for_the_wheel() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in CODE if (ROOT / top).is_dir()
             for p in (ROOT / top).rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    # a folder of modules without __init__.py would be a namespace package the wheel leaves out
    bare = {str(p.parent.relative_to(ROOT)) for top in CODE if (ROOT / top).is_dir()
            for p in (ROOT / top).rglob("*.py") if not (p.parent / "__init__.py").exists()}
    assert bare == set(), "these folders of modules need an __init__.py"
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {"smallworld_data": "data"}


def _env_reads(tree: ast.AST) -> set[str]:
    """Names read with os.environ[...], os.environ.get(...) or os.getenv(...), with module
    constants resolved (CACHE_ENV = "X"; os.environ.get(CACHE_ENV))."""
    consts = {t.id: n.value.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
              and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
              for t in n.targets if isinstance(t, ast.Name)}

    def name(arg: ast.expr) -> str | None:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
        return consts.get(arg.id) if isinstance(arg, ast.Name) else None

    found = set()
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and node.args:
            f = ast.unparse(node.func)
            if f in ("os.environ.get", "os.getenv", "environ.get", "getenv"):
                key = name(node.args[0])
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("os.environ",):
            key = name(node.slice)
        if key:
            found.add(key)
    return found


def test_every_environment_variable_read_is_documented() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    reads: dict[str, set[str]] = {}
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")) if (ROOT / top).is_dir() else []:
            for key in _env_reads(ast.parse(path.read_text(encoding="utf-8"))):
                reads.setdefault(key, set()).add(str(path.relative_to(ROOT)))
    assert {"SMALLWORLD_DATA_DIR", "SMALLWORLD_RENDER_CACHE"} <= set(reads)
    undocumented = {k: v for k, v in reads.items() if k not in example}
    assert not undocumented, "document these in .env.example"
    from bot.settings import Settings

    ours = {k for k in reads if k.startswith("SMALLWORLD_")}
    assert ours <= {f.upper() for f in Settings.model_fields}, "make them settings too"
    for key in ours:
        assert f"\n{key}=" in example


def test_env_reader_sees_constants() -> None:
    tree = ast.parse('import os\nK = "A_B"\nos.environ.get(K)\nos.getenv("C")\nos.environ["D"]\n')
    assert _env_reads(tree) == {"A_B", "C", "D"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built offline from a copy of the checkout (the build leaves
    build/ and *.egg-info behind, which must not land in the repository)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=COPY_IGNORE)
    out = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "-w", str(out), str(src)],
                   check=True, capture_output=True, timeout=300)
    (built,) = out.glob("smallworld_discord-*.whl")
    return built


def test_wheel_ships_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data = ROOT / "data"
    shipped = {f"smallworld_data/{p.relative_to(data).as_posix()}" for p in data.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert shipped - names == set()
    assert "render/__main__.py" in names and "smallworld_data/__init__.py" in names
    assert any(n.startswith("bot/migrations/") and n.endswith(".sql") for n in names)
    assert "ai/weights/value.json" in names  # the AI's learned evaluation
    assert any(n.startswith("i18n/catalogs/hint/") for n in names)
    assert any(n.startswith("i18n/catalogs/web/") for n in names)
    static = ROOT / "bot" / "web" / "static"  # the built board page: the bot serves it
    page = {f"bot/web/static/{p.name}" for p in static.iterdir() if p.is_file()}
    assert "bot/web/static/index.html" in page and page - names == set()


def test_installed_wheel_draws_a_map_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    """A fresh venv holding only the wheel (its dependencies come from this interpreter's
    site-packages through a .pth file: no network), run from a folder beside nothing."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True,
                   capture_output=True, timeout=300)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True, timeout=300)
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # dependencies only: a bare path line adds the folder, its .pth files (this checkout's
    # editable finder among them) are not run
    (Path(purelib) / "_deps_from_test.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(ROOT / "docs" / "scenarios" / "map-3p.json", work / "s.json")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "SMALLWORLD_DATA_DIR", "VIRTUAL_ENV")}
    env["SMALLWORLD_RENDER_CACHE"] = "off"  # draw from the shipped geometry and fonts
    where = subprocess.run(
        [str(py), "-c", "import engine, render, bot; from engine import data; "
                        "print(engine.__file__); print(data.DATA_DIR)"],
        cwd=work, env=env, check=True, capture_output=True, text=True, timeout=120)
    engine_file, data_dir = where.stdout.split()
    assert engine_file.startswith(purelib), where.stdout
    assert data_dir == str(Path(purelib) / "smallworld_data"), where.stdout
    assert str(ROOT) not in where.stdout
    done = subprocess.run([str(py), "-m", "render", "s.json", "-o", "map.png"], cwd=work,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    png = (work / "map.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 20_000
    assert sorted(p.name for p in work.iterdir()) == ["map.png", "s.json"]
