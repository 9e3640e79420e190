"""The two small interfaces the service runs on (job queue, events) and their adapters."""
