"""Tables as aligned text for terminals and logs."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["format_bid_table", "format_table"]


def format_bid_table(table: pd.DataFrame) -> str:
    """The bid success table (:func:`bid_success`) as aligned text."""
    lines = [f"{'contract':<22}{'count':>10}{'made %':>9}   95% Wilson interval"]
    for name, row in table.iterrows():
        if np.isnan(row["made_pct"]):
            lines.append(f"{name!s:<22}{int(row['count']):>10}{'':>9}")
        else:
            lines.append(
                f"{name!s:<22}{int(row['count']):>10}{row['made_pct']:>8.2f}%"
                f"   [{row['ci_low_pct']:6.2f}%, {row['ci_high_pct']:6.2f}%]"
            )
    return "\n".join(lines)


def format_table(table: pd.DataFrame, digits: int = 2) -> str:
    """Any analysis table as aligned text, floats rounded to ``digits``."""
    return table.to_string(float_format=lambda x: f"{x:.{digits}f}", na_rep="")
