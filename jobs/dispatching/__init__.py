"""Dispatch internals: a pipeline of admission, a fixed set of callers and a recorder.

`jobs.dispatch` holds the job and one delivery's course; this package keeps the window of calls full
while the database works: admission checkpoints trials ahead of the callers, callers take
them from a queue, and the recorder writes their outcomes in batches that close by size or
by time, each stage concurrent with the others. Beside it: the ranges a delivery holds
(`holdings`), its leases and slots kept alive (`keepalive`), join jobs that bring other
processes in (`joins`) and the run's end (`ending`).
"""
