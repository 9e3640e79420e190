"""Offline comparison of result files: loading, pairing, pairwise judging, statistics, report.

Nothing here needs a server or a database. `judge` (the judge client) and `pair_judging`
(both orders, retries, failure diagnostics) know nothing of the command line, so in-service
pairwise judging can reuse them.
"""
