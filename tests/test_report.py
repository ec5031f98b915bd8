"""``trickgym report DATASET``: a self-contained HTML report from Parquet."""

from __future__ import annotations

import re

import pytest

from trickgym.cli import main
from trickgym.sim import simulate


@pytest.fixture(scope="module")
def troggu_rows():
    return simulate("troggu", deals=400, agents="rule", seed=2, players=4)


def test_report_of_a_parquet_file(troggu_rows, tmp_path, capsys):
    data = tmp_path / "troggu.parquet"
    troggu_rows.to_parquet(data, index=False)
    assert main(["report", str(data)]) == 0
    out = tmp_path / "troggu.html"  # default: beside the dataset
    assert f"wrote {out}" in capsys.readouterr().out
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "trickgym report: Troggu" in text
    images = re.findall(r'<img src="([^"]+)"', text)
    assert images and all(src.startswith("data:image/png;base64,") for src in images)
    assert not re.search(r'(src|href)="(?!data:)', text)  # nothing outside the file
    assert "Tapp" in text and "hf_trumps" in text and "400 deals" in text


def test_report_of_a_chunked_folder(troggu_rows, tmp_path, capsys):
    folder = tmp_path / "run"
    folder.mkdir()
    troggu_rows.iloc[:150].to_parquet(folder / "chunk-000000-deals-000000000000.parquet")
    troggu_rows.iloc[150:].to_parquet(folder / "chunk-000001-deals-000000000150.parquet")
    (folder / "_trickgym_run.json").write_text('{"game": "troggu", "seed": 2, "n_chunks": 2}')
    out = tmp_path / "r.html"
    assert main(["report", str(folder), "--out", str(out), "--title", "My run"]) == 0
    text = out.read_text()
    assert "<h1>My run</h1>" in text and "400 deals" in text and "seed" in text


def test_report_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing.parquet")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["report", str(tmp_path / "empty")]) == 2
    assert "no .parquet files" in capsys.readouterr().err
    (tmp_path / "bad.parquet").write_text("not parquet")
    assert main(["report", str(tmp_path / "bad.parquet")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "bad.parquet"), "--out", "/no/such/dir/r.html"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_report_uses_a_predicted_probability_column(troggu_rows, tmp_path):
    from trickgym.analysis import html_report

    rows = troggu_rows.assign(p_made=0.8)
    text = html_report(rows)
    assert "Calibration of the agents&#x27; own predictions (p_made)" in text
    assert "(p_made)" not in html_report(troggu_rows)
