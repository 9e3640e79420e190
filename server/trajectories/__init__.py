"""An agent's trajectory as a run trial carries it: the steps of docs/domain.md,
"Trajectories in runs" (`steps`: the shape
checked), what is read from them (`reading`: tool calls in order, LLM calls, the trial's
metrics) and a hosted comparison's one model call as a trajectory (`hosted`)."""
