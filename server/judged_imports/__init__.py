"""JUDGE_RUBRIC checks on imported runs: the judges named at `startRunImport` resolved, and
each appended chunk's trials judged before the chunk is written (docs/domain.md, "Runs and
diffs")."""
