"""The API reference pages, one per public module, generated at build time (mkdocs-gen-files).

Nothing here names a module: the pages follow the package tree as installed
(laid out in ``build/api-src`` by the hook ``stage_api.py``), so a module
added, moved or renamed needs no edit of the docs.
"""

from __future__ import annotations

import os
from pathlib import Path

import mkdocs_gen_files

ROOT = Path(__file__).resolve().parents[2]
TOP = ROOT / "build" / "api-src" / "trickgym"  # laid out by stage_api.py


def modules(top: Path) -> list[tuple[str, ...]]:
    """Dotted parts of every public module and package under ``top``, in path order."""
    found = []
    # os.walk, not Path.rglob: the staged folders are links, which rglob does not enter.
    paths = [
        Path(folder, name)
        for folder, dirs, files in os.walk(top, followlinks=True)
        if "__pycache__" not in Path(folder).parts
        for name in files
        if name.endswith(".py")
    ]
    for path in sorted(paths):
        parts = path.relative_to(top.parent).with_suffix("").parts
        # A module is importable only if each folder above it is a package.
        folders = [top.parent.joinpath(*parts[:i]) for i in range(1, len(parts))]
        if not all((folder / "__init__.py").exists() for folder in folders):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        elif parts[-1].startswith("_"):
            continue
        if any(part.startswith("_") for part in parts):
            continue
        found.append(parts)
    return found


def main() -> None:
    """Write ``reference/<dotted path>.md`` per module and the section's nav."""
    nav = mkdocs_gen_files.Nav()
    top = TOP
    for parts in modules(top):
        is_package = (top.parent.joinpath(*parts) / "__init__.py").exists()
        page = (
            Path("reference", *parts, "index.md")
            if is_package
            else Path("reference", *parts[:-1], f"{parts[-1]}.md")
        )
        nav[parts] = page.relative_to("reference").as_posix()
        with mkdocs_gen_files.open(page, "w") as out:
            out.write(f"::: {'.'.join(parts)}\n")
    with mkdocs_gen_files.open("reference/SUMMARY.md", "w") as out:
        out.writelines(nav.build_literate_nav())


main()
