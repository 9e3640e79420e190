"""The portal pages' reads: one module per page that owns its statement and returns one
frozen value, which the resolver's type and the response cache's stamp both read
(docs/architecture.md, "A page's read")."""
