"""Offline comparison of result files: loading, pairing, pairwise judging, statistics, report.

Nothing here needs a server or a database. The pair judge it uses (`server.judges.client`,
`server.judges.pair`) knows nothing of the command line, so in-service pairwise judging
reuses it.
"""
