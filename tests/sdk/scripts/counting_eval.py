"""An evaluation whose task logs each call (`pid country`) to a file: run, killed, run again.

Usage: counting_eval.py DATASET EXPERIMENT KEY CALLS_FILE; prints the result as JSON.
Runs in the SDK's clean venv: nothing but shipwise-client and the standard library.
"""

import json
import os
import sys
import time

import shipwise

dataset, experiment, key, calls_file = sys.argv[1:5]


def task(case):
    with open(calls_file, "a") as calls:
        calls.write(f"{os.getpid()} {case['country']}\n")
    time.sleep(0.02)  # a model call's latency: the test kills this process between calls
    return f"{case['country']}@{os.getpid()}"


result = shipwise.evaluate(
    task, dataset, experiment, trials=2, concurrency=2, baseline=None, idempotency_key=key
)
answer = {"run": result.run_id, "calls": result.task_calls, "resumed": result.resumed_items}
sys.stdout.write(json.dumps(answer) + "\n")
