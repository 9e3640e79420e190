import type { ComparisonScorecardQuery } from "../../gql/graphql";
import { count, ratePoints } from "../../lib/format";
import { nameOf, type CohortName } from "./cohorts";

type Confidence = NonNullable<
  ComparisonScorecardQuery["comparison"]["scorecard"]
>["confidence"][number];

const ADEQUACY: Record<string, { words: string; tone: string }> = {
  ADEQUATE: { words: "Adequate", tone: "chip good" },
  UNDERPOWERED: { words: "Underpowered", tone: "chip" },
  INSUFFICIENT: { words: "Insufficient", tone: "chip bad" },
};

/** Per cohort: its cases (n), the smallest effect they can resolve (MDE) and the adequacy. */
export function SampleAdequacy({
  confidence,
  cohorts,
}: {
  confidence: readonly Confidence[];
  cohorts: readonly CohortName[];
}) {
  return (
    <section aria-label="Sample adequacy">
      <h2>Sample adequacy</h2>
      <ul className="strip">
        {confidence.map((c) => {
          const adequacy = ADEQUACY[c.adequacy] ?? { words: c.adequacy, tone: "chip" };
          return (
            <li key={c.cohortIndex}>
              <strong>{nameOf(cohorts, c.cohortIndex)}</strong>: n ={" "}
              {count(c.n)}, MDE {ratePoints(c.mde)}{" "}
              <span className={adequacy.tone}>{adequacy.words}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
