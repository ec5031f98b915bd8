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
    assert not re.search(r'(src|href)="(?!data:|#)', text)  # nothing outside the file
    assert "Tapp" in text and "hf_trumps" in text and "400 deals" in text


def test_report_of_a_chunked_folder(tmp_path, capsys):
    folder = tmp_path / "run"
    simulate("troggu", deals=400, agents="rule", seed=2, players=4, chunk=150, out=folder)
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


def test_report_reads_as_a_person_would(tmp_path):
    """Issue 17: a raw dict for the metadata, counts as 19,702.00, raw column names, hcp bins
    as (-0.001, 11.0], unflagged n=1 rows, no contract frequency, contents or data dictionary."""
    from trickgym.analysis import html_report

    df = simulate("solowhist", deals=3000, agents="rule", seed=1)
    df.attrs["metadata"] = {"game": "solowhist", "seed": 1, "options": {"unit": 5}}
    text = re.sub(r'data:image/png;base64,[^"]+', "", html_report(df))
    assert "{'game'" not in text and "<th>seed</th><td>1</td>" in text  # a table, not a repr
    assert "<th>deals</th>" in text and "<th>made %</th>" in text and "<th>% of deals</th>" in text
    assert "made_pct" not in text and "ci_low_pct" not in text
    cells = re.findall(r"<td>([^<]*)</td>", text)
    counts = {c for c in cells if re.fullmatch(r"[\d,]+\.00", c)}
    assert "3,000.00" not in counts and not any(c.startswith("1,") for c in counts), counts
    assert "(-0.001" not in text and "<th>0–11</th>" in text  # hf_hcp quantile bins
    assert "†" in text and "fewer than 30 deals" in text  # Misère Ouverte: 1 deal (plots.MIN_DEALS)
    assert "Passed-out (no contract) rate:" in text
    assert "<nav><h2>Contents</h2>" in text and 'href="#s1"' in text and 'id="s1"' in text
    assert "Hand features (data dictionary)" in text
    assert "high-card points of the hand: A 4, K 3, Q 2, J 1" in text


def test_a_contract_has_one_colour_in_every_plot():
    """Colours came from the order of the lines, so Solo changed colour from plot to plot."""
    from matplotlib.colors import to_hex

    from trickgym.analysis import plots, success_by_feature

    df = simulate("solowhist", deals=3000, agents="rule", seed=1)
    colours = []
    for keep in (["Solo", "Prop & Cop"], ["Solo"]):
        rows = df[df["contract"].isin(keep)]
        fig = plots.plot_feature_success(success_by_feature(rows, "hf_trump_len"))
        lines = {t.get_text(): to_hex(h.get_color()) for t, h in zip(
            fig.axes[0].get_legend().get_texts(), fig.axes[0].get_legend().legend_handles,
            strict=True)}  # fmt: skip
        colours.append(lines["Solo"])
    assert colours[0] == colours[1]
    assert plots.integer_bin_label(__import__("pandas").Interval(-0.001, 11.0)) == "0–11"
    assert plots.integer_bin_label(__import__("pandas").Interval(13.0, 14.0)) == "14"
