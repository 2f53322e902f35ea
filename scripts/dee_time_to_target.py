#!/usr/bin/env python3
"""DEE optimisers compared at equal objective: for each (dataset, repeat), the first iteration and
cumulative seconds at which each optimiser's trace reaches the final objective of FP (the paper's
second-fastest method), from a results file written with keep_traces (configs/dee_optimizers.yaml).

The stop rule (relative change of A below 1e-3) ends the runs at different objectives, so whole-run
times alone compare unequal work; this table is the "LD needs ~30x fewer iterations" claim as a
measurement.

Usage: /usr/bin/python3 scripts/dee_time_to_target.py results/dee_optimizers.h5 [OUT.md]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from drbench import results  # noqa: E402

ORDER = ["DEE-LD", "DEE-FP", "DEE-CG", "DEE-GD"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    r = results.load(sys.argv[1])
    m = r.traces.merge(r.tasks[["id", "dataset", "label", "repeat"]], left_on="task_id",
                       right_on="id")
    lines = ["# DEE optimisers at equal objective (target: FP's final objective)", "",
             f"From {sys.argv[1]}. Cells: iterations / seconds until the trace first reaches the "
             "target; '-' = never within the run.", "",
             "| dataset | repeat | target | " + " | ".join(ORDER) + " | FP / LD iterations |",
             "|---|---|---|" + "---|" * (len(ORDER) + 1)]
    for ds in sorted(m.dataset.unique()):
        for rep in sorted(m[m.dataset == ds].repeat.unique()):
            d = m[(m.dataset == ds) & (m.repeat == rep)]
            target = d[d.label == "DEE-FP"].objective.iloc[-1]
            cells, its = [], {}
            for lab in ORDER:
                g = d[d.label == lab]
                hit = g[g.objective <= target * (1 + 1e-12)]
                if hit.empty:
                    cells.append("-")
                else:
                    its[lab] = max(int(hit.iteration.iloc[0]), 1)
                    cells.append(f"{int(hit.iteration.iloc[0])} / {hit.seconds.iloc[0]:.2f} s")
            ratio = f"{its['DEE-FP'] / its['DEE-LD']:.0f}" if "DEE-LD" in its else "-"
            lines.append(f"| {ds} | {rep} | {target:.4g} | " + " | ".join(cells) + f" | {ratio} |")
    text = "\n".join(lines) + "\n"
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
