/**
 * `/playground` (seed 002, docs/portal.md): one to four panes run on the same input through
 * the API (`playgroundRun`, streamed by `playgroundRunProgress`), "Run on 5 cases" as a grid
 * graded by the prompt's gate settings, Stop, "Save as version" and "Compare on a dataset".
 * The session lives in the URL (`?s=`), so a reload restores it; `?prompt=A&version=V` opens
 * a prompt's version. Ctrl+Enter runs.
 */
import { useCallback, useEffect, useId, useMemo, useState, type KeyboardEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useMutation, useSubscription, type CombinedError } from "urql";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import type { PlaygroundCellFieldsFragment, PlaygroundRunInput } from "../../gql/graphql";
import { atLeast } from "../../lib/roles";
import { useSession } from "../../lib/session";
import { compareVersionsLink } from "../prompts/compareLink";
import { AddAssetVersion, ReleasesUsingQuery } from "../prompts/promptsDocuments";
import { CaseFill } from "./CaseFill";
import { CaseGrid } from "./CaseGrid";
import { PaneCard, type VersionChoice } from "./PaneCard";
import {
  PlaygroundChoicesQuery,
  PlaygroundProgressSubscription,
  PlaygroundRunMutation,
  StopPlaygroundRunMutation,
} from "./playgroundDocuments";
import {
  EMPTY_SESSION,
  MAX_PANES,
  compareStep,
  decodeSession,
  encodeSession,
  newPane,
  sessionVariables,
  type Message,
  type PaneDraft,
  type Session,
} from "./session";
import "./playground.css";

type Cell = PlaygroundCellFieldsFragment;

function messagesOf(content: unknown): Message[] {
  const raw = (content as { messages?: unknown } | null)?.messages;
  return Array.isArray(raw)
    ? raw.map((m: { role?: unknown; content?: unknown }) => ({ role: String(m.role), content: String(m.content) }))
    : [];
}

function paneInput(pane: PaneDraft, promptId: string | null): PlaygroundRunInput["panes"][number] {
  const temperature = pane.temperature.trim();
  return {
    connectionId: pane.connectionId,
    model: pane.model.trim(),
    maxTokens: Number(pane.maxTokens) || 256,
    temperature: temperature === "" ? null : Number(temperature),
    promptVersionId: pane.versionId,
    assetId: pane.versionId ? null : promptId,
    messages: pane.versionId ? null : pane.messages,
  };
}

/** Why Run cannot start yet, in words; null: it can. */
function runBlocker(session: Session): string | null {
  for (const [i, pane] of session.panes.entries()) {
    if (!pane.connectionId) return `Choose a connection for pane ${i + 1}.`;
    if (!pane.model.trim()) return `Name a model for pane ${i + 1}.`;
  }
  return null;
}

export default function PlaygroundPage() {
  const navigate = useNavigate();
  const { role } = useSession();
  const [params, setParams] = useSearchParams();
  const [{ data: choices, error: choicesError }, refetchChoices] = useQuery({ query: PlaygroundChoicesQuery });
  const [{ data: releases }] = useQuery({ query: ReleasesUsingQuery });
  const prompts = useMemo(() => choices?.assets.edges.map((e) => e.node) ?? [], [choices]);
  const connections = choices?.modelConnections.edges.map((e) => e.node) ?? [];
  const datasets = choices?.datasets.edges.map((e) => e.node) ?? [];

  const stored = decodeSession(params.get("s"));
  const session: Session = stored ?? EMPTY_SESSION;
  const setSession = useCallback(
    (next: Session) => setParams({ s: encodeSession(next) }, { replace: true }),
    [setParams],
  );

  // "Open in Playground": `?prompt=A&version=V` becomes a session with that version loaded.
  const openPrompt = params.get("prompt");
  const openVersion = params.get("version");
  useEffect(() => {
    if (stored || !openPrompt || !choices) return;
    const prompt = prompts.find((p) => p.id === openPrompt);
    const version = prompt?.versions.find((v) => v.id === openVersion) ?? prompt?.versions.at(-1);
    const connectionId = choices.modelConnections.edges[0]?.node.id ?? "";
    setSession({
      promptId: prompt ? prompt.id : null,
      variables: {},
      panes: [newPane(connectionId, version ? messagesOf(version.content) : EMPTY_SESSION.panes[0]!.messages, version?.id ?? null)],
    });
  }, [stored, openPrompt, openVersion, choices, prompts, setSession]);

  const prompt = prompts.find((p) => p.id === session.promptId) ?? null;
  const versions: VersionChoice[] = (prompt?.versions ?? []).map((v) => ({
    id: v.id,
    number: v.number,
    messages: messagesOf(v.content),
  }));
  const variables = sessionVariables(session.panes);

  const [runId, setRunId] = useState<string | null>(null);
  const [started, setStarted] = useState<Cell[] | null>(null);
  const [runError, setRunError] = useState<CombinedError | null>(null);
  const [gridDataset, setGridDataset] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [run, startRun] = useMutation(PlaygroundRunMutation);
  const [, stopRun] = useMutation(StopPlaygroundRunMutation);
  const [saving, saveVersion] = useMutation(AddAssetVersion);
  const [{ data: live }] = useSubscription({
    query: PlaygroundProgressSubscription,
    variables: { id: runId ?? "" },
    pause: runId === null,
  });
  const snapshot = live?.playgroundRunProgress.id === runId ? live?.playgroundRunProgress : undefined;
  const cells: Cell[] = snapshot?.cells ?? started ?? [];
  const running = runId !== null && (snapshot ? snapshot.status === "RUNNING" : started !== null);
  const grid = cells.some((c) => c.caseId !== null);

  const blocker = runBlocker(session);
  const mayRun = atLeast(role, "MEMBER");
  const go = async (datasetId: string | null) => {
    if (blocker || !mayRun || running) return;
    setRunError(null);
    setNotice(null);
    const result = await startRun({
      input: {
        panes: session.panes.map((p) => paneInput(p, session.promptId)),
        variables: Object.fromEntries(variables.map((v) => [v, session.variables[v] ?? ""])),
        datasetId,
      },
    });
    const made = result.data?.playgroundRun;
    if (!made) return setRunError(result.error ?? null);
    setStarted(made.cells);
    setRunId(made.id);
  };
  const stop = async () => {
    if (runId) await stopRun({ id: runId });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
      e.preventDefault();
      void go(null);
    }
  };

  const setPane = (index: number, pane: PaneDraft) =>
    setSession({ ...session, panes: session.panes.map((p, i) => (i === index ? pane : p)) });
  const save = async (index: number) => {
    const pane = session.panes[index];
    if (!pane || !session.promptId) return;
    setRunError(null);
    const result = await saveVersion({ input: { assetId: session.promptId, content: { messages: pane.messages } } });
    const saved = result.data?.addAssetVersion;
    if (!saved) return setRunError(result.error ?? null);
    setSession({ ...session, panes: session.panes.map((p, i) => (i === index ? { ...p, versionId: saved.id } : p)) });
    setNotice(`Saved as version ${saved.number}.`);
    refetchChoices({ requestPolicy: "network-only" });
  };
  const compare = () => {
    const step = compareStep(session, versions);
    if (step.kind === "refuse") return setNotice(step.message);
    const base =
      releases?.releases.edges.find((e) => e.node.bindings.some((b) => b.assetVersion.asset.id === session.promptId))
        ?.node.id ?? null;
    navigate(compareVersionsLink("PROMPT_TEMPLATE", step.versionIds, base, prompt?.gateSettings ?? null));
  };

  const blockerId = useId();
  return (
    <div onKeyDown={onKeyDown}>
      <h1>Playground</h1>
      <p className="muted">
        {prompt ? (
          <>Prompt: {prompt.name}. </>
        ) : (
          <>A session not opened from a prompt. </>
        )}
        Every run is a real call through the connection: it counts against its monthly cap. Ctrl+Enter runs.
      </p>
      {choicesError && <ErrorNotice error={choicesError} />}
      <section aria-label="Input" className="playground-input">
        <h2>Input</h2>
        {variables.length === 0 && <p className="muted">The messages use no variables.</p>}
        {variables.length > 0 && (
          <CaseFill
            datasetId={gridDataset}
            variables={variables}
            onFill={(values) => setSession({ ...session, variables: { ...session.variables, ...values } })}
          />
        )}
        {variables.map((v) => (
          <label key={v} className="field">
            {v}
            <textarea
              rows={2}
              value={session.variables[v] ?? ""}
              onChange={(e) => setSession({ ...session, variables: { ...session.variables, [v]: e.target.value } })}
            />
          </label>
        ))}
      </section>
      <div className="row toolbar">
        <RoleButton
          needs="MEMBER"
          className="primary"
          disabled={blocker !== null || running || run.fetching}
          aria-describedby={blocker ? blockerId : undefined}
          onClick={() => void go(null)}
        >
          Run
        </RoleButton>
        <button type="button" disabled={!running} onClick={() => void stop()}>
          Stop
        </button>
        <label className="field">
          Cases from
          <select value={gridDataset} onChange={(e) => setGridDataset(e.target.value)}>
            <option value="">Choose a dataset</option>
            {datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <RoleButton
          needs="MEMBER"
          disabled={blocker !== null || running || !gridDataset}
          onClick={() => void go(gridDataset)}
        >
          Run on 5 cases
        </RoleButton>
        {session.panes.length < MAX_PANES && (
          <button
            type="button"
            onClick={() => {
              const last = session.panes[session.panes.length - 1];
              setSession({ ...session, panes: [...session.panes, { ...(last ?? EMPTY_SESSION.panes[0]!) }] });
            }}
          >
            Add pane
          </button>
        )}
        <button type="button" onClick={compare}>
          Compare on a dataset
        </button>
        {blocker && (
          <span id={blockerId} className="muted">
            {blocker}
          </span>
        )}
      </div>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      {runError && <ErrorNotice error={runError} />}
      <div className="panes">
        {session.panes.map((pane, index) => (
          <PaneCard
            key={index}
            index={index}
            pane={pane}
            versions={versions}
            connections={connections}
            cell={grid ? undefined : cells.find((c) => c.paneIndex === index)}
            canRemove={session.panes.length > 1}
            onChange={(next) => setPane(index, next)}
            onRemove={() => setSession({ ...session, panes: session.panes.filter((_, i) => i !== index) })}
            onSave={pane.versionId === null && session.promptId ? () => void save(index) : null}
            saveBlocked={mayRun ? (saving.fetching ? "Saving…" : null) : "Needs the Member role"}
          />
        ))}
      </div>
      {grid && <CaseGrid cells={cells} panes={session.panes.length} />}
    </div>
  );
}
