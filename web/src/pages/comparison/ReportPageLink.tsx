import { useEffect } from "react";
import { useMutation } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { graphql } from "../../gql";
import { atLeast } from "../../lib/roles";
import { useSession } from "../../lib/session";

const ReportLink = graphql(`
  mutation ReportLink($id: ID!) {
    reportLink(id: $id) {
      url
      expiresAt
    }
  }
`);

/**
 * "Open report page": a real link to the latest version's page, signed by `reportLink`
 * (a mutation, MEMBER and up) as soon as the version shows, so it opens in any tab.
 */
export function ReportPageLink({ reportId }: { reportId: string }) {
  const { role } = useSession();
  const allowed = atLeast(role, "MEMBER");
  const [{ data, error }, sign] = useMutation(ReportLink);
  useEffect(() => {
    if (allowed) void sign({ id: reportId });
  }, [allowed, reportId, sign]);
  if (!allowed) {
    return <span className="muted">The report page's signed link needs the Member role.</span>;
  }
  if (error) return <ErrorNotice error={error} />;
  const url = data?.reportLink.url;
  if (!url) return <span className="muted">Signing the report page's link…</span>;
  return (
    <a href={url} rel="noreferrer">
      Open report page
    </a>
  );
}
