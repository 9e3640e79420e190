"""The portal's hottest reads answered straight from SQL rows (PostgreSQL).

A live portal polls a few documents — the comparisons page, a comparison's page — whose
answers change with every recorded trial, so no kept answer helps; a finalized one's
scorecard and case pages are read as often. Through the schema each costs the ORM
building entities of every column and graphql-core completing ~1,000–2,000 fields: 5–20×
the cost of the smallest request. Here each such document, known by its persisted
hash, is answered from its page's read model (`server.page_reads`): the model's one
statement, built once with SQLAlchemy Core and run on the driver, and its value shown as the
document selects it (`present`); the schema's resolvers make their fields from the same
read models, so both answers are the read model's.

The general executor stays the reference: a direct answer only takes the way it knows
to be plain (a known document, well-typed variables, a found row with nothing the page
would have to read apart). Anything else — a refusal, an unknown id, a report to list,
a cursor to check, another database — returns None, and the schema answers as ever,
errors included. `tests/server/direct_reads` holds both answers equal.
"""
