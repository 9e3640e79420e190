"""Ship decisions (docs/decision.md; docs/decision.md): the policy a comparison registers, the
decision's stored document and its sentences. Imports only `stats` and `server.errors`, so
comparisons, workspaces, verdicts and runs can all use it."""
