"""What the tests and the benches share: factories, the fake provider, the backend harness,
waiting on conditions, statement counting, the portal's documents and import records.

`bench/` imports nothing of `tests/`; the tests import these from here."""
