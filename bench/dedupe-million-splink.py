"""Splink 5 on DuckDB over the records of bench/dedupe-million.ts (one JSON record a line), for its
side-by-side row: the settings of bench/dedupe-splink.py (the tutorial's comparisons, u by random
sampling, m by EM on two blocking rules, the second one selective: see below), DuckDB reading the
file itself, two threads like our run, spilling to a scratch database on disk (out of core) past
SPLINK_MEMORY_LIMIT (default 6GB, our bar's memory). Bench only (`pip install splink`); never a
runtime dependency of recapito.

Usage: python3 bench/dedupe-million-splink.py <records.ndjson> <scratch dir>
Output (stdout, last line): one JSON object {records, seconds, cpu_seconds, peak_rss_mib, pairs, clusters}
— clusters of two or more records at match probability 0.9.
"""
import json
import os
import resource
import sys
import time

import duckdb
import splink.comparison_library as cl
from splink import DuckDBAPI, Linker, SettingsCreator, block_on

THRESHOLD = 0.9


def cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def main(path: str, scratch: str) -> None:
    os.makedirs(scratch, exist_ok=True)
    db_file = os.path.join(scratch, "splink.duckdb")
    for leftover in (db_file, db_file + ".wal"):
        if os.path.exists(leftover):
            os.remove(leftover)
    started = time.time()
    con = duckdb.connect(db_file)
    con.execute("SET threads = 2").fetchall()
    # Our bar's memory (6 GiB): DuckDB's default limit is 80 % of RAM, and at 5 million records
    # with the default it grew past 19 GiB; with a limit it spills to the temp directory instead.
    con.execute(f"SET memory_limit = '{os.environ.get('SPLINK_MEMORY_LIMIT', '6GB')}'").fetchall()
    con.execute(f"SET temp_directory = '{scratch}'").fetchall()
    # The bench's records: phone and e-mail are absent from some, birth date from many.
    con.execute(
        f"""CREATE TABLE records AS SELECT
              CAST(id AS VARCHAR) AS unique_id, first_name, last_name AS surname, address, postcode, city,
              birth_date AS dob, phone, email
            FROM read_json('{path}', format = 'newline_delimited',
              columns = {{id: 'BIGINT', first_name: 'VARCHAR', last_name: 'VARCHAR', address: 'VARCHAR',
                          postcode: 'VARCHAR', city: 'VARCHAR', birth_date: 'VARCHAR', phone: 'VARCHAR',
                          email: 'VARCHAR'}})"""
    ).fetchall()
    records = con.execute("SELECT count(*) FROM records").fetchall()[0][0]
    db = DuckDBAPI(connection=con)
    settings = SettingsCreator(
        link_type="dedupe_only",
        comparisons=[
            cl.NameComparison("first_name"),
            cl.NameComparison("surname"),
            cl.LevenshteinAtThresholds("address", [1, 2]),
            cl.PostcodeComparison("postcode"),
            cl.JaroWinklerAtThresholds("city", [0.9]),
            cl.LevenshteinAtThresholds("dob", [1, 2]),
            cl.ExactMatch("phone"),
            cl.EmailComparison("email"),
        ],
        blocking_rules_to_generate_predictions=[
            block_on("first_name", "surname"),
            block_on("surname", "dob"),
            block_on("first_name", "dob"),
            block_on("postcode", "first_name"),
            block_on("address"),
            block_on("phone"),
        ],
        retain_intermediate_calculation_columns=False,
    )
    linker = Linker(db.register("records"), settings, log_level=40)
    linker.training.estimate_probability_two_random_records_match([block_on("first_name", "surname")], recall=0.7)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6)
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("first_name", "surname"))
    # bench/dedupe-splink.py's second training block (postcode alone) makes n²/postcodes pairs: 90
    # million at 100k records, billions at 1M. At scale Splink's advice is a selective training block;
    # the address is one (it trains every comparison but the address).
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("address"))
    predictions = linker.inference.predict(threshold_match_probability=THRESHOLD)
    pairs = con.execute(f"SELECT count(*) FROM {predictions.physical_name}").fetchall()[0][0]
    clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(
        predictions, threshold_match_probability=THRESHOLD
    )
    groups = con.execute(
        f"SELECT count(*) FROM (SELECT cluster_id FROM {clusters.physical_name} GROUP BY cluster_id HAVING count(*) > 1)"
    ).fetchall()[0][0]
    seconds = time.time() - started
    con.close()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "records": records,
                "seconds": round(seconds, 1),
                "cpu_seconds": round(cpu_seconds(), 1),
                "peak_rss_mib": round(peak_kib / 1024),
                "pairs": pairs,
                "clusters": groups,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
