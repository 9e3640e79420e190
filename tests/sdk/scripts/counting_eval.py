"""An evaluation whose task logs each call (`pid country`) to a file: run, killed, run again.

Usage: counting_eval.py DATASET EXPERIMENT KEY CALLS_FILE [HANG_AFTER]; prints the result
as JSON. With HANG_AFTER, every call after that many (counted in the file) hangs, as a
stuck provider would, until the test kills the process.
Runs in the SDK's clean venv: nothing but shipwise-client and the standard library.
"""

import json
import os
import sys
import threading

import shipwise

dataset, experiment, key, calls_file = sys.argv[1:5]
hang_after = int(sys.argv[5]) if len(sys.argv) > 5 else None
lock = threading.Lock()


def task(case):
    with lock, open(calls_file, "a+") as calls:
        calls.write(f"{os.getpid()} {case['country']}\n")
        calls.seek(0)
        made = len(calls.readlines())
    if hang_after is not None and made > hang_after:
        threading.Event().wait()  # hangs until SIGKILL
    return f"{case['country']}@{os.getpid()}"


result = shipwise.evaluate(
    task, dataset, experiment, trials=2, concurrency=2, baseline=None, idempotency_key=key
)
answer = {"run": result.run_id, "calls": result.task_calls, "resumed": result.resumed_items}
sys.stdout.write(json.dumps(answer) + "\n")
