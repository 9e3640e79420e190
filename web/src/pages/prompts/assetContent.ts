/**
 * Asset content as the editors hold it, and as text for reading and diffing. Pure: the editors
 * render drafts, `addAssetVersion` takes `toContent`'s JSON.
 */

export type EditableKind = "PROMPT_TEMPLATE" | "MODEL_CONFIG" | "RUBRIC";

export interface Message {
  role: string;
  content: string;
}

export interface Draft {
  messages: Message[];
  connectionId: string;
  model: string;
  temperature: string;
  maxOutputTokens: string;
  rubricText: string;
  scale: "PASS_FAIL" | "SCORE_0_1";
}

export const EMPTY_DRAFT: Draft = {
  messages: [
    { role: "system", content: "" },
    { role: "user", content: "{{ question }}" },
  ],
  connectionId: "",
  model: "",
  temperature: "0",
  maxOutputTokens: "256",
  rubricText: "",
  scale: "PASS_FAIL",
};

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)/g;
const BLOCK_VARIABLE = /\{%\s*(?:if|for\s+\w+\s+in)\s+([A-Za-z_][A-Za-z0-9_]*)/g;

/** The template variables as the person types (the server parses them properly when saved). */
export function variablesIn(messages: Message[]): string[] {
  const found = new Set<string>();
  for (const { content } of messages) {
    for (const m of content.matchAll(VARIABLE)) if (m[1]) found.add(m[1]);
    for (const m of content.matchAll(BLOCK_VARIABLE)) if (m[1]) found.add(m[1]);
  }
  return [...found].sort();
}

/** A saved version's content back into an editor draft (to start the next version from). */
export function draftOf(kind: EditableKind, content: unknown): Draft {
  const c = (content ?? {}) as Record<string, unknown>;
  if (kind === "PROMPT_TEMPLATE" && Array.isArray(c.messages))
    return { ...EMPTY_DRAFT, messages: (c.messages as Message[]).map((m) => ({ ...m })) };
  if (kind === "MODEL_CONFIG")
    return {
      ...EMPTY_DRAFT,
      connectionId: String(c.connectionId ?? ""),
      model: String(c.model ?? ""),
      temperature: c.temperature === undefined || c.temperature === null ? "" : String(c.temperature),
      maxOutputTokens: String(c.maxOutputTokens ?? "256"),
    };
  if (kind === "RUBRIC")
    return {
      ...EMPTY_DRAFT,
      rubricText: String(c.text ?? ""),
      scale: c.scale === "SCORE_0_1" ? "SCORE_0_1" : "PASS_FAIL",
    };
  return EMPTY_DRAFT;
}

/** What is wrong with the draft, field by field, in words. */
export function draftErrors(kind: EditableKind, d: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (kind === "PROMPT_TEMPLATE") {
    if (d.messages.length === 0) errors.messages = "Add at least one message.";
    d.messages.forEach((m, i) => {
      if (!m.content.trim()) errors[`messages.${i}`] = `Message ${i + 1} is empty.`;
    });
  } else if (kind === "MODEL_CONFIG") {
    if (!d.connectionId) errors.connectionId = "Choose a model connection.";
    if (!d.model.trim()) errors.model = "Give the model's name, e.g. gpt-4o-mini.";
    const t = Number(d.temperature);
    if (d.temperature.trim() && (!Number.isFinite(t) || t < 0 || t > 2))
      errors.temperature = "Give a temperature from 0 to 2, or leave it empty.";
    const n = Number(d.maxOutputTokens);
    if (!/^\d+$/.test(d.maxOutputTokens.trim()) || n < 1)
      errors.maxOutputTokens = "Give a whole number of tokens, 1 or more.";
  } else if (!d.rubricText.trim()) errors.rubricText = "Write what a good answer does.";
  return errors;
}

/** The content `addAssetVersion` takes for the draft. */
export function toContent(kind: EditableKind, d: Draft): Record<string, unknown> {
  if (kind === "PROMPT_TEMPLATE") return { messages: d.messages };
  if (kind === "MODEL_CONFIG") {
    const content: Record<string, unknown> = {
      connectionId: d.connectionId,
      model: d.model.trim(),
      maxOutputTokens: Number(d.maxOutputTokens),
    };
    if (d.temperature.trim()) content.temperature = Number(d.temperature);
    return content;
  }
  return { text: d.rubricText, scale: d.scale };
}

/**
 * A version's content as lines of text, for reading and for the diff between two versions;
 * a model config names its connection (by `connectionNames`, else its id).
 */
export function contentText(
  kind: string,
  content: unknown,
  connectionNames: ReadonlyMap<string, string> = new Map(),
): string {
  const c = (content ?? {}) as Record<string, unknown>;
  if (kind === "MODEL_CONFIG") {
    const id = String(c.connectionId ?? "");
    const known = new Set(["connectionId", "model", "maxOutputTokens", "temperature"]);
    const { model, maxOutputTokens, temperature } = c;
    const rest = Object.entries(c).filter(([k]) => !known.has(k));
    return [
      `Connection: ${connectionNames.get(id) ?? id}`,
      `Model: ${String(model ?? "")}`,
      `Max output tokens: ${String(maxOutputTokens ?? "")}`,
      `Temperature: ${temperature === undefined || temperature === null ? "the model's default" : String(temperature)}`,
      ...rest.map(([k, v]) => `${k}: ${JSON.stringify(v)}`),
    ].join("\n");
  }
  if (kind === "PROMPT_TEMPLATE" && Array.isArray(c.messages))
    return (c.messages as Message[]).map((m) => `[${m.role}]\n${m.content}`).join("\n\n");
  if (kind === "RUBRIC") return `Scale: ${String(c.scale)}\n\n${String(c.text ?? "")}`;
  return Object.entries(c)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join("\n");
}
