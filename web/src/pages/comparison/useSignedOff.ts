/**
 * The comparison's latest sign-off in words beside its ship decision ("Signed off: approved
 * over Don't ship, by Ada"), for the page's header and its Decision region. It reads the
 * Reports region's document and the Decision region's (the same requests, not new ones).
 */
import { useQuery } from "../../lib/query";
import { DecisionQuery } from "./decisionQueries";
import { memberNames } from "./ReportNames";
import { ReportsQuery } from "./Reports";
import { signedOffWords } from "./signOffWords";

/** The words, or null while there is no sign-off (or it is still being read); `pause` until
 * the comparison can have one. */
export function useSignedOff(comparisonId: string, pause: boolean): string | null {
  const [{ data }] = useQuery({ query: ReportsQuery, variables: { id: comparisonId }, pause });
  const [{ data: decided }] = useQuery({
    query: DecisionQuery,
    variables: { id: comparisonId },
    pause,
  });
  const reports = data?.comparison.id === comparisonId ? data.comparison.reports : [];
  const signOff = [...reports].reverse().find((r) => r.signOff)?.signOff;
  if (!signOff || !data) return null;
  const names = memberNames(data.members.edges.map((e) => e.node));
  return signedOffWords(
    signOff.decision,
    decided?.comparison.decision?.outcome,
    names(signOff.signerMemberId),
  );
}
