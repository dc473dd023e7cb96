"""Scale-out on local clusters: records from N workers, merged, equal one single-process run.

The recipes of the guide's Spark and Dask page (docs/src/spark-dask.md), run as they are
written there: Dask (a dask.bag on a
distributed.LocalCluster of two worker processes) and Spark (pyspark, local[2]:
rdd.mapPartitions for records as dicts, mapInPandas for a DataFrame of JSON records).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import signprep
from conftest import FIXTURES, HOSTILE, ROOT, pdfs

# Absolute paths: worker processes need not share the test's working folder.
FILES = [str(p) for p in pdfs(FIXTURES) + pdfs(HOSTILE)]


def single_process() -> List[Dict[str, Any]]:
    records = list(signprep.scan_many(FILES))
    assert len(records) == len(FILES)
    return records


def test_dask_bag_on_a_local_cluster() -> None:
    import dask.bag as db
    from distributed import Client, LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, Client(cluster) as client:
        # One scan_many per partition, one signprep thread per Dask worker thread.
        bag = db.from_sequence(FILES, npartitions=4).map_partitions(
            lambda paths: list(signprep.scan_many(paths, jobs=1))
        )
        records = bag.compute()
        workers = client.run(os.getpid)
    assert len(set(workers.values())) == 2, "two worker processes"
    assert records == single_process()


def docs_block(heading: str) -> str:
    """The first ```python block after `heading` in docs/src/spark-dask.md."""
    text = (ROOT / "docs" / "src" / "spark-dask.md").read_text(encoding="utf-8")
    after = text[text.index(heading) :]
    start = after.index("```python\n") + len("```python\n")
    return after[start : after.index("```", start)]


def test_dask_recipe_runs_when_pasted_into_a_script(tmp_path: Path) -> None:
    # As a user pastes it: a file run by `python`, whose worker processes import it again.
    script = tmp_path / "scan_dask.py"
    script.write_text(docs_block("### Dask"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), str(FIXTURES)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    ok = sum(r["status"] == "ok" for r in signprep.scan_many(pdfs(FIXTURES)))
    assert done.stdout.strip().splitlines()[-1] == f"{len(pdfs(FIXTURES))} records, {ok} ok"


def test_spark_local_mappartitions_and_mapinpandas() -> None:
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    import pandas as pd
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("signprep-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    try:
        sc = spark.sparkContext
        # Records as dicts: an RDD of paths, scan_many per partition.
        rdd = sc.parallelize(FILES, 4).mapPartitions(
            lambda paths: signprep.scan_many(list(paths), jobs=1)
        )
        records = rdd.collect()
        assert records == single_process()

        # A DataFrame: one row per file, the record as a JSON string column.
        df = spark.createDataFrame(
            [(i, p) for i, p in enumerate(FILES)], "i long, path string"
        ).repartition(2)

        def scan_batches(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
            for batch in batches:
                recs = list(signprep.scan_many(list(batch["path"]), jobs=1))
                yield pd.DataFrame(
                    {
                        "i": batch["i"],
                        "status": [r["status"] for r in recs],
                        "record": [json.dumps(r) for r in recs],
                    }
                )

        out = df.mapInPandas(scan_batches, "i long, status string, record string")
        rows = sorted(out.collect(), key=lambda row: row["i"])
        assert [json.loads(row["record"]) for row in rows] == single_process()
        assert sum(row["status"] == "error" for row in rows) > 0
    finally:
        spark.stop()
