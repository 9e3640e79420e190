/** `region` "Workspace": every workspace setting and "Save" (ADMIN changes, everyone reads). */
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
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

/** The whole-number limits, with the range `server/workspaces/service.py` holds them to. */
const LIMITS = [
  { name: "maxRunningComparisons", label: "Comparisons running at once", low: 1, high: 100 },
  { name: "requestsPerMinutePerToken", label: "Requests per minute per token", low: 1, high: 100_000 },
  {
    name: "maxCallsPerComparison",
    label: "Model calls per comparison",
    low: 1,
    high: 2_000_000,
    hint: "Judge calls included. A larger comparison is refused when it is created, and its preview says so.",
  },
] as const;

type LimitName = (typeof LIMITS)[number]["name"];
type Limit = (typeof LIMITS)[number];

const LABELS: Record<string, string> = Object.fromEntries(LIMITS.map((l) => [l.name, l.label]));

const WHOLE = /^\d+$/;

function wholeError(text: string, { label, low, high }: Limit): string | null {
  if (!WHOLE.test(text.trim())) return `${label} needs a whole number.`;
  const value = Number(text);
  if (value < low || value > high)
    return `${label} must be from ${low.toLocaleString("en-US")} to ${high.toLocaleString("en-US")}.`;
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
    allowHostedRuns: saved.allowHostedRuns,
    allowSelfSignOff: saved.allowSelfSignOff,
    ambiguousOutcomes: saved.ambiguousOutcomes,
  });
  const [limits, setLimits] = useState(
    () => Object.fromEntries(LIMITS.map((l) => [l.name, String(saved[l.name])])) as Record<LimitName, string>,
  );
  const [policy, setPolicy] = useState<PolicyDraft>(() => policyDraft(saved.defaultShipPolicy));
  const [shown, setShown] = useState(false);
  const [done, setDone] = useState(false);
  const [{ fetching, error }, update] = useMutation(UpdateWorkspaceSettings);
  const ids = { policyNeeds: useId(), needs: useId() };
  const limitErrors = Object.fromEntries(
    LIMITS.map((l) => [l.name, wholeError(limits[l.name], l) ?? messageAt(error, l.name, LABELS)]),
  ) as Record<LimitName, string | null>;
  const limitWrong = LIMITS.some((l) => limitErrors[l.name]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    setDone(false);
    const policyWrong = Object.keys(policyProblems(policy)).length > 0;
    if (limitWrong || policyWrong) return;
    const result = await update({
      input: {
        allowHostedRuns: draft.allowHostedRuns,
        allowSelfSignOff: draft.allowSelfSignOff,
        ...(Object.fromEntries(LIMITS.map((l) => [l.name, Number(limits[l.name])])) as Record<
          LimitName,
          number
        >),
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
  const fieldErrorShown = (shown && limitWrong) || policyErrorShown;
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
        {LIMITS.map((limit) => (
          <LimitField
            key={limit.name}
            limit={limit}
            value={limits[limit.name]}
            error={shown ? limitErrors[limit.name] : null}
            onChange={(value) => setLimits({ ...limits, [limit.name]: value })}
          />
        ))}
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
      {error && !fieldErrorShown && !LIMITS.some((l) => messageAt(error, l.name, LABELS)) && (
        <ErrorNotice error={error} />
      )}
    </form>
  );
}

function LimitField({
  limit,
  value,
  error,
  onChange,
}: {
  limit: Limit;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = useId();
  const hintId = useId();
  const hint = "hint" in limit ? limit.hint : null;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{limit.label}</label>
      <input
        id={id}
        type="number"
        min={limit.low}
        max={limit.high}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p id={hintId} className="muted">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
