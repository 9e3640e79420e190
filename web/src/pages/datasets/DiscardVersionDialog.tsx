/**
 * `alertdialog` "Discard version N?": says what is lost (the version's cases, for good) and
 * what stays (the dataset, its other versions); "Discard version N" discards the version
 * alone (`keepDataset`), "Keep it" does nothing.
 */
import { useMutation } from "urql";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { count } from "../../lib/format";
import { DiscardOpenVersion } from "./uploadDocuments";

export function DiscardVersionDialog({
  version,
  datasetName,
  onClose,
  onDiscarded,
}: {
  version: { id: string; number: number; caseCount: number };
  datasetName: string;
  onClose: () => void;
  onDiscarded: () => void;
}) {
  const [state, discard] = useMutation(DiscardOpenVersion);
  const cases = `${count(version.caseCount)} ${version.caseCount === 1 ? "case" : "cases"}`;
  return (
    <ConfirmDialog
      title={`Discard version ${version.number}?`}
      confirmLabel={`Discard version ${version.number}`}
      busy={state.fetching}
      onCancel={onClose}
      onConfirm={() =>
        void discard({ versionId: version.id }).then((r) => {
          if (!r.error) onDiscarded();
        })
      }
    >
      <p>
        Its {cases} will be lost: they are deleted and cannot be brought back, and the number{" "}
        {version.number} is not used again. The dataset “{datasetName}”
        and its other versions stay.
      </p>
      {state.error && <ErrorNotice error={state.error} />}
    </ConfirmDialog>
  );
}
