/**
 * A Playground session as the URL keeps it (`/playground?s=…`): the prompt it was opened from,
 * the typed variables and one to four panes, each a saved version or a draft. No server state
 * is needed for a draft until it is saved; a reload restores the session from the URL.
 */
export interface Message {
  role: string;
  content: string;
}

export interface PaneDraft {
  /** The saved version the pane shows; null: a draft (its messages edited). */
  versionId: string | null;
  messages: Message[];
  connectionId: string;
  model: string;
  temperature: string;
  maxTokens: string;
}

export interface Session {
  promptId: string | null;
  variables: Record<string, string>;
  panes: PaneDraft[];
}

export const MAX_PANES = 4;

export function newPane(connectionId: string, messages: Message[], versionId: string | null = null): PaneDraft {
  return { versionId, messages, connectionId, model: "", temperature: "", maxTokens: "256" };
}

export const EMPTY_SESSION: Session = {
  promptId: null,
  variables: {},
  panes: [newPane("", [{ role: "user", content: "{{ question }}" }])],
};

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

export function encodeSession(session: Session): string {
  return toBase64Url(JSON.stringify(session));
}

function isMessage(value: unknown): value is Message {
  const m = value as Message;
  return typeof m?.role === "string" && typeof m?.content === "string";
}

/** The session in `?s=`; null when missing or not one (a hand-edited URL). */
export function decodeSession(text: string | null): Session | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(fromBase64Url(text)) as Partial<Session>;
    const panes = (Array.isArray(raw.panes) ? raw.panes : []).slice(0, MAX_PANES).map((p) => ({
      versionId: typeof p?.versionId === "string" ? p.versionId : null,
      messages: Array.isArray(p?.messages) ? p.messages.filter(isMessage) : [],
      connectionId: String(p?.connectionId ?? ""),
      model: String(p?.model ?? ""),
      temperature: String(p?.temperature ?? ""),
      maxTokens: String(p?.maxTokens ?? "256"),
    }));
    if (panes.length === 0) return null;
    const variables: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw.variables ?? {})) variables[k] = String(v);
    return { promptId: typeof raw.promptId === "string" ? raw.promptId : null, variables, panes };
  } catch {
    return null;
  }
}

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)/g;

/** The variables the panes' messages name, in order of first use. */
export function sessionVariables(panes: PaneDraft[]): string[] {
  const found: string[] = [];
  for (const pane of panes)
    for (const m of pane.messages)
      for (const match of m.content.matchAll(VARIABLE))
        if (match[1] && !found.includes(match[1])) found.push(match[1]);
  return found;
}

/** What "Compare on a dataset" does (seed 002's rules, word for word). */
export type CompareStep =
  | { kind: "refuse"; message: string }
  | { kind: "open"; versionIds: string[] };

export function compareStep(
  session: Session,
  versions: { id: string; number: number }[],
): CompareStep {
  if (!session.promptId)
    return { kind: "refuse", message: "Open this session from a prompt to compare on a dataset." };
  if (session.panes.some((p) => p.versionId === null)) return { kind: "refuse", message: "Save the draft first" };
  const saved = [...new Set(session.panes.map((p) => p.versionId as string))];
  if (saved.length >= 2) return { kind: "open", versionIds: saved.slice(0, 2) };
  const only = versions.find((v) => v.id === saved[0]);
  const previous = only
    ? [...versions].filter((v) => v.number < only.number).sort((a, b) => b.number - a.number)[0]
    : undefined;
  if (!only || !previous)
    return { kind: "refuse", message: "This prompt has no earlier version to compare this one with." };
  return { kind: "open", versionIds: [only.id, previous.id] };
}
