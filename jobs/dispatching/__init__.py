"""Dispatch internals: a pipeline of admission, a fixed set of callers and a recorder.

`jobs.dispatch` holds the job and the lease; this package keeps the window of calls full
while the database works: admission checkpoints trials ahead of the callers, callers take
them from a queue, and the recorder writes their outcomes in batches that close by size or
by time, each stage concurrent with the others.
"""
