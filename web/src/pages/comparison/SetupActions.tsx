import { useMutation } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { CancelButton } from "./CancelButton";
import { StartMutation } from "./queries";

/** A SETUP comparison: start it (in the background) or cancel it. */
export function SetupActions({ id, onChange }: { id: string; onChange: () => void }) {
  const [started, start] = useMutation(StartMutation);
  const busy = started.fetching;
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
        <CancelButton id={id} spentCents={null} disabled={started.fetching} onCancelled={onChange} />
      </div>
      {started.error && <ErrorNotice error={started.error} />}
    </section>
  );
}
