/**
 * `/live/:id`: a live comparison (docs/live.md). `region` "Decision" (the outcome in the
 * words of the comparison page, the API's sentence, `list` "Criteria"), `table` "Arms" (each
 * release's traces, pass rate, cost, p95 latency, errors) and `figure` "Sequence". Read again
 * every 2 s while it runs.
 */
import { useEffect } from "react";
import { useParams } from "react-router";
import { ErrorNotice } from "../../components/ErrorNotice";
import { TableScroll } from "../../components/TableScroll";
import { graphql } from "../../gql";
import { count, dollars, exactTime } from "../../lib/format";
import { useQuery } from "../../lib/query";
import {
  criterionBound,
  criterionFigures,
  criterionName,
  OUTCOME_TONE,
  OUTCOME_WORDS,
  STATUS_WORDS,
} from "../comparison/decisionWords";
import { LIVE_STATUS_WORDS, percent } from "./liveWords";
import { SequenceFigure } from "./SequenceFigure";
import "../comparison/comparison.css";
import "./live.css";

const REFRESH_MS = 2_000;

const LiveComparisonQuery = graphql(`
  query LiveComparisonPage($id: ID!) {
    liveComparison(id: $id) {
      id
      label
      service
      candidateRelease
      baselineReleases
      status
      startedAt
      decidedAt
      tracesNeeded
      marginPoints
      shipPolicy {
        sentence
      }
      arms {
        release
        isCandidate
        traces
        graded
        passRate
        costPerTrace
        latencyP95Ms
        errorRate
      }
      decision {
        outcome
        sentence
        level
        criteria {
          baselineCohortIndex
          kind
          metric
          status
          estimate
          low
          high
          threshold
        }
      }
      sequence {
        traces
        estimate
        low
        high
      }
    }
  }
`);

export function LiveComparisonPage() {
  const { id = "" } = useParams();
  const [{ data, error }, reexecute] = useQuery({
    query: LiveComparisonQuery,
    variables: { id },
  });
  const live = data?.liveComparison;
  const running = live?.status === "RUNNING";
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(
      () => reexecute({ requestPolicy: "network-only" }),
      REFRESH_MS,
    );
    return () => window.clearInterval(timer);
  }, [running, reexecute]);
  if (error && !data) return <ErrorNotice error={error} />;
  if (!live) return <p>Loading…</p>;
  const decision = live.decision;
  const tone = decision ? OUTCOME_TONE[decision.outcome] : "hold";
  const baselines = live.baselineReleases;
  return (
    <>
      <h1>{live.label ?? live.id}</h1>
      <p>
        {live.candidateRelease} vs {baselines.join(", ")} on {live.service} ·{" "}
        {LIVE_STATUS_WORDS[live.status]} · started{" "}
        <time dateTime={live.startedAt}>{exactTime(live.startedAt)}</time>
      </p>
      <section aria-label="Decision" className={`decision-region tone-${tone}`}>
        <h2>
          Decision:{" "}
          <span className={`decision-word tone-${tone}`}>
            {decision ? OUTCOME_WORDS[decision.outcome] : "No trace graded yet"}
          </span>
        </h2>
        {decision && <p className="decision-sentence">{decision.sentence}</p>}
        {decision?.outcome === "MORE_DATA" && live.tracesNeeded != null && (
          <p>About {count(live.tracesNeeded)} traces an arm would decide it.</p>
        )}
        <p className="policy">Policy, registered before the first trace: {live.shipPolicy.sentence}</p>
        {decision && decision.criteria.length > 0 && (
          <ul aria-label="Criteria" className="criteria">
            {decision.criteria.map((c, i) => (
              <li key={i} className={`criterion ${c.status.toLowerCase()}`}>
                <span className="status-word">{STATUS_WORDS[c.status]}</span>{" "}
                <strong>
                  {criterionName(c)} vs {baselines[c.baselineCohortIndex - 1] ?? "?"}
                </strong>
                : {criterionFigures(c, decision.level)}; {criterionBound(c)}.
              </li>
            ))}
          </ul>
        )}
      </section>
      <TableScroll>
        <table aria-label="Arms">
          <thead>
            <tr>
              <th scope="col">Release</th>
              <th scope="col">Traces</th>
              <th scope="col">Graded</th>
              <th scope="col">Pass rate</th>
              <th scope="col">Cost per trace</th>
              <th scope="col">p95 latency</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {live.arms.map((arm) => (
              <tr key={arm.release}>
                <th scope="row">
                  {arm.release}
                  {arm.isCandidate ? " (candidate)" : ""}
                </th>
                <td>{count(arm.traces)}</td>
                <td>{count(arm.graded)}</td>
                <td>{percent(arm.passRate)}</td>
                <td>{arm.costPerTrace == null ? "—" : dollars(arm.costPerTrace)}</td>
                <td>{arm.latencyP95Ms == null ? "—" : `${Math.round(arm.latencyP95Ms)} ms`}</td>
                <td>{percent(arm.errorRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <SequenceFigure
        points={live.sequence}
        marginPoints={live.marginPoints}
        baseline={baselines[0] ?? "the baseline"}
      />
    </>
  );
}
