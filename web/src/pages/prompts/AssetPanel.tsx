/**
 * One asset: its versions, a version's content, "New version", a text diff between two
 * versions, and "Compare on a dataset" for one version or two side by side.
 */
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { RoleButton } from "../../components/RoleButton";
import type { AssetsOfKindQuery, BindingRole } from "../../gql/graphql";
import { enumWords } from "../../lib/words";
import { contentText, draftOf, type EditableKind } from "./assetContent";
import { compareVersionsLink, type GateStart } from "./compareLink";
import { GateSettingsForm } from "./GateSettingsForm";
import { ConnectionChoicesQuery } from "./promptsDocuments";
import { VersionDialog } from "./VersionDialog";
import { VersionDiff } from "./VersionDiff";

type Asset = AssetsOfKindQuery["assets"]["edges"][number]["node"];

const ROLE_OF_KIND: Record<EditableKind, BindingRole> = {
  PROMPT_TEMPLATE: "PROMPT_TEMPLATE",
  MODEL_CONFIG: "MODEL_CONFIG",
  RUBRIC: "RUBRIC",
};

export function AssetPanel({
  kind,
  asset,
  baseReleaseId,
  onSaved,
}: {
  kind: EditableKind;
  asset: Asset;
  /** The newest release binding this asset, the variants' base; null if none does;
   * undefined while the releases are read (a link then would lose its base). */
  baseReleaseId: string | null | undefined;
  onSaved: () => void;
}) {
  const navigate = useNavigate();
  const [{ data: connections }] = useQuery({ query: ConnectionChoicesQuery, pause: kind !== "MODEL_CONFIG" });
  const names = new Map((connections?.modelConnections.edges ?? []).map((e) => [e.node.id, e.node.name]));
  const text = (content: unknown) => contentText(kind, content, names);
  const versions = asset.versions;
  const latest = versions[versions.length - 1];
  const [shownId, setShownId] = useState(latest?.id ?? "");
  const [fromId, setFromId] = useState(versions[versions.length - 2]?.id ?? latest?.id ?? "");
  const [toId, setToId] = useState(latest?.id ?? "");
  const [editing, setEditing] = useState(false);
  const headingId = useId();
  const shown = versions.find((v) => v.id === shownId) ?? latest;
  const from = versions.find((v) => v.id === fromId);
  const to = versions.find((v) => v.id === toId);
  const role = ROLE_OF_KIND[kind];
  // A prompt's comparisons start from its gate settings (seed 002); other kinds' as before.
  const gate: GateStart | null | undefined = kind === "PROMPT_TEMPLATE" ? (asset.gateSettings ?? null) : undefined;
  const versionSelect = (label: string, value: string, set: (id: string) => void) => (
    <label className="field">
      {label}
      <select value={value} onChange={(e) => set(e.target.value)}>
        {versions.map((v) => (
          <option key={v.id} value={v.id}>
            Version {v.number}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section aria-labelledby={headingId} className="asset-panel">
      <h2 id={headingId}>
        {asset.name} <span className="muted">({enumWords(kind)})</span>
      </h2>
      {asset.builtIn && <p className="muted">Built in: shared by every workspace, never changes.</p>}
      <div className="row">
        {!asset.builtIn && (
          <RoleButton needs="MEMBER" onClick={() => setEditing(true)}>
            New version
          </RoleButton>
        )}
      </div>
      {shown ? (
        <>
          <div className="row">{versionSelect("Version", shown.id, setShownId)}</div>
          <p className="muted">
            Version {shown.number}, saved <Ago iso={shown.createdAt} />
            {kind === "PROMPT_TEMPLATE" &&
              ` · variables: ${shown.variables.length ? shown.variables.join(", ") : "none"}`}
          </p>
          <figure className="content">
            <figcaption className="visually-hidden">Version {shown.number} content</figcaption>
            <pre className="text">{text(shown.content)}</pre>
          </figure>
          <RoleButton
            needs="MEMBER"
            disabled={baseReleaseId === undefined}
            onClick={() => navigate(compareVersionsLink(role, [shown.id], baseReleaseId ?? null, gate))}
          >
            Compare on a dataset
          </RoleButton>
          {kind === "PROMPT_TEMPLATE" && (
            <button
              type="button"
              onClick={() => navigate(`/playground?prompt=${encodeURIComponent(asset.id)}&version=${encodeURIComponent(shown.id)}`)}
            >
              Open in Playground
            </button>
          )}
        </>
      ) : (
        <p className="muted">No versions yet.</p>
      )}
      {versions.length > 1 && (
        <>
          <h3>Two versions side by side</h3>
          <div className="row">
            {versionSelect("From version", fromId, setFromId)}
            {versionSelect("To version", toId, setToId)}
          </div>
          {from && to && <VersionDiff from={text(from.content)} to={text(to.content)} />}
          {from && to && from.id !== to.id && (
            <RoleButton
              needs="MEMBER"
              disabled={baseReleaseId === undefined}
              onClick={() => navigate(compareVersionsLink(role, [to.id, from.id], baseReleaseId ?? null, gate))}
            >
              Compare these two on a dataset
            </RoleButton>
          )}
        </>
      )}
      {kind === "PROMPT_TEMPLATE" && !asset.builtIn && (
        <GateSettingsForm assetId={asset.id} gate={asset.gateSettings ?? null} />
      )}
      {editing && (
        <VersionDialog
          kind={kind}
          title="New version"
          assetId={asset.id}
          start={draftOf(kind, latest?.content)}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onSaved();
          }}
        />
      )}
    </section>
  );
}
