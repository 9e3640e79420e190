/** `region` "Workspace": every workspace setting and "Save" (ADMIN changes, everyone reads). */
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { FieldError } from "../../components/FieldError";
import { NeedsRole } from "../../components/NeedsRole";
import { RoleButton } from "../../components/RoleButton";
import { useAllowed } from "../../components/useAllowed";
import type { AmbiguousOutcomes, WorkspaceSettingsQuery as Data } from "../../gql/graphql";
import { messageAt } from "../../lib/fieldErrors";
import { enumWords } from "../../lib/words";
import { ShipPolicyFields } from "../../components/ShipPolicyFields";
import {
  policyDraft,
  policyInput,
  policyProblems,
  serverPolicyProblems,
  type PolicyDraft,
} from "../../lib/shipPolicyDraft";
import { UpdateWorkspaceSettings, WorkspaceSettingsQuery } from "./settingsDocuments";

type Settings = Data["workspace"]["settings"];

const LABELS = {
  maxRunningComparisons: "Comparisons running at once",
  requestsPerMinutePerToken: "Requests per minute per token",
};

const WHOLE = /^\d+$/;

function wholeError(text: string, label: string, low: number): string | null {
  if (!WHOLE.test(text.trim())) return `${label} needs a whole number.`;
  if (Number(text) < low) return `${label} must be at least ${low}.`;
  return null;
}

export function WorkspaceRegion({ onSaved }: { onSaved: () => void }) {
  const [{ data, error }] = useQuery({ query: WorkspaceSettingsQuery });
  const settings = data?.workspace.settings;
  return (
    <section aria-labelledby="workspace-heading">
      <h2 id="workspace-heading">Workspace</h2>
      {error && <ErrorNotice error={error} />}
      {settings && <SettingsForm key={JSON.stringify(settings)} saved={settings} onSaved={onSaved} />}
    </section>
  );
}

function SettingsForm({ saved, onSaved }: { saved: Settings; onSaved: () => void }) {
  const admin = useAllowed("ADMIN");
  const [draft, setDraft] = useState({
    ...saved,
    maxRunningComparisons: String(saved.maxRunningComparisons),
    requestsPerMinutePerToken: String(saved.requestsPerMinutePerToken),
  });
  const [policy, setPolicy] = useState<PolicyDraft>(() => policyDraft(saved.defaultShipPolicy));
  const [shown, setShown] = useState(false);
  const [done, setDone] = useState(false);
  const [{ fetching, error }, update] = useMutation(UpdateWorkspaceSettings);
  const ids = { policyNeeds: useId(), needs: useId(), running: useId(), rate: useId(), runningError: useId(), rateError: useId() };
  const runningError =
    wholeError(draft.maxRunningComparisons, LABELS.maxRunningComparisons, 1) ??
    messageAt(error, "maxRunningComparisons", LABELS);
  const rateError =
    wholeError(draft.requestsPerMinutePerToken, LABELS.requestsPerMinutePerToken, 1) ??
    messageAt(error, "requestsPerMinutePerToken", LABELS);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    setDone(false);
    const policyWrong = Object.keys(policyProblems(policy)).length > 0;
    if (runningError || rateError || policyWrong) return;
    const result = await update({
      input: {
        allowHostedRuns: draft.allowHostedRuns,
        allowSelfSignOff: draft.allowSelfSignOff,
        maxRunningComparisons: Number(draft.maxRunningComparisons),
        requestsPerMinutePerToken: Number(draft.requestsPerMinutePerToken),
        ambiguousOutcomes: draft.ambiguousOutcomes,
        defaultShipPolicy: policyInput(policy),
      },
    });
    if (!result.error) {
      setDone(true);
      onSaved();
    }
  };
  const policyShown = {
    ...serverPolicyProblems(error, "defaultShipPolicy"),
    ...(shown ? policyProblems(policy) : {}),
  };
  const policyErrorShown = Object.keys(policyShown).length > 0;
  const fieldErrorShown = (shown && (runningError || rateError)) || policyErrorShown;
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="settings-form">
      <fieldset disabled={!admin} aria-describedby={admin ? undefined : ids.needs}>
        <legend>Runs and sign-off</legend>
        {!admin && <NeedsRole id={ids.needs} needs="ADMIN" />}
        <label className="check">
          <input
            type="checkbox"
            checked={draft.allowHostedRuns}
            onChange={(e) => setDraft({ ...draft, allowHostedRuns: e.target.checked })}
          />{" "}
          Allow hosted runs
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.allowSelfSignOff}
            onChange={(e) => setDraft({ ...draft, allowSelfSignOff: e.target.checked })}
          />{" "}
          Allow self sign-off
        </label>
        <div className="field">
          <label htmlFor={ids.running}>{LABELS.maxRunningComparisons}</label>
          <input
            id={ids.running}
            type="number"
            min={1}
            value={draft.maxRunningComparisons}
            aria-invalid={shown && runningError ? true : undefined}
            aria-describedby={shown && runningError ? ids.runningError : undefined}
            onChange={(e) => setDraft({ ...draft, maxRunningComparisons: e.target.value })}
          />
          <FieldError id={ids.runningError} message={shown ? runningError : null} />
        </div>
        <div className="field">
          <label htmlFor={ids.rate}>{LABELS.requestsPerMinutePerToken}</label>
          <input
            id={ids.rate}
            type="number"
            min={1}
            value={draft.requestsPerMinutePerToken}
            aria-invalid={shown && rateError ? true : undefined}
            aria-describedby={shown && rateError ? ids.rateError : undefined}
            onChange={(e) => setDraft({ ...draft, requestsPerMinutePerToken: e.target.value })}
          />
          <FieldError id={ids.rateError} message={shown ? rateError : null} />
        </div>
        <label className="field">
          When a call&apos;s outcome is unknown after a crash
          <select
            value={draft.ambiguousOutcomes}
            onChange={(e) =>
              setDraft({ ...draft, ambiguousOutcomes: e.target.value as AmbiguousOutcomes })
            }
          >
            {(["COUNT_AS_MISSING", "FAIL_RUN"] as const).map((v) => (
              <option key={v} value={v}>
                {enumWords(v)}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <ShipPolicyFields
        value={policy}
        onChange={setPolicy}
        problems={policyShown}
        disabled={!admin}
        describedBy={admin ? undefined : ids.policyNeeds}
      >
        {!admin && <NeedsRole id={ids.policyNeeds} needs="ADMIN" />}
        <p className="muted">
          The default for a new comparison: a comparison may set its own, and keeps the one it was
          made with.
        </p>
      </ShipPolicyFields>
      <div className="row">
        <RoleButton needs="ADMIN" type="submit" className="primary" disabled={fetching}>
          Save
        </RoleButton>
        {done && <span role="status">Saved.</span>}
      </div>
      {error && !fieldErrorShown && !messageAt(error, "maxRunningComparisons", LABELS) && (
        <ErrorNotice error={error} />
      )}
    </form>
  );
}
