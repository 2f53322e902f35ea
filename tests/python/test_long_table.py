"""drbench.results.long_table: the aggregator's long CSV with --details, pooling included, read
back at full precision and checked against the task rows."""
import numpy as np
import pytest

from drbench import results as dres


def test_long_table_matches_the_task_rows(raw_results):
    r = dres.load(raw_results)
    t = dres.long_table(raw_results)
    assert {"pairs", "t", "mean_diff", "fit_seconds", "chosen"} <= set(t.columns)
    assert t["chosen"].eq(1).all() and t["dim"].dtype.kind == "i"
    tasks = r.tasks[r.tasks["ok"]]
    for row in t[t["k"] == 1].itertuples():
        d = tasks[(tasks.label == row.method) & (tasks.split_value == row.split_value)
                  & (tasks.dim == row.dim) & (tasks.setting == row.setting)]
        assert len(d) == row.n
        # Full precision: no 4-decimal rounding left in the numbers.
        assert row.mean_error_pct == pytest.approx(100 * d["error_k1"].mean(), abs=1e-12)
        assert row.fit_seconds == pytest.approx(d["fit_seconds"].mean(), abs=1e-12)
        if row.method != "LDA" and row.pairs > 1:
            ref = tasks[(tasks.label == "LDA") & (tasks.split_value == row.split_value)]
            ref = ref[ref.setting == t[(t.method == "LDA") & (t.split_value == row.split_value)
                                       & (t.k == 1)]["setting"].iloc[0]]
            diff = d.set_index("split_seed")["error_k1"] - ref.set_index("split_seed")["error_k1"]
            assert row.mean_diff == pytest.approx(100 * diff.dropna().mean(), abs=1e-12)
    # Every setting, and the reference passed through.
    every = dres.long_table(raw_results, all_settings=True, reference="")
    assert len(every) > len(t) and every["p_value"].isna().all()


def test_long_table_pools_labels(raw_results):
    t = dres.long_table(raw_results, pool_labels="LDA*=Any LDA", reference="")
    assert "LDA" not in set(t["method"]) and "Any LDA" in set(t["method"])
    pooled = t[t["method"] == "Any LDA"]
    assert pooled["setting"].str.match(r"^LDA( 1-D)?: ").all()
    with pytest.raises(ValueError, match="matches no method label"):
        dres.long_table(raw_results, pool_labels="GPLVM-*=GP")
