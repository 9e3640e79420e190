"""Dispatch: one delivery's course, its plan, store, ranges, leases and pipeline.

One home for dispatch. `dispatcher` holds one delivery's course and `deliver`, the entry
point the `dispatch_comparison` job (`jobs.delivery`) calls; each step lives with what it
changes: claiming ranges (`claims`), admitting and recording (`holdings.Books`) and the end
(`ending.End`). Beside them: the plan (`plan`), the store that admits and records (`store`,
`recording`), case ranges and leases (`ranges`, `lease`) and ambiguous outcomes
(`ambiguous`). The pipeline keeps the window of calls full while the database works:
admission checkpoints trials ahead of the callers, callers take them from a queue, and the
recorder writes their outcomes in batches that close by size or by time, each stage
concurrent with the others. Beside it: the ranges a delivery holds (`holdings`), its leases
and slots kept alive (`keepalive`), join jobs that bring other processes in (`joins`) and
the run's end (`ending`).
"""
