"""HTTP and GraphQL plumbing: the view, body limits and reading, the depth limit, the document
and response caches, cached reads, shared events, operation scope, error masking, input text."""
