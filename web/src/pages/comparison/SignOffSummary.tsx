import { Ago } from "../../components/Ago";
import type { SignOffDecision, SignOffVerdict } from "../../gql/graphql";
import { DECISION_WORDS, VERDICT_WORDS } from "./signOffWords";

/** The latest version's sign-off: the decision, the verdict it wrote, who and when. */
export function SignOffSummary({
  signOff,
  signer,
}: {
  signOff: {
    decision: SignOffDecision;
    verdict: SignOffVerdict;
    override: boolean;
    overrideJustification?: string | null;
    signerRole: string;
    createdAt: string;
  };
  signer: string;
}) {
  return (
    <section aria-label="Sign-off" className="sign-off-summary">
      <p>
        <strong>Decision: {DECISION_WORDS[signOff.decision]}</strong> — verdict{" "}
        <span className="chip">{VERDICT_WORDS[signOff.verdict]}</span> signed off by {signer} (
        {signOff.signerRole.toLowerCase()}) <Ago iso={signOff.createdAt} />.
      </p>
      {signOff.override && (
        <p>
          Approved over open follow-ups. Justification:{" "}
          <span className="quoted">{signOff.overrideJustification}</span>
        </p>
      )}
    </section>
  );
}
