"""The rules pages in docs/rules define every decision id the repository cites.

Code, tests, notebooks and docs cite decisions as ``SW-D3``, ``TR-D4``,
``PH-D2/D3`` ...; each must be a heading of its game's page in docs/rules, so
a reader can look it up. Pure text scanning: no numba, well under a second.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
PAGES = {"SW": "solowhist", "TR": "troggu", "PH": "phat", "PN": "pinochle"}
SCANNED = ["src", "envs", "agents", "tests", "experiments", "benchmarks", "notebooks", "docs"]
SKIPPED_DIRS = {"__pycache__", ".ipynb_checkpoints", ".venv", ".git", "golden"}
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".txt", ".rst", ".cfg", ".json", ".yaml", ".yml"}

# An id, then any shorthand siblings: "PH-D2/D3" and "PH-D2/3" cite PH-D2 and PH-D3.
CITED = re.compile(r"\b(SW|TR|PH|PN)-D(\d+)((?:/D?\d+\b)*)")
DEFINED = re.compile(r"^#{2,6}\s+(SW|TR|PH|PN)-D(\d+)\b", re.MULTILINE)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def cited_ids(text: str) -> set[str]:
    """Every decision id cited in ``text``, shorthand like ``PH-D2/3`` expanded."""
    ids = set()
    for match in CITED.finditer(text):
        prefix = match.group(1)
        ids.add(f"{prefix}-D{int(match.group(2))}")
        for extra in re.findall(r"\d+", match.group(3)):
            ids.add(f"{prefix}-D{int(extra)}")
    return ids


def defined_ids(page: str) -> list[str]:
    """The decision ids a rules page defines: one heading per id, in page order."""
    return [f"{prefix}-D{int(n)}" for prefix, n in DEFINED.findall(page)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def scanned_files() -> list[Path]:
    """The text files whose citations must resolve (README.md and the SCANNED folders)."""
    files = [ROOT / "README.md"]
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if (
                path.is_file()
                and path.suffix in TEXT_SUFFIXES
                and not parts & SKIPPED_DIRS
                and not any(p.endswith(".egg-info") for p in parts)
            ):
                files.append(path)
    return files


def unresolved(citations: dict[str, set[str]], defined: dict[str, set[str]]) -> list[str]:
    """``"where: ID"`` for every cited id its game's page does not define."""
    return [
        f"{where}: {i}"
        for where, ids in citations.items()
        for i in sorted(ids)
        if i not in defined[i.split("-")[0]]
    ]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {
        prefix: (RULES / f"{name}.md").read_text(encoding="utf-8") for prefix, name in PAGES.items()
    }


@pytest.fixture(scope="module")
def defined(pages) -> dict[str, set[str]]:
    return {prefix: set(defined_ids(text)) for prefix, text in pages.items()}


def test_collector_reads_ids_and_shorthand():
    # Built from pieces so this file's own scan does not see them as citations.
    text = "\n".join(
        [
            "# the lead (" + "SW-D" + "9); muck bonus (" + "PH-D" + "2/D3) and (" + "PH-D" + "4/5)",
            "TR-D" + "04 and PN-DX and xSW-D1 and " + "TR-D" + "17.",
        ]
    )
    assert cited_ids(text) == {"SW-D9", "PH-D2", "PH-D3", "PH-D4", "PH-D5", "TR-D4", "TR-D17"}


def test_a_cited_id_no_page_defines_is_reported(defined):
    bad = "PN-D" + "99"
    source = f"x = 1  # the dealer is stuck ({bad})\n# deal (" + "SW-D" + "1)\n"
    assert unresolved({"fake.py": cited_ids(source)}, defined) == [f"fake.py: {bad}"]


def test_defined_ids_reads_headings_only():
    page = "## 10. Decisions\n\n### SW-D1 Deal packets\n\nsee SW-D2\n\n#### SW-D2\n"
    assert defined_ids(page) == ["SW-D1", "SW-D2"]


@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_each_page_defines_its_ids_once_and_in_order(pages, prefix):
    ids = defined_ids(pages[prefix])
    assert ids, f"docs/rules/{PAGES[prefix]}.md defines no {prefix}-Dn heading"
    assert len(ids) == len(set(ids)), f"{prefix}: an id is defined twice: {ids}"
    assert ids == [f"{prefix}-D{n}" for n in range(1, len(ids) + 1)], (
        f"{prefix}: decisions must run {prefix}-D1 to {prefix}-D{len(ids)} without gaps: {ids}"
    )
    # Each page defines only its own game's ids.
    assert {i.split("-")[0] for i in defined_ids(pages[prefix])} == {prefix}


def test_every_cited_id_resolves_to_a_rules_page(defined):
    citations = {}
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            ids = cited_ids(line)
            if ids:
                citations[f"{path.relative_to(ROOT)}:{number}"] = ids
    assert len(citations) > 50, "the scan found almost no citations: is it reading the repo?"
    missing = unresolved(citations, defined)
    assert not missing, "ids cited but not defined in docs/rules:\n" + "\n".join(missing)


def test_rules_pages_links_resolve(pages):
    index = (RULES / "README.md").read_text(encoding="utf-8")
    texts = {"README.md": index} | {f"{PAGES[p]}.md": t for p, t in pages.items()}
    anchors = {
        name: {slug(h) for h in re.findall(r"^#+\s+(.*)$", text, re.MULTILINE)}
        for name, text in texts.items()
    }
    broken = []
    for name, text in texts.items():
        for target in LINK.findall(text):
            file, _, anchor = target.partition("#")
            file = file or name
            if file not in texts or (anchor and anchor not in anchors[file]):
                broken.append(f"docs/rules/{name}: {target}")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_repository_points_to_the_rules_pages_it_ships():
    old = "shared" + "/rules"  # the project-internal folder the repository does not hold
    stale = [
        str(path.relative_to(ROOT))
        for path in scanned_files()
        if old in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert not stale, f"these files point to {old}/, not docs/rules/: {stale}"
    assert "docs/rules/README.md" in (ROOT / "README.md").read_text(encoding="utf-8")
