"""Splink 5 (DuckDB) on a labelled list, for bench/dedupe-eval.ts: the tutorial's standard
settings, trained on the list itself (u by random sampling, m by EM on two blocking rules).
Bench only: `pip install splink`; never a runtime dependency of recapito.

Input: a CSV with unique_id, entity, first_name, surname, address, postcode, city, dob, phone, email.
Output (stdout): one JSON object {seconds, levels: {threshold: {tp, fp, fn}}} — pairs inside the
clusters at each match-probability threshold.
"""
import json
import sys
import time
from itertools import combinations

import pandas as pd
import splink.comparison_library as cl
from splink import DuckDBAPI, Linker, SettingsCreator, block_on

THRESHOLDS = [0.99, 0.9, 0.5]


def main(path: str) -> None:
    df = pd.read_csv(path, dtype=str, keep_default_na=False).replace({"": None})
    started = time.time()
    db = DuckDBAPI()
    table = db.register(df.drop(columns=["entity"]))
    comparisons = [
        cl.NameComparison("first_name"),
        cl.NameComparison("surname"),
        cl.LevenshteinAtThresholds("address", [1, 2]),
        cl.PostcodeComparison("postcode") if df["postcode"].notna().any() else cl.ExactMatch("postcode"),
        cl.JaroWinklerAtThresholds("city", [0.9]),
    ]
    if df["dob"].notna().any():
        comparisons.append(cl.LevenshteinAtThresholds("dob", [1, 2]))
    if df["phone"].notna().any():
        comparisons.append(cl.ExactMatch("phone"))
    if df["email"].notna().any():
        comparisons.append(cl.EmailComparison("email"))
    blocking = [
        block_on("first_name", "surname"),
        block_on("surname", "dob") if df["dob"].notna().any() else block_on("surname", "city"),
        block_on("first_name", "dob") if df["dob"].notna().any() else block_on("first_name", "city"),
        block_on("postcode", "first_name"),
        block_on("address"),
    ]
    if df["phone"].notna().any():
        blocking.append(block_on("phone"))
    settings = SettingsCreator(
        link_type="dedupe_only",
        comparisons=comparisons,
        blocking_rules_to_generate_predictions=blocking,
        retain_intermediate_calculation_columns=False,
    )
    linker = Linker(table, settings, log_level=40)
    linker.training.estimate_probability_two_random_records_match(
        [block_on("first_name", "surname")], recall=0.7
    )
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6)
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("first_name", "surname"))
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("postcode"))
    predictions = linker.inference.predict(threshold_match_probability=min(THRESHOLDS))
    out = {}
    truth_entity = dict(zip(df["unique_id"], df["entity"]))
    by_entity: dict = {}
    for uid, e in truth_entity.items():
        by_entity.setdefault(e, []).append(uid)
    true_pairs = sum(len(m) * (len(m) - 1) // 2 for m in by_entity.values())
    for t in THRESHOLDS:
        clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(
            predictions, threshold_match_probability=t
        ).as_pandas_dataframe()
        tp = fp = 0
        for _, members in clusters.groupby("cluster_id")["unique_id"]:
            for x, y in combinations(list(members), 2):
                if truth_entity[str(x)] == truth_entity[str(y)]:
                    tp += 1
                else:
                    fp += 1
        out[str(t)] = {"tp": tp, "fp": fp, "fn": true_pairs - tp}
    print(json.dumps({"seconds": round(time.time() - started, 2), "levels": out}))


if __name__ == "__main__":
    main(sys.argv[1])
