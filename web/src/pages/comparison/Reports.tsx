/**
 * The `region` "Reports" of a FINALIZED comparison (docs/portal.md): generate a version, the
 * versions so far, the latest one's signed page link, its follow-ups and the sign-off.
 */
import { useState } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { graphql } from "../../gql";
import { labelOf } from "./cohorts";
import { DecisionQuery } from "./decisionQueries";
import { memberNames } from "./ReportNames";
import { ReportPageLink } from "./ReportPageLink";
import { FollowUpsTable } from "./FollowUpsTable";
import { SignOffDialog } from "./SignOffDialog";
import { SignOffSummary } from "./SignOffSummary";
import "./Reports.css";
import { TableScroll } from "../../components/TableScroll";

export const ReportsQuery = graphql(`
  query ReportsRegion($id: ID!) {
    comparison(id: $id) {
      id
      verdict
      cohorts {
        cohortIndex
        label
      }
      reports {
        id
        version
        createdAt
        createdByMemberId
        isLatest
        signOff {
          id
          decision
          verdict
          override
          overrideJustification
          signerMemberId
          signerRole
          createdAt
        }
      }
    }
    members(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

const GenerateReport = graphql(`
  mutation GenerateReport($comparisonId: ID!) {
    generateReport(comparisonId: $comparisonId) {
      id
      version
    }
  }
`);

export function ReportsRegion({
  comparisonId,
  onVerdictChange,
}: {
  comparisonId: string;
  /** Called once a sign-off wrote the comparison's verdict: the page refreshes its header. */
  onVerdictChange?: () => void;
}) {
  const [{ data, error }, refetch] = useQuery({
    query: ReportsQuery,
    variables: { id: comparisonId },
  });
  const [{ data: decided }] = useQuery({ query: DecisionQuery, variables: { id: comparisonId } });
  const [generated, generate] = useMutation(GenerateReport);
  const [signing, setSigning] = useState(false);
  const comparison = data?.comparison;
  const reports = comparison?.reports ?? [];
  const latest = reports.find((r) => r.isLatest) ?? reports[reports.length - 1];
  const names = memberNames(data?.members.edges.map((e) => e.node) ?? []);
  const baselines = (index: number) => labelOf(comparison?.cohorts ?? [], index);
  const refresh = () => refetch({ requestPolicy: "network-only" });

  const onGenerate = async () => {
    const result = await generate({ comparisonId });
    if (!result.error) refresh();
  };

  return (
    <section aria-label="Reports" className="reports">
      <h2>Reports</h2>
      {error && !data && <ErrorNotice error={error} />}
      <div className="row">
        <RoleButton needs="MEMBER" onClick={onGenerate} disabled={generated.fetching}>
          Generate report
        </RoleButton>
        <RoleButton
          needs="ADMIN"
          onClick={() => setSigning(true)}
          disabled={!latest || !!latest.signOff}
        >
          Sign off
        </RoleButton>
        {latest?.signOff && <span className="muted">Version {latest.version} is signed off.</span>}
      </div>
      {generated.error && <ErrorNotice error={generated.error} />}
      {comparison && reports.length === 0 && (
        <p className="muted">No report yet. Generate one to freeze this verdict for review.</p>
      )}
      {reports.length > 0 && (
        <TableScroll>
<table aria-label="Report versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Generated</th>
              <th scope="col">By</th>
              <th scope="col">Sign-off</th>
            </tr>
          </thead>
          <tbody>
            {[...reports].reverse().map((report) => (
              <tr key={report.id}>
                <td>
                  Version {report.version}
                  {report.isLatest && <span className="chip">latest</span>}
                </td>
                <td>
                  <Ago iso={report.createdAt} />
                </td>
                <td>{names(report.createdByMemberId)}</td>
                <td>{report.signOff ? "Signed" : "Not signed"}</td>
              </tr>
            ))}
          </tbody>
        </table>
</TableScroll>
      )}
      {latest && (
        <>
          <p>
            <ReportPageLink reportId={latest.id} />
          </p>
          {latest.signOff && (
            <SignOffSummary
              signOff={latest.signOff}
              signer={names(latest.signOff.signerMemberId)}
              outcome={decided?.comparison.decision?.outcome}
            />
          )}
          <FollowUpsTable reportId={latest.id} baselines={baselines} />
        </>
      )}
      {signing && latest && (
        <SignOffDialog
          comparisonId={comparisonId}
          reportId={latest.id}
          baselines={baselines}
          onClose={() => setSigning(false)}
          onSigned={() => {
            setSigning(false);
            refresh();
            onVerdictChange?.();
          }}
        />
      )}
    </section>
  );
}
