/**
 * One pane: a saved version or a draft (its messages edited in place), its connection, model
 * and parameters, and its answer as it streams, with tokens, cost and time. The answer is
 * untrusted text: shown as text, never as markup.
 */
import { useId } from "react";
import type { PlaygroundCellFieldsFragment } from "../../gql/graphql";
import { dollars } from "../../lib/format";
import type { Message, PaneDraft } from "./session";

const ROLES = ["system", "user", "assistant"];

export interface VersionChoice {
  id: string;
  number: number;
  messages: Message[];
}

export interface ConnectionChoice {
  id: string;
  name: string;
}

export function cellFacts(cell: PlaygroundCellFieldsFragment): string {
  return `${cell.inputTokens} in · ${cell.outputTokens} out tokens · ${dollars(cell.costCents)} · ${(cell.latencyMs / 1000).toFixed(1)} s`;
}

export function PaneCard({
  index,
  pane,
  versions,
  connections,
  cell,
  canRemove,
  onChange,
  onRemove,
  onSave,
  saveBlocked,
}: {
  index: number;
  pane: PaneDraft;
  versions: VersionChoice[];
  connections: ConnectionChoice[];
  cell: PlaygroundCellFieldsFragment | undefined;
  canRemove: boolean;
  onChange: (pane: PaneDraft) => void;
  onRemove: () => void;
  onSave: (() => void) | null;
  saveBlocked: string | null;
}) {
  const base = useId();
  const name = `Pane ${index + 1}`;
  const setMessage = (i: number, patch: Partial<Message>) =>
    onChange({
      ...pane,
      versionId: null,
      messages: pane.messages.map((m, j) => (j === i ? { ...m, ...patch } : m)),
    });
  const version = versions.find((v) => v.id === pane.versionId);
  return (
    <section className="pane" aria-labelledby={`${base}-h`}>
      <h2 id={`${base}-h`}>
        {name}{" "}
        <span className="muted">
          {version ? `(Version ${version.number})` : pane.versionId ? "(Saved version)" : "(Draft)"}
        </span>
      </h2>
      {versions.length > 0 && (
        <label className="field">
          {name} version
          <select
            value={pane.versionId ?? ""}
            onChange={(e) => {
              const chosen = versions.find((v) => v.id === e.target.value);
              if (chosen) onChange({ ...pane, versionId: chosen.id, messages: chosen.messages });
              else onChange({ ...pane, versionId: null });
            }}
          >
            <option value="">Draft</option>
            {versions.map((v) => (
              <option key={v.id} value={v.id}>
                Version {v.number}
              </option>
            ))}
          </select>
        </label>
      )}
      {pane.messages.map((m, i) => (
        <div key={i} className="pane-message">
          <label className="field">
            {name} message {i + 1} speaker
            <select value={m.role} onChange={(e) => setMessage(i, { role: e.target.value })}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            {name} message {i + 1}
            <textarea rows={3} value={m.content} onChange={(e) => setMessage(i, { content: e.target.value })} />
          </label>
        </div>
      ))}
      <div className="row">
        <button
          type="button"
          onClick={() => onChange({ ...pane, versionId: null, messages: [...pane.messages, { role: "user", content: "" }] })}
        >
          Add message to {name.toLowerCase()}
        </button>
      </div>
      <div className="row">
        <label className="field">
          Connection
          <select value={pane.connectionId} onChange={(e) => onChange({ ...pane, connectionId: e.target.value })}>
            <option value="">Choose a connection</option>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Model
          <input type="text" value={pane.model} onChange={(e) => onChange({ ...pane, model: e.target.value })} />
        </label>
        <label className="field">
          Temperature
          <input
            type="number"
            min={0}
            max={2}
            step="any"
            placeholder="Provider's default"
            value={pane.temperature}
            onChange={(e) => onChange({ ...pane, temperature: e.target.value })}
          />
        </label>
        <label className="field">
          Max tokens
          <input
            type="number"
            min={1}
            value={pane.maxTokens}
            onChange={(e) => onChange({ ...pane, maxTokens: e.target.value })}
          />
        </label>
      </div>
      <div className="row">
        {onSave && (
          <button type="button" disabled={saveBlocked !== null} aria-describedby={saveBlocked ? `${base}-sb` : undefined} onClick={onSave}>
            Save as version
          </button>
        )}
        {onSave && saveBlocked && (
          <span id={`${base}-sb`} className="needs-role">
            {saveBlocked}
          </span>
        )}
        {canRemove && (
          <button type="button" onClick={onRemove}>
            Remove {name.toLowerCase()}
          </button>
        )}
      </div>
      <section aria-label={`${name} output`} className="pane-output">
        {cell ? (
          <>
            <pre className="text" aria-live="polite">
              {cell.output}
            </pre>
            {cell.error && <p className="error">{cell.error}</p>}
            <p className="muted">
              {cell.status === "STREAMING" || cell.status === "QUEUED"
                ? "Answering…"
                : cell.status === "STOPPED"
                  ? "Stopped."
                  : cellFacts(cell)}
            </p>
          </>
        ) : (
          <p className="muted">Run to see this pane&apos;s answer.</p>
        )}
      </section>
    </section>
  );
}
