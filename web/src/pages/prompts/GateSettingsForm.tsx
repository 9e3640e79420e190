/**
 * A prompt's "Gate settings" (`setPromptGateSettings`): the dataset, split, trials, checks and,
 * when it has its own, the ship policy its comparisons start from (seed 002). MEMBER saves;
 * everyone reads.
 */
import { useId, useState } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { ShipPolicyFields } from "../../components/ShipPolicyFields";
import type { Split } from "../../gql/graphql";
import {
  policyDraft,
  policyInput,
  policyProblems,
  serverPolicyProblems,
  type PolicyDraft,
} from "../../lib/shipPolicyDraft";
import type { OfferedCheck } from "../comparisons/setupDraft";
import type { GateStart } from "./compareLink";
import { GateDatasetsQuery, SetPromptGateSettings } from "./promptsDocuments";

const CHECKS: [OfferedCheck, string][] = [
  ["CONTAINS", "Contains the expected output"],
  ["EXACT_MATCH", "Matches the expected output"],
];

export function GateSettingsForm({ assetId, gate }: { assetId: string; gate: GateStart | null }) {
  const headingId = useId();
  const [{ data }] = useQuery({ query: GateDatasetsQuery });
  const [state, save] = useMutation(SetPromptGateSettings);
  const [datasetId, setDatasetId] = useState(gate?.datasetId ?? "");
  const [split, setSplit] = useState<Split>(gate?.split === "HOLDOUT" ? "HOLDOUT" : "DEV");
  const [trials, setTrials] = useState(String(gate?.trialsPerCase ?? 3));
  const [checks, setChecks] = useState<OfferedCheck[]>(() => {
    const kinds = Array.isArray(gate?.checks)
      ? (gate.checks as { kind?: string }[]).map((c) => c.kind as OfferedCheck)
      : [];
    const offered = kinds.filter((k) => CHECKS.some(([kind]) => kind === k));
    return offered.length ? offered : ["CONTAINS"];
  });
  // Its own ship policy, or (unchecked) the workspace's default; a new one starts as that default.
  const [ownPolicy, setOwnPolicy] = useState(Boolean(gate?.shipPolicy));
  const [typedPolicy, setPolicy] = useState<PolicyDraft | null>(() =>
    gate?.shipPolicy ? policyDraft(gate.shipPolicy) : null,
  );
  const defaultPolicy = data?.workspace.settings.defaultShipPolicy;
  const policy = typedPolicy ?? (defaultPolicy ? policyDraft(defaultPolicy) : null);
  const policyShown = ownPolicy && policy ? policyProblems(policy) : {};
  const policyServer = serverPolicyProblems(state.error, "settings.shipPolicy");
  const [saved, setSaved] = useState(false);
  const trialsProblem = /^\d+$/.test(trials) && Number(trials) >= 1 && Number(trials) <= 10
    ? null
    : "Trials per case must be from 1 to 10.";
  const problem =
    trialsProblem ??
    (checks.length === 0
      ? "Choose at least one check."
      : Object.keys(policyShown).length > 0
        ? "Fix the ship policy field marked above."
        : null);
  const problemId = useId();
  const submit = async () => {
    setSaved(false);
    const result = await save({
      assetId,
      settings: {
        datasetId: datasetId || null,
        split,
        trialsPerCase: Number(trials),
        checks: checks.map((kind) => ({ kind })),
        shipPolicy: ownPolicy && policy ? policyInput(policy) : null,
      },
    });
    if (!result.error) setSaved(true);
  };
  return (
    <section aria-labelledby={headingId} className="gate-settings">
      <h3 id={headingId}>Gate settings</h3>
      <p className="muted">
        The compare form starts from these. Without them it starts from the first dataset, the Dev
        split, 3 trials, &quot;Contains the expected output&quot; and the workspace&apos;s default
        ship policy.
      </p>
      <div className="row">
        <label className="field">
          Gate dataset
          <select value={datasetId} onChange={(e) => setDatasetId(e.target.value)}>
            <option value="">The first dataset</option>
            {(data?.datasets.edges ?? []).map((e) => (
              <option key={e.node.id} value={e.node.id}>
                {e.node.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Gate split
          <select value={split} onChange={(e) => setSplit(e.target.value as Split)}>
            <option value="DEV">Dev</option>
            <option value="HOLDOUT">Holdout</option>
          </select>
        </label>
        <label className="field">
          Gate trials per case
          <input
            type="number"
            min={1}
            max={10}
            value={trials}
            aria-describedby={trialsProblem ? problemId : undefined}
            onChange={(e) => setTrials(e.target.value)}
          />
        </label>
      </div>
      <fieldset>
        <legend>Gate checks</legend>
        {CHECKS.map(([kind, words]) => (
          <label key={kind} className="check">
            <input
              type="checkbox"
              checked={checks.includes(kind)}
              onChange={(e) =>
                setChecks((now) => (e.target.checked ? [...now, kind] : now.filter((k) => k !== kind)))
              }
            />
            {words}
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={ownPolicy}
          onChange={(e) => {
            setOwnPolicy(e.target.checked);
            setSaved(false);
          }}
        />
        Gate ship policy of its own
      </label>
      {ownPolicy && policy && (
        <ShipPolicyFields
          value={policy}
          onChange={setPolicy}
          problems={{ ...policyServer, ...policyShown }}
        >
          <p className="muted">
            The compare form starts from this policy instead of the workspace&apos;s default.
          </p>
        </ShipPolicyFields>
      )}
      {problem && (
        <p id={problemId} className="field-error">
          {problem}
        </p>
      )}
      <div className="row">
        <RoleButton needs="MEMBER" disabled={problem !== null || state.fetching || (ownPolicy && !policy)} onClick={() => void submit()}>
          Save gate settings
        </RoleButton>
        {saved && <span role="status">Gate settings saved.</span>}
      </div>
      {state.error && Object.keys(policyServer).length === 0 && <ErrorNotice error={state.error} />}
    </section>
  );
}
