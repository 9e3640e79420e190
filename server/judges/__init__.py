"""Judges: rubric grading of one output (`rubric`), the pair judge (`client`, `pair`,
`pair_prompt`) and a model connection opened as a judge (`connections`)."""
