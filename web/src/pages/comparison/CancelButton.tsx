/** "Cancel" for a SETUP or RUNNING comparison: asks first (`alertdialog`), then cancels. */
import { useState } from "react";
import { useMutation } from "urql";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { dollars } from "../../lib/format";
import { CancelMutation } from "./queries";

export function CancelButton({
  id,
  spentCents,
  disabled = false,
  onCancelled,
}: {
  id: string;
  /** Spent so far; null before anything ran. */
  spentCents: number | null;
  disabled?: boolean;
  onCancelled?: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [cancelled, cancel] = useMutation(CancelMutation);
  const confirm = async () => {
    const result = await cancel({ id });
    setAsking(false);
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
          busy={cancelled.fetching}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(false)}
        >
          <p>
            No further model calls are made and it gets no verdict.
            {spentCents !== null && ` The calls already made stay, and so does their cost (${dollars(spentCents)}).`}
          </p>
        </ConfirmDialog>
      )}
      {cancelled.error && <ErrorNotice error={cancelled.error} />}
    </>
  );
}
