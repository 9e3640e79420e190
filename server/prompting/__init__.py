"""Prompt templates meet dataset cases: variable mapping, coverage and sandboxed rendering."""
