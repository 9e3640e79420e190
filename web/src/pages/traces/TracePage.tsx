/**
 * `/traces/:id`: one trace's trajectory as a waterfall of steps (the `list` "Steps"), each
 * step with its messages, tool calls with arguments and results, tokens, cost and time;
 * "Add to dataset" makes the trace a case.
 * Model outputs and inputs are untrusted text: shown as text, never as markup.
 */
import { useState } from "react";
import { useParams } from "react-router";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { graphql } from "../../gql";
import type { TracePageQuery } from "../../gql/graphql";
import { count, dollars, exactTime } from "../../lib/format";
import { jsonText } from "../../lib/jsonText";
import { AddToDatasetDialog } from "./AddToDatasetDialog";

const TraceQuery = graphql(`
  query TracePage($id: ID!) {
    trace(id: $id) {
      id
      service
      release
      startedAt
      durationMs
      status
      rootName
      input
      output
      llmCalls
      toolCalls
      inputTokens
      outputTokens
      costCents
      caseId
      steps {
        id
        kind
        name
        startedAt
        durationMs
        status
        errorType
        model
        inputMessages {
          role
          content
          toolCalls {
            id
            name
            arguments
          }
        }
        outputMessages {
          role
          content
          toolCalls {
            id
            name
            arguments
          }
        }
        inputTokens
        outputTokens
        costCents
        toolName
        arguments
        result
        parentId
      }
    }
  }
`);

type Trace = NonNullable<TracePageQuery["trace"]>;
type Step = Trace["steps"][number];
type Message = Step["inputMessages"][number];

function Messages({ label, messages }: { label: string; messages: readonly Message[] }) {
  if (messages.length === 0) return null;
  return (
    <details>
      <summary>{label}</summary>
      <ol className="plain">
        {messages.map((m, i) => (
          <li key={i}>
            <strong>{m.role}</strong>
            {m.content && <pre className="text">{m.content}</pre>}
            {m.toolCalls.map((call, j) => (
              <div key={j}>
                Tool call <code>{call.name}</code>
                <pre className="text">{jsonText(call.arguments)}</pre>
              </div>
            ))}
          </li>
        ))}
      </ol>
    </details>
  );
}

function StepItem({ step, start, total }: { step: Step; start: number; total: number }) {
  const offset = Date.parse(step.startedAt) - start;
  const left = total > 0 ? Math.min(100, (offset / total) * 100) : 0;
  const width = total > 0 ? Math.max(0.5, Math.min(100 - left, (step.durationMs / total) * 100)) : 100;
  const tokens = (step.inputTokens ?? 0) + (step.outputTokens ?? 0);
  return (
    <li aria-label={`${step.kind} ${step.name}`}>
      <div className="row">
        <strong>{step.kind}</strong> <span className="text">{step.name}</span>
        {step.status === "ERROR" && <span> · Error {step.errorType ?? ""}</span>}
      </div>
      <div aria-hidden="true" className="waterfall">
        <div style={{ marginLeft: `${left}%`, width: `${width}%` }} />
      </div>
      <p>
        {`+${Math.round(offset)} ms · ${Math.round(step.durationMs)} ms`}
        {step.model && ` · ${step.model}`}
        {tokens > 0 && ` · ${count(tokens)} tokens`}
        {step.costCents !== null && step.costCents !== undefined && ` · ${dollars(step.costCents)}`}
      </p>
      <Messages label="Input messages" messages={step.inputMessages} />
      <Messages label="Output messages" messages={step.outputMessages} />
      {step.toolName && (
        <details>
          <summary>
            Tool <code>{step.toolName}</code>
          </summary>
          <p>Arguments</p>
          <pre className="text">{jsonText(step.arguments)}</pre>
          <p>Result</p>
          <pre className="text">{jsonText(step.result)}</pre>
        </details>
      )}
    </li>
  );
}

export function TracePage() {
  const { id = "" } = useParams();
  const [{ data, error, fetching }] = useQuery({ query: TraceQuery, variables: { id } });
  const [adding, setAdding] = useState(false);
  if (error) return <ErrorNotice error={error} />;
  if (fetching || !data?.trace) return <p>Loading…</p>;
  const trace = data.trace;
  const start = Date.parse(trace.startedAt);
  return (
    <>
      <h1 className="text">{trace.rootName ?? "Trace"}</h1>
      <div className="row">
        <RoleButton needs="MEMBER" onClick={() => setAdding(true)}>
          Add to dataset
        </RoleButton>
      </div>
      {adding && <AddToDatasetDialog traceId={trace.id} onClose={() => setAdding(false)} />}
      <dl className="facts">
        <dt>Trace id</dt>
        <dd>
          <code className="text">{trace.id}</code>
        </dd>
        <dt>Started</dt>
        <dd>{exactTime(trace.startedAt)}</dd>
        <dt>Service</dt>
        <dd>{trace.service ?? "—"}</dd>
        <dt>Release</dt>
        <dd>{trace.release ?? "—"}</dd>
        <dt>Status</dt>
        <dd>{trace.status === "ERROR" ? "Error" : "OK"}</dd>
        <dt>Duration</dt>
        <dd>{`${Math.round(trace.durationMs)} ms`}</dd>
        <dt>Model calls, tool calls</dt>
        <dd>{`${trace.llmCalls}, ${trace.toolCalls}`}</dd>
        <dt>Tokens</dt>
        <dd>{`${count(trace.inputTokens)} in, ${count(trace.outputTokens)} out`}</dd>
        <dt>Cost</dt>
        <dd>{dollars(trace.costCents)}</dd>
        {trace.caseId && (
          <>
            <dt>Case</dt>
            <dd className="text">{trace.caseId}</dd>
          </>
        )}
      </dl>
      <h2>Input</h2>
      <pre className="text">{trace.input ?? "—"}</pre>
      <h2>Output</h2>
      <pre className="text">{trace.output ?? "—"}</pre>
      <h2>Steps</h2>
      <ol aria-label="Steps" className="plain">
        {trace.steps.map((step) => (
          <StepItem key={step.id} step={step} start={start} total={trace.durationMs} />
        ))}
      </ol>
    </>
  );
}
