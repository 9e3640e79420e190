import { Ago } from "../../components/Ago";
import type { DecisionOutcome, SignOffDecision, SignOffVerdict } from "../../gql/graphql";
import { signedOffWords, VERDICT_WORDS } from "./signOffWords";

/** The latest version's sign-off named as what it is ("Signed off: approved over Don't ship,
 * by Ada"), the verdict it wrote, the signer's role and when. */
export function SignOffSummary({
  signOff,
  signer,
  outcome,
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
  /** The ship decision signed off, when there is one. */
  outcome: DecisionOutcome | null | undefined;
}) {
  return (
    <section aria-label="Sign-off" className="sign-off-summary">
      <p>
        <strong>{signedOffWords(signOff.decision, outcome, signer)}</strong> (
        {signOff.signerRole.toLowerCase()}) <Ago iso={signOff.createdAt} /> — verdict{" "}
        <span className="chip">{VERDICT_WORDS[signOff.verdict]}</span>
      </p>
      {signOff.override && (
        <p>
          With an override. Justification:{" "}
          <span className="quoted">{signOff.overrideJustification}</span>
        </p>
      )}
    </section>
  );
}
