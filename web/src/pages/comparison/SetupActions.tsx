import { useMutation } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { CancelMutation, StartMutation } from "./queries";

/** A SETUP comparison: start it (in the background) or cancel it. */
export function SetupActions({ id, onChange }: { id: string; onChange: () => void }) {
  const [started, start] = useMutation(StartMutation);
  const [cancelled, cancel] = useMutation(CancelMutation);
  const busy = started.fetching || cancelled.fetching;
  const act = async (run: () => Promise<{ error?: unknown }>) => {
    const result = await run();
    if (!result.error) onChange();
  };
  return (
    <section aria-label="Set up">
      <p>Set up: nothing has run yet.</p>
      <div className="row">
        <RoleButton needs="MEMBER" className="primary" disabled={busy} onClick={() => void act(() => start({ id }))}>
          Start
        </RoleButton>
        <RoleButton needs="MEMBER" disabled={busy} onClick={() => void act(() => cancel({ id }))}>
          Cancel
        </RoleButton>
      </div>
      {started.error && <ErrorNotice error={started.error} />}
      {cancelled.error && <ErrorNotice error={cancelled.error} />}
    </section>
  );
}
