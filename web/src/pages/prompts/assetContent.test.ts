import { describe, expect, it } from "vitest";
import { contentText, draftErrors, draftOf, toContent, variablesIn } from "./assetContent";
import { draftFromLink, compareVersionsLink, compareReleasesLink } from "./compareLink";

describe("asset content", () => {
  it("lists a template's variables as typed, blocks included", () => {
    const messages = [
      { role: "system", content: "{% if context %}Use {{ context }}{% endif %}" },
      { role: "user", content: "{{question}} and {{ question | upper }}" },
    ];
    expect(variablesIn(messages)).toEqual(["context", "question"]);
  });

  it("reads a model config with its connection's name", () => {
    const content = { connectionId: "conn_1", model: "sim-1", maxOutputTokens: 256, seed: 3 };
    expect(contentText("MODEL_CONFIG", content, new Map([["conn_1", "practice"]]))).toBe(
      "Connection: practice\nModel: sim-1\nMax output tokens: 256\n" +
        "Temperature: the model's default\nseed: 3",
    );
  });

  it("round-trips a model config and says what is missing in words", () => {
    const draft = draftOf("MODEL_CONFIG", { connectionId: "c", model: "m", maxOutputTokens: 9, temperature: 0.5 });
    expect(toContent("MODEL_CONFIG", draft)).toEqual({ connectionId: "c", model: "m", maxOutputTokens: 9, temperature: 0.5 });
    expect(draftErrors("MODEL_CONFIG", { ...draft, model: "", maxOutputTokens: "0" })).toEqual({
      model: "Give the model's name, e.g. gpt-4o-mini.",
      maxOutputTokens: "Give a whole number of tokens, 1 or more.",
    });
  });
});

describe("Compare on a dataset links", () => {
  it("prefill release cohorts, the first the candidate", () => {
    const draft = draftFromLink(compareReleasesLink(["rel_a", "rel_b"]).split("?")[1] ?? "");
    expect(draft.cohorts.map((c) => [c.kind, c.releaseId])).toEqual([
      ["RELEASE", "rel_a"],
      ["RELEASE", "rel_b"],
    ]);
  });

  it("prefill one version as a variant against its base release", () => {
    const link = compareVersionsLink("PROMPT_TEMPLATE", ["av_2"], "rel_1");
    const draft = draftFromLink(link.split("?")[1] ?? "");
    expect(draft.cohorts.map((c) => [c.kind, c.releaseId, c.overrides.map((o) => o.assetVersionId)])).toEqual([
      ["VARIANT", "rel_1", ["av_2"]],
      ["RELEASE", "rel_1", []],
    ]);
  });

  it("prefill two versions side by side, no base when none is known", () => {
    const draft = draftFromLink(compareVersionsLink("MODEL_CONFIG", ["av_2", "av_1"], null).split("?")[1] ?? "");
    expect(draft.cohorts.map((c) => [c.kind, c.releaseId, c.overrides[0]?.role])).toEqual([
      ["VARIANT", "", "MODEL_CONFIG"],
      ["VARIANT", "", "MODEL_CONFIG"],
    ]);
  });

  it("ignores anything else", () => {
    expect(draftFromLink("role=NOPE&version=x").cohorts).toEqual([]);
  });
});
