import { useState, type ReactNode } from "react";
import type { CombinedError } from "urql";
import type { Role } from "../gql/graphql";
import { ConfirmDialog } from "./ConfirmDialog";
import { ErrorNotice } from "./ErrorNotice";
import { RoleButton } from "./RoleButton";

/** What a destructive action asks first (an `alertdialog`). */
export interface Ask {
  title: string;
  words: ReactNode;
}

/**
 * A table row's action (the settings tables' "Check", "Remove", "Revoke", "Redeliver"): a
 * button for `needs` and up that runs `run`, asking first when `ask` is given, then `onDone`
 * (the table reads itself again); a refusal shows beside the button in words.
 */
export function RowAction({
  needs,
  label,
  run,
  onDone,
  ask,
  disabled = false,
}: {
  needs: Role;
  label: string;
  run: () => Promise<{ error?: CombinedError }>;
  onDone: () => void;
  ask?: Ask;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<CombinedError | null>(null);
  const act = async () => {
    setAsking(false);
    setBusy(true);
    setError(null);
    const result = await run();
    setBusy(false);
    if (result.error) setError(result.error);
    onDone();
  };
  return (
    <>
      <RoleButton
        needs={needs}
        disabled={disabled || busy}
        onClick={() => (ask ? setAsking(true) : void act())}
      >
        {label}
      </RoleButton>
      {asking && ask && (
        <ConfirmDialog
          title={ask.title}
          confirmLabel={label}
          busy={busy}
          onConfirm={() => void act()}
          onCancel={() => setAsking(false)}
        >
          {ask.words}
        </ConfirmDialog>
      )}
      {error && <ErrorNotice error={error} />}
    </>
  );
}
