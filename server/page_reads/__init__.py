"""The portal pages' reads: one module per page that owns its statement and returns one
frozen value, which the resolver, the direct answer and the response cache's stamp all
read (docs/architecture.md, "A page's read")."""
