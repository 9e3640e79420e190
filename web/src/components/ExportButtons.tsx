/**
 * "Download CSV" and "Download JSONL" where rows are shown (docs/domain.md, Exports): each asks
 * `exportLink` for a signed link to the export endpoint and lets the browser fetch it, so the
 * file streams to disk as the server writes it (a bearer header cannot ride a download).
 */
import { useMutation } from "urql";
import { graphql } from "../gql";
import type { ExportFormat, ExportTarget } from "../gql/graphql";
import { ErrorNotice } from "./ErrorNotice";
import { RoleButton } from "./RoleButton";

const ExportLinkMutation = graphql(`
  mutation ExportLink($target: ExportTarget!, $id: ID!, $format: ExportFormat!, $baselineRunId: ID) {
    exportLink(target: $target, id: $id, format: $format, baselineRunId: $baselineRunId, expiresInHours: 1) {
      url
    }
  }
`);

export function ExportButtons({
  target,
  id,
  baselineRunId = null,
}: {
  target: ExportTarget;
  id: string;
  baselineRunId?: string | null;
}) {
  const [state, exportLink] = useMutation(ExportLinkMutation);

  async function download(format: ExportFormat) {
    const result = await exportLink({ target, id, format, baselineRunId });
    const url = result.data?.exportLink.url;
    if (!url) return;
    const anchor = document.createElement("a");
    anchor.href = url;
    anchor.download = "";
    anchor.click();
  }

  return (
    <div className="row export-buttons">
      <RoleButton needs="MEMBER" disabled={state.fetching} onClick={() => void download("CSV")}>
        Download CSV
      </RoleButton>
      <RoleButton needs="MEMBER" disabled={state.fetching} onClick={() => void download("JSONL")}>
        Download JSONL
      </RoleButton>
      {state.error && <ErrorNotice error={state.error} />}
    </div>
  );
}
