import { describe, expect, it } from "vitest";
import { errorCodeWords, stopWords, type EndFacts } from "./stopWords";

const base: EndFacts = {
  status: "DONE",
  stopReason: "COMPLETED",
  errorCode: null,
  doneCalls: 600,
  totalCalls: 600,
  failedCalls: 0,
  budgetCapCents: null,
  spentCentsSoFar: 320,
  cappedConnections: [],
  experimentName: "capitals",
  dailyBudgetCents: null,
};

describe("stopWords", () => {
  it("names the connection and its cap", () =>
    expect(
      stopWords({
        ...base,
        stopReason: "CONNECTION_CAP",
        doneCalls: 412,
        cappedConnections: [{ name: "my-connection", monthlyCapCents: 5000 }],
      }),
    ).toBe("Stopped: my-connection reached its monthly cap of $50.00. 412 of 600 calls ran."));

  it("says a cancel and what ran", () =>
    expect(stopWords({ ...base, status: "CANCELLED", doneCalls: 120, totalCalls: 360 })).toBe(
      "Cancelled. 120 of 360 calls ran.",
    ));

  it("puts a failure's code in words", () =>
    expect(
      stopWords({ ...base, status: "FAILED", errorCode: "comparison_dispatch_internal", doneCalls: 3 }),
    ).toBe(
      "Failed: Dispatch hit an unexpected error (the details are in the server's logs) (comparison_dispatch_internal). 3 of 600 calls ran.",
    ));

  it("gives the budget cap and the daily budget", () => {
    expect(stopWords({ ...base, stopReason: "BUDGET_CAP", budgetCapCents: 100, spentCentsSoFar: 101 })).toMatch(
      /^Stopped: the comparison reached its budget cap of \$1.00 \(\$1.01 spent\)\./,
    );
    expect(stopWords({ ...base, stopReason: "DAILY_BUDGET", dailyBudgetCents: 500 })).toMatch(
      /^Stopped: the experiment capitals reached its daily budget of \$5.00\./,
    );
  });

  it("says a sequential run was decided early", () =>
    expect(stopWords({ ...base, stopReason: "DECIDED_EARLY", doneCalls: 200, totalCalls: 4000 })).toBe(
      "Decided early: every baseline's confidence sequence settled before the last case. 200 of 4,000 calls ran.",
    ));

  it("counts failed calls", () =>
    expect(stopWords({ ...base, failedCalls: 2 })).toBe(
      "Done. 600 of 600 calls ran. 2 calls failed or went missing.",
    ));
});

describe("errorCodeWords", () => {
  it("keeps an unknown code as it is", () => expect(errorCodeWords("something_new")).toBe("something_new"));
  it("words a trial's code", () =>
    expect(errorCodeWords("provider_timeout")).toBe("The provider did not answer in time (provider_timeout)"));
});
