import { policyDraft } from "../../lib/shipPolicyDraft";
import { describe, expect, it } from "vitest";
import {
  addCohort,
  addOverride,
  cohortGroupName,
  fieldProblems,
  EMPTY_DRAFT,
  missingChoice,
  toInput,
  type SetupDraft,
} from "./setupDraft";

function ready(): SetupDraft {
  let draft = addCohort(addCohort(EMPTY_DRAFT, "RELEASE"), "VARIANT");
  const [first, second] = draft.cohorts;
  draft = {
    ...draft,
    datasetVersionId: "dsv_1",
    cohorts: [
      { ...first!, releaseId: "rel_a", label: " new " },
      {
        ...second!,
        releaseId: "rel_b",
        overrides: [{ key: 1, role: "PROMPT_TEMPLATE", assetVersionId: "av_2" }],
      },
    ],
  };
  return draft;
}

describe("the setup draft", () => {
  it("names the first cohort the candidate", () => {
    expect(cohortGroupName(0)).toBe("Cohort 1 (Candidate)");
    expect(cohortGroupName(2)).toBe("Cohort 3");
  });

  it("asks for two cohorts and a dataset first", () => {
    expect(missingChoice(EMPTY_DRAFT)).toBe("Choose two cohorts and a dataset.");
    expect(toInput(EMPTY_DRAFT)).toBeNull();
  });

  it("asks for each cohort's release and each override's choices", () => {
    const draft = ready();
    const noBase = { ...draft, cohorts: [draft.cohorts[0]!, { ...draft.cohorts[1]!, releaseId: "" }] };
    expect(missingChoice(noBase)).toBe("Choose a base release for Cohort 2.");
    const open = { ...draft, cohorts: [draft.cohorts[0]!, addOverride(draft.cohorts[1]!)] };
    expect(missingChoice(open)).toMatch(/^Choose a role and an asset version/);
  });

  it("refuses numbers it cannot read and no checks", () => {
    expect(missingChoice({ ...ready(), trialsPerCase: "" })).toBe(
      "Trials per case needs a whole number from 1 to 10.",
    );
    expect(missingChoice({ ...ready(), trialsPerCase: "-3" })).toBe("Trials per case must be from 1 to 10.");
    expect(missingChoice({ ...ready(), trialsPerCase: "11" })).toBe("Trials per case must be from 1 to 10.");
    expect(missingChoice({ ...ready(), budgetCapCents: "-3" })).toMatch(/^A budget cap cannot be below zero/);
    expect(missingChoice({ ...ready(), checks: [] })).toBe("Choose at least one check.");
  });

  it("makes a release-vs-variant input, optional fields left out", () => {
    expect(toInput({ ...ready(), sampleSize: "10", budgetCapCents: "250.5" })).toEqual({
      cohorts: [
        { kind: "RELEASE", releaseId: "rel_a", label: "new" },
        {
          kind: "VARIANT",
          baseReleaseId: "rel_b",
          overrides: [{ role: "PROMPT_TEMPLATE", assetVersionId: "av_2" }],
          label: null,
        },
      ],
      datasetVersionId: "dsv_1",
      split: "DEV",
      trialsPerCase: 3,
      checks: [{ kind: "CONTAINS" }],
      sample: { size: 10, seed: 0 },
      budgetCapCents: 250.5,
      label: null,
      shipPolicy: null,
    });
  });

  it("sends the ship policy as the form holds it, and waits while a policy box is not a number", () => {
    const shipPolicy = policyDraft({
      qualityMarginPoints: 1.5,
      alpha: 0.1,
      requireGain: "COST",
      guardrails: [{ metric: "LATENCY_P95", maxIncreasePercent: 20 }],
      judge: { minLabels: 30, minKappa: 0.6 },
    });
    expect(toInput({ ...ready(), shipPolicy })?.shipPolicy).toEqual({
      qualityMarginPoints: 1.5,
      alpha: 0.1,
      requireGain: "COST",
      guardrails: [{ metric: "LATENCY_P95", maxIncreasePercent: 20 }],
      judge: { minLabels: 30, minKappa: 0.6 },
    });
    const blank = { ...shipPolicy, alpha: "" };
    expect(missingChoice({ ...ready(), shipPolicy: blank })).toBe("Alpha needs a number, e.g. 0.05.");
    expect(toInput({ ...ready(), shipPolicy: blank })).toBeNull();
  });
});

describe("fieldProblems", () => {
  it("says in words what is wrong with each number, for its field", () => {
    expect(fieldProblems({ ...EMPTY_DRAFT, trialsPerCase: "0" })).toEqual({
      trialsPerCase: "Trials per case must be from 1 to 10.",
    });
    expect(fieldProblems({ ...EMPTY_DRAFT, trialsPerCase: "1000000" }).trialsPerCase).toBe(
      "Trials per case must be from 1 to 10.",
    );
    expect(fieldProblems({ ...EMPTY_DRAFT, budgetCapCents: "-5" })).toEqual({
      budgetCapCents:
        "A budget cap cannot be below zero: give an amount in cents, or leave it empty for no cap.",
    });
    expect(fieldProblems({ ...EMPTY_DRAFT, sampleSize: "2.5", budgetCapCents: "0.01" })).toEqual({
      sampleSize: "Sample size needs a whole number of cases, or leave it empty for every case.",
    });
  });
});
