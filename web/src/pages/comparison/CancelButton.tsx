import { useState } from "react";
import { useMutation } from "urql";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { CancelMutation } from "./queries";

/** Cancel, asked first in an `alertdialog`: a cancelled comparison cannot be resumed. */
export function CancelButton({
  id,
  running,
  disabled = false,
  onCancelled,
}: {
  id: string;
  running: boolean;
  disabled?: boolean;
  onCancelled?: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [cancelled, cancel] = useMutation(CancelMutation);
  const confirm = async () => {
    setAsking(false);
    const result = await cancel({ id });
    if (!result.error) onCancelled?.();
  };
  return (
    <>
      <RoleButton needs="MEMBER" disabled={disabled || cancelled.fetching} onClick={() => setAsking(true)}>
        Cancel
      </RoleButton>
      {asking && (
        <ConfirmDialog
          title="Cancel this comparison?"
          confirmLabel="Cancel comparison"
          onConfirm={() => void confirm()}
          onClose={() => setAsking(false)}
        >
          {running ? (
            <p>No more calls are made. The calls already made are kept and paid for; a cancelled run has no verdict and cannot be resumed (Re-run starts again).</p>
          ) : (
            <p>Nothing has run yet. A cancelled comparison cannot be started; Re-run makes a new one.</p>
          )}
        </ConfirmDialog>
      )}
      {cancelled.error && <ErrorNotice error={cancelled.error} />}
    </>
  );
}
