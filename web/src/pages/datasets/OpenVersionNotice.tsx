/**
 * An open (unsealed) version on the dataset's page: what sealing means and button
 * "Seal version N", so an upload whose dialog closed before "Seal" can still be compared on.
 */
import { useId } from "react";
import { useMutation } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { count } from "../../lib/format";
import { SealDatasetVersion } from "./uploadDocuments";

export function OpenVersionNotice({
  version,
  onSealed,
}: {
  version: { id: string; number: number; caseCount: number };
  onSealed: () => void;
}) {
  const wordsId = useId();
  const [sealState, seal] = useMutation(SealDatasetVersion);
  const empty = version.caseCount === 0;
  return (
    <section aria-label="Open version" className="open-version">
      <p id={wordsId}>
        {empty
          ? `Version ${version.number} is open and holds no cases: discard it to upload again.`
          : `Version ${version.number} is open with ${count(version.caseCount)} ${
              version.caseCount === 1 ? "case" : "cases"
            }. Seal it to compare on it: sealing counts and fingerprints its cases, and a sealed ` +
            "version never changes, so every comparison on it runs the same cases. " +
            "Discard it instead to drop its cases."}
      </p>
      {!empty && (
        <div className="row">
          <RoleButton
            needs="MEMBER"
            className="primary"
            aria-describedby={wordsId}
            disabled={sealState.fetching}
            onClick={() =>
              void seal({ versionId: version.id }).then((r) => {
                if (!r.error) onSealed();
              })
            }
          >
            Seal version {version.number}
          </RoleButton>
        </div>
      )}
      {sealState.error && <ErrorNotice error={sealState.error} />}
    </section>
  );
}
