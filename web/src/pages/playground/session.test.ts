import { describe, expect, it } from "vitest";
import { compareStep, decodeSession, encodeSession, newPane, sessionVariables, type Session } from "./session";

const versions = [
  { id: "v1", number: 1 },
  { id: "v2", number: 2 },
];

function session(panes: Session["panes"], promptId: string | null = "p"): Session {
  return { promptId, variables: { question: "Où ?" }, panes };
}

describe("a Playground session", () => {
  it("comes back from its URL text, drafts and non-ASCII included", () => {
    const s = session([newPane("c", [{ role: "user", content: "{{ question }} — ✓" }])]);
    expect(decodeSession(encodeSession(s))).toEqual(s);
    expect(decodeSession("not-a-session")).toBeNull();
  });

  it("lists the variables its panes name", () => {
    expect(sessionVariables([newPane("c", [{ role: "user", content: "{{ a }} {{b}} {{ a }}" }])])).toEqual(["a", "b"]);
  });

  it("compares as seed 002 says", () => {
    const saved = (id: string) => newPane("c", [], id);
    expect(compareStep(session([saved("v2")], null), versions)).toEqual({
      kind: "refuse",
      message: "Open this session from a prompt to compare on a dataset.",
    });
    expect(compareStep(session([saved("v2"), newPane("c", [])]), versions)).toEqual({
      kind: "refuse",
      message: "Save the draft first",
    });
    expect(compareStep(session([saved("v2"), saved("v1")]), versions)).toEqual({ kind: "open", versionIds: ["v2", "v1"] });
    expect(compareStep(session([saved("v2")]), versions)).toEqual({ kind: "open", versionIds: ["v2", "v1"] });
  });
});
